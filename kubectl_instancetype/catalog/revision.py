"""The ControllerRevisions virt-controller stores for a VirtualMachine (spec §4.1,
``pkg/instancetype/revision/store.go``), so that a repository can pin what its VMs were started with.

Each holds a copy of the instancetype or preference as served (``instancetype.kubevirt.io/v1beta1``) without
labels, annotations, finalizers, owner references and managed fields, and is named
``<vm>-<object>-v1beta1-<object uid>-<object generation>``.

Objects read from files have no uid or generation. Then the generation is 1 (what the API server gives a new
object) and the uid is a UUID derived from the object's kind, namespace, name and spec (a version 5 UUID in
our own namespace): the same object always gives the same name, and a changed spec gives a new revision, as a
re-created object would on a cluster. The VM's owner reference uses its uid, else one derived the same way from
its namespace and name. Quantities in the stored spec are written in canonical form, as KubeVirt encodes them.
"""

from __future__ import annotations

import uuid
from typing import Any

from ..api.golang import clone_json, go_json
from ..api.matchers import MATCHERS, MatcherKind
from ..api.names import (
    CLUSTER_KINDS,
    CONTROLLER_REVISION,
    CORE_API_VERSION,
    INSTANCETYPE_API_VERSION,
    INSTANCETYPE_VERSION,
    REVISION_LABEL_PREFIX,
    VIRTUAL_MACHINE,
)
from ..quantity import canonical
from .find import Lookup, find_object

# uuid5(NAMESPACE_URL, "https://github.com/kubevirt/kubevirt#kubectl-instancetype"), written out: computing it
# at import would load OpenSSL's hash bindings into every render (4 ms), not only those that derive a UID.
UID_NAMESPACE = uuid.UUID("1766c706-cc68-5224-bbd5-060783b53bba")
_CLEARED = ("labels", "annotations", "finalizers", "ownerReferences", "managedFields")
_QUANTITIES = (("memory", "guest"), ("memory", "maxGuest"), ("requirements", "memory", "guest"))


def derived_uid(*parts: Any) -> str:
    """A stable UUID for an object that has none, from the parts that identify its content."""
    return str(uuid.uuid5(UID_NAMESPACE, go_json(list(parts))))


def object_uid(obj: dict[str, Any], namespace: str) -> str:
    meta = obj.get("metadata") or {}
    return str(meta.get("uid") or derived_uid(obj["kind"], namespace, meta.get("name"), obj.get("spec")))


def revisions(vm: dict[str, Any], namespace: str, catalog: Lookup) -> list[dict[str, Any]]:
    """The instancetype then preference revision of ``vm`` (none for a matcher that names a revision).

    ``vm``'s matchers must be settled (``inferFromVolume`` resolved, as the mutating webhook stores them)."""
    out = []
    for matcher in MATCHERS:
        found = _referenced(matcher, vm, namespace, catalog)
        if found is not None:
            out.append(controller_revision(vm, namespace, found))
    return out


def _referenced(matcher: MatcherKind, vm: dict[str, Any], namespace: str, catalog: Lookup) -> dict[str, Any] | None:
    m = (vm.get("spec") or {}).get(matcher.field)
    if not isinstance(m, dict) or m.get("revisionName"):
        return None
    return find_object(matcher, m, namespace, catalog)[1]


def controller_revision(vm: dict[str, Any], namespace: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The ControllerRevision storing ``obj`` for ``vm`` in ``namespace``."""
    stored = stored_object(obj, namespace)
    meta = stored["metadata"]
    vm_meta = vm.get("metadata") or {}
    name = f"{vm_meta.get('name')}-{meta['name']}-{INSTANCETYPE_VERSION}-{meta['uid']}-{meta['generation']}"
    labels = {
        f"{REVISION_LABEL_PREFIX}generation": str(meta["generation"]),
        f"{REVISION_LABEL_PREFIX}kind": obj["kind"],
        f"{REVISION_LABEL_PREFIX}name": meta["name"],
        f"{REVISION_LABEL_PREFIX}uid": meta["uid"],
        f"{REVISION_LABEL_PREFIX}version": INSTANCETYPE_VERSION,
    }
    owner = {
        "apiVersion": CORE_API_VERSION, "kind": VIRTUAL_MACHINE, "name": vm_meta.get("name"),
        "uid": vm_meta.get("uid") or derived_uid(VIRTUAL_MACHINE, namespace, vm_meta.get("name")),
        "controller": True, "blockOwnerDeletion": True,
    }
    return {
        "apiVersion": "apps/v1", "kind": CONTROLLER_REVISION,
        "metadata": {"name": name, "namespace": namespace, "labels": labels, "ownerReferences": [owner]},
        "data": stored, "revision": 0,
    }


def stored_object(obj: dict[str, Any], namespace: str) -> dict[str, Any]:
    """The copy of ``obj`` a revision holds: served version, identity kept, bookkeeping metadata cleared."""
    meta = {k: v for k, v in (obj.get("metadata") or {}).items() if k not in _CLEARED}
    if obj["kind"] not in CLUSTER_KINDS:
        meta["namespace"] = meta.get("namespace") or namespace
    meta["uid"] = object_uid(obj, namespace)
    meta["generation"] = int(meta.get("generation") or 1)
    spec = _canonical(obj.get("spec"))
    return {"apiVersion": INSTANCETYPE_API_VERSION, "kind": obj["kind"], "metadata": meta, "spec": spec}


def _canonical(spec: Any) -> Any:
    """A copy of ``spec`` with its Quantities in canonical spelling."""
    out = clone_json(spec)
    for path in _QUANTITIES:
        node: Any = out
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(path[-1]) is not None:
            node[path[-1]] = canonical(node[path[-1]])
    return out
