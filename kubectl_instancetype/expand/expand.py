"""KubeVirt's ``Expand`` (pkg/instancetype/expand/expand.go): the VM with its instancetype and
preference applied, cluster defaults set and the matchers removed.

A VM with neither matcher comes back unchanged: no defaults at all.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from .apply import apply_spec, conflicts_message, webhook_conflicts_message
from .defaults import cluster_defaults, default_pod_network, default_volume_disks
from .find import Found, Lookup, find_spec
from .kinds import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER
from .requirements import check_requirements
from .util import child, clone_json

Spec = dict[str, Any]


def expand(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> Spec:
    """The expanded VM (a new object), or KubeVirt's error."""
    spec = vm.get("spec") or {}
    if spec.get("instancetype") is None and spec.get("preference") is None:
        return vm
    it = find_spec(INSTANCETYPE_MATCHER, vm, namespace, lookup)
    pref = find_spec(PREFERENCE_MATCHER, vm, namespace, lookup)
    out = clone_json(vm)
    expand_in_place(out, it, pref, cfg, admission=False)
    return out


def expand_in_place(vm: Spec, it: Found | None, pref: Found | None, cfg: ClusterConfig, admission: bool) -> None:
    """Expand ``vm`` (the caller's own copy) with the specs already found.

    With ``admission`` the validating webhook's verdicts are folded in, which gives the same results as
    admitting a copy and then expanding: the conflicts do not depend on the default disks and network
    added first, and the requirements see the same defaulted CPU, memory and architecture. Its messages
    win, as the webhook runs first: conflicts as one cause each, and requirement failures.
    """
    it_spec, pref_spec = (it.spec if it else None), (pref.spec if pref else None)
    template = child(child(vm, "spec"), "template")
    tspec, tmeta = child(template, "spec"), child(template, "metadata")
    default_volume_disks(tspec)
    network_error: KubeVirtError | None = None
    try:
        default_pod_network(cfg, tspec)
    except KubeVirtError as exc:
        if not admission:
            raise
        network_error = exc  # admission reports conflicts before the defaults fail
    conflicts = apply_spec("spec.template.spec", it_spec, pref_spec, tspec, tmeta)
    if conflicts:
        message = webhook_conflicts_message(conflicts) if admission else conflicts_message(conflicts)
        raise KubeVirtError(message, stage="admit" if admission else "expand", paths=tuple(conflicts))
    if network_error is not None:
        raise KubeVirtError(network_error.message, stage="admit")
    cluster_defaults(cfg, tspec)
    if admission:
        problem = check_requirements(it_spec, pref_spec, tspec)
        if problem:
            raise KubeVirtError(f"failure checking preference requirements: {problem}", stage="admit")
    strip_matchers(vm)


def strip_matchers(vm: Spec) -> None:
    """Remove the matchers and the status references to the revisions they were resolved through."""
    vm["spec"].pop("instancetype", None)
    vm["spec"].pop("preference", None)
    status = vm.get("status")
    if isinstance(status, dict):
        status.pop("instancetypeRef", None)
        status.pop("preferenceRef", None)
