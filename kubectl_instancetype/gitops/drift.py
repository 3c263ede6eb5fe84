"""Drift: the fields a live VirtualMachine will differ in from the file it was applied from, and the rules that
tell Argo CD and Flux to ignore exactly those.

The live object is :func:`..pipeline.stages.render_stored`'s answer. A difference is a JSON pointer (RFC 6901)
to the deepest field that differs: a field the cluster adds, or a value it changes. Bookkeeping that every
object gets and that no GitOps tool compares (uid, generation, resourceVersion, creationTimestamp,
managedFields, selfLink) and ``status`` are not drift; ``metadata.namespace`` is not either (it comes from
where the manifest is applied). Rules name each pointer once, so real drift — a hand edit of another field —
is still seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from ..records import dataclass
from .ignore import JqRun, Rule, normalized, run_jq, value_at

KUBEVIRT_GROUP = "kubevirt.io"
VM_KIND = "VirtualMachine"
ARGOCD_CM_KEY = f"resource.customizations.ignoreDifferences.{KUBEVIRT_GROUP}_{VM_KIND}"
_BOOKKEEPING = ("uid", "generation", "resourceVersion", "creationTimestamp", "managedFields", "selfLink", "namespace")
MISSING = object()


@dataclass(frozen=True)
class Drift:
    """One field the live object differs in: its JSON pointer, the file's value and the live one
    (:data:`MISSING` where there is none)."""

    pointer: str
    before: Any
    after: Any

    @property
    def added(self) -> bool:
        return self.before is MISSING


def escape(key: str | int) -> str:
    """A JSON pointer reference token (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def pointer(keys: Iterable[str | int]) -> str:
    return "".join(f"/{escape(k)}" for k in keys)


def differences(manifest: dict[str, Any], live: dict[str, Any]) -> list[Drift]:
    """The drift of ``live`` from ``manifest``, in the live object's field order."""
    out: list[Drift] = []
    for key in ("metadata", "spec"):
        before, after = manifest.get(key, MISSING), live.get(key, MISSING)
        if key == "metadata":
            before = _without_bookkeeping(before)
            after = _without_bookkeeping(after)
        out.extend(_walk((key,), before, after))
    return out


def _without_bookkeeping(meta: Any) -> Any:
    if not isinstance(meta, dict):
        return meta
    return {k: v for k, v in meta.items() if k not in _BOOKKEEPING}


def _walk(keys: tuple[str | int, ...], before: Any, after: Any) -> Iterator[Drift]:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in after:
            yield from _walk((*keys, key), before.get(key, MISSING), after[key])
        for key in before:
            if key not in after:
                yield Drift(pointer((*keys, key)), before[key], MISSING)
        return
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (b, a) in enumerate(zip(before, after, strict=True)):
            yield from _walk((*keys, index), b, a)
        return
    if before is MISSING and isinstance(after, dict) and after:
        # A new mapping: name its leaves, so that a later hand edit next to them is still seen.
        for key, value in after.items():
            yield from _walk((*keys, key), MISSING, value)
        return
    if before != after and not (before is MISSING and after is MISSING):
        yield Drift(pointer(keys), before, after)


def uncovered(manifest: dict[str, Any], live: dict[str, Any], found: list[Drift], rules: list[Rule],
              jq: JqRun = run_jq) -> list[Drift]:
    """The drift in ``found`` that ``rules`` (those that select this VM) leave visible: a field is covered when,
    both objects normalised as the tool normalises them, their values there agree (both removed)."""
    if not rules or not found:
        return found
    before, after = normalized(manifest, rules, jq), normalized(live, rules, jq)
    if before is None or after is None:  # a Flux rule with the path "": the object is not compared at all
        return []
    return [d for d in found if value_at(before, d.pointer) != value_at(after, d.pointer)]


def argocd_application(entries: list[tuple[str, str, list[str]]]) -> dict[str, Any]:
    """The ``spec.ignoreDifferences`` of an Argo CD Application: one entry per VM ``(namespace, name, pointers)``
    (namespace "" for a manifest that names none)."""
    rules = []
    for namespace, name, pointers in entries:
        if pointers:
            rule = {"group": KUBEVIRT_GROUP, "kind": VM_KIND, "name": name}
            if namespace:  # a manifest without one goes where it is applied: match it there
                rule["namespace"] = namespace
            rules.append({**rule, "jsonPointers": pointers})
    return {"spec": {"ignoreDifferences": rules}}


def shared_pointers(entries: list[tuple[str, str, list[str]]]) -> list[str]:
    """The pointers every VM of the run that drifts at all drifts in (counted once each: linear in VMs)."""
    counts: Counter[str] = Counter()
    drifting = 0
    for _, _, pointers in entries:
        if pointers:
            drifting += 1
            counts.update(set(pointers))
    return sorted(p for p, n in counts.items() if n == drifting)


def argocd_configmap(pointers: list[str]) -> dict[str, Any]:
    """The ``argocd-cm`` form: the pointers every VM of the run drifts in, for all VirtualMachines."""
    value = "jsonPointers:\n" + "".join(f"- {p}\n" for p in pointers)
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "argocd-cm", "namespace": "argocd",
                     "labels": {"app.kubernetes.io/name": "argocd-cm", "app.kubernetes.io/part-of": "argocd"}},
        "data": {ARGOCD_CM_KEY: value},
    }


def flux_drift_detection(entries: list[tuple[str, str, list[str]]]) -> dict[str, Any]:
    """The ``spec.driftDetection`` of a Flux HelmRelease: enabled, with one ignore rule per VM."""
    ignore = []
    for namespace, name, pointers in entries:
        if pointers:
            # Flux reads each field as an anchored regular expression: a name's dots stand for themselves
            target = {"group": KUBEVIRT_GROUP, "kind": VM_KIND, "name": name.replace(".", "\\.")}
            if namespace:
                target["namespace"] = namespace
            ignore.append({"paths": pointers, "target": target})
    return {"spec": {"driftDetection": {"mode": "enabled", "ignore": ignore}}}
