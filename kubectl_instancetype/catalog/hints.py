"""Hints after KubeVirt's "not found": where users get stuck, said after KubeVirt's verbatim message.

A ControllerRevision that a VM read from a cluster (``status.*Ref.controllerRevisionRef``) or a
``revisionName`` names lives in that cluster: the hint is the ``kubectl get`` that fetches it. A name that is
not found gets the close names of the same kind in scope (the inputs, ``--catalog`` and, when on, the
built-in catalog): ``u1.meduim`` → ``did you mean "u1.medium"?``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from ..api.names import CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, CONTROLLER_REVISION, INSTANCETYPE, PREFERENCE
from .find import NotFound

MAX_SUGGESTIONS = 3
CUTOFF = 0.75  # difflib's similarity ratio: "u1.meduim" and "u1.medium" are 0.89 alike
TIE = 0.05  # suggestions this much less alike than the best one are left out


# A namespaced kind and the cluster-wide kind of the same name (the built-in catalog is only cluster-wide).
CLUSTER_OF = {INSTANCETYPE: CLUSTER_INSTANCETYPE, PREFERENCE: CLUSTER_PREFERENCE}


@runtime_checkable
class Names(Protocol):
    """A lookup that can also list the names of a kind in a namespace's scope."""

    def names(self, kind: str, namespace: str) -> Iterable[str]: ...


def fetch_revision(name: str, namespace: str) -> str:
    """The command that fetches a ControllerRevision from the cluster the VM came from."""
    return f"kubectl get controllerrevision {name} -n {namespace} -o yaml"


# kubectl's resource names of the objects inferFromVolume reads.
VOLUME_RESOURCES = {"DataSource": "datasource", "DataVolume": "datavolume", "PersistentVolumeClaim": "pvc",
                    "VolumeSnapshot": "volumesnapshot"}


def volume_hint(kind: str, name: str, namespace: str) -> str:
    """The hint after "not found" for an object ``inferFromVolume`` reads: it lives in the cluster."""
    resource = VOLUME_RESOURCES.get(kind, kind.lower())
    return (f" (hint: inferFromVolume reads the {kind} from the cluster: pass it with -f or --catalog, or fetch "
            f"it with `kubectl get {resource} {name} -n {namespace} -o yaml`)")


def suggestions(name: str, candidates: Iterable[str]) -> list[str]:
    """The names among ``candidates`` closest to ``name``: the best match and those about as close."""
    import difflib  # only after a "not found"

    scored = []
    for candidate in sorted(set(candidates)):
        if candidate == name:
            continue
        ratio = difflib.SequenceMatcher(None, name, candidate).ratio()
        if ratio >= CUTOFF:
            scored.append((-ratio, candidate))
    scored.sort()
    if not scored:
        return []
    best = -scored[0][0]
    return [c for r, c in scored if -r >= best - TIE][:MAX_SUGGESTIONS]


def hint(error: NotFound, lookup: object) -> str:
    """The hint for ``error`` ("" when there is none), to append after KubeVirt's message."""
    if error.kind == CONTROLLER_REVISION:
        return (f" (hint: the revision is in the cluster the VM comes from: fetch it with "
                f"`{fetch_revision(error.name, error.namespace)}` and pass it with -f)")
    cluster_kind = CLUSTER_OF.get(error.kind)
    if cluster_kind is not None and _exists(lookup, cluster_kind, error.name):
        return (f" (hint: the cluster-scoped {error.name} exists: drop `kind` or use {cluster_kind})")
    close = suggestions(error.name, lookup.names(error.kind, error.namespace)) if isinstance(lookup, Names) else []
    if close:
        quoted = " or ".join(f'"{c}"' for c in close)
        return f" (did you mean {quoted}?)"
    elsewhere = _namespaces_of(lookup, error.kind, error.name) if cluster_kind is not None else []
    if elsewhere:
        where = " and ".join(elsewhere)
        return (f" (hint: {error.kind} {error.name} is in namespace {where}, not {error.namespace}: a namespaced "
                f"instancetype or preference serves the VMs of its own namespace; set the VM's metadata.namespace "
                f"or -n {elsewhere[0]})")
    if cluster_kind is not None:
        return (f" (hint: no {error.kind} {error.namespace}/{error.name} was read: pass the file that defines it "
                f"with -f or --catalog, or fetch it with `kubectl get {error.kind.lower()} {error.name} "
                f"-n {error.namespace} -o yaml`)")
    return ""


def _namespaces_of(lookup: object, kind: str, name: str) -> list[str]:
    """The namespaces that hold a ``kind`` named ``name`` among what was read."""
    entries = getattr(lookup, "entries", None)
    if not isinstance(entries, dict):
        return []
    return sorted({key[1] for key in entries if isinstance(key, tuple) and key[0] == kind and key[2] == name})


def _exists(lookup: object, kind: str, name: str) -> bool:
    get = getattr(lookup, "get", None)
    return callable(get) and get(kind, "", name) is not None
