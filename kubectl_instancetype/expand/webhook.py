"""The instance type parts of KubeVirt's VM admission webhooks, on create.

``mutate`` is the mutating webhook (pkg/instancetype/webhooks/vm/mutator.go): matcher validation,
``inferFromVolume``, preferred architecture, machine type and storage class. ``admit`` is the validating
webhook (pkg/instancetype/webhooks/vm/admitter.go plus vms-admitter.go): spread divisibility, conflicts,
cluster defaults and preference requirements, checked on a copy.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from .expand import expand_in_place
from .find import Found, Lookup, find_spec
from .infer import infer_matcher
from .kinds import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER, MatcherKind
from .requirements import check_spread
from .util import child, clone_json

Spec = dict[str, Any]
_MATCHER_TYPES = {"instancetype": "InstancetypeMatcher", "preference": "PreferenceMatcher"}


def matcher_problems(matcher: MatcherKind, vm: Spec) -> list[str]:
    """KubeVirt's causes against one matcher, in its order."""
    m = (vm.get("spec") or {}).get(matcher.field)
    if m is None:
        return []
    name, infer = m.get("name") or "", m.get("inferFromVolume") or ""
    problems = []
    if not name and not infer:
        problems.append(f"Either Name or InferFromVolume should be provided within the {matcher.matcher_name}")
    if infer and name:
        problems.append("Name already set, should be cleared before setting inferFromVolume")
    if infer and m.get("kind"):
        problems.append("Kind already set, should be cleared before setting inferFromVolume")
    policy = m.get("inferFromVolumeFailurePolicy")
    if policy is not None and policy not in ("Ignore", "Reject"):
        problems.append(f"Invalid value '{policy}' for InferFromVolumeFailurePolicy")
    return problems


def mutate_matchers(vm: Spec, namespace: str, lookup: Lookup) -> Spec:
    """A copy of ``vm`` with its matchers validated and ``inferFromVolume`` resolved."""
    for matcher in (INSTANCETYPE_MATCHER, PREFERENCE_MATCHER):
        problems = matcher_problems(matcher, vm)
        if problems:  # the preference matcher is only checked when the instance type one is fine
            raise KubeVirtError(", ".join(problems), stage="mutate")
    out = clone_json(vm)
    for matcher in (INSTANCETYPE_MATCHER, PREFERENCE_MATCHER):
        try:
            infer_matcher(matcher, out, namespace, lookup)
        except KubeVirtError as exc:
            raise KubeVirtError(exc.message, stage="mutate") from None
    return out


def mutate(vm: Spec, namespace: str, lookup: Lookup) -> Spec:
    """The VM as the mutating webhook leaves it (a new object; ``vm`` is not changed)."""
    out = mutate_matchers(vm, namespace, lookup)
    found = find_quietly(PREFERENCE_MATCHER, out, namespace, lookup)
    if found is not None:
        apply_preferred_defaults(out, found.spec)
    return out


def find_quietly(matcher: MatcherKind, vm: Spec, namespace: str, lookup: Lookup) -> Found | None:
    """The spec a matcher selects, or None also when the lookup fails (the webhooks only log that)."""
    try:
        return find_spec(matcher, vm, namespace, lookup)
    except KubeVirtError:
        return None  # lookup failures are only logged by the webhooks


def apply_preferred_defaults(vm: Spec, pref: Spec) -> None:
    """What the mutating webhook writes from the preference: architecture, machine type, storage class."""
    template = child(child(vm, "spec"), "template")
    spec = child(template, "spec")
    if pref.get("preferredArchitecture") and not spec.get("architecture"):
        spec["architecture"] = pref["preferredArchitecture"]
    machine_type = (pref.get("machine") or {}).get("preferredMachineType")
    if machine_type:
        machine = child(child(spec, "domain"), "machine")
        if not machine.get("type"):
            machine["type"] = machine_type
    storage_class = (pref.get("volumes") or {}).get("preferredStorageClassName")
    if storage_class:
        for dvt in vm["spec"].get("dataVolumeTemplates") or []:
            for key in ("pvc", "storage"):
                claim = (dvt.get("spec") or {}).get(key)
                if isinstance(claim, dict) and claim.get("storageClassName") is None:
                    claim["storageClassName"] = storage_class


def admit(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> None:
    """Raise KubeVirt's rejection when the validating webhook would refuse ``vm`` (which is not changed).

    The webhook applies the instancetype and preference to a copy, sets the cluster defaults and checks
    the requirements: expanding a copy with the admission verdicts folded in gives exactly its answers.
    """
    it = find_quietly(INSTANCETYPE_MATCHER, vm, namespace, lookup)
    pref = find_quietly(PREFERENCE_MATCHER, vm, namespace, lookup)
    if _lookup_failed(vm, it, pref) or (it is None and pref is None):
        return
    spread = check_spread(it.spec if it else None, pref.spec if pref else None)
    if spread:
        raise KubeVirtError(spread, stage="admit")
    expand_in_place(clone_json(vm), it, pref, cfg, admission=True)


def _lookup_failed(vm: Spec, it: Found | None, pref: Found | None) -> bool:
    spec = vm.get("spec") or {}
    return (spec.get("instancetype") is not None and it is None) or (
        spec.get("preference") is not None and pref is None
    )
