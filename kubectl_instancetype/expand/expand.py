"""KubeVirt's ``Expand`` (pkg/instancetype/expand/expand.go): the VM with its instancetype and
preference applied, cluster defaults set and the matchers removed.

A VM with neither matcher comes back unchanged: no defaults at all.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from .apply import apply_spec, conflicts_message
from .defaults import cluster_defaults, default_pod_network, default_volume_disks
from .find import Lookup, find_spec
from .kinds import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER
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
    template = child(child(out, "spec"), "template")
    tspec, tmeta = child(template, "spec"), child(template, "metadata")
    default_volume_disks(tspec)
    default_pod_network(cfg, tspec)
    conflicts = apply_spec(
        "spec.template.spec", it.spec if it else None, pref.spec if pref else None, tspec, tmeta
    )
    if conflicts:
        raise KubeVirtError(conflicts_message(conflicts), stage="expand", paths=tuple(conflicts))
    cluster_defaults(cfg, tspec)
    out["spec"].pop("instancetype", None)
    out["spec"].pop("preference", None)
    status = out.get("status")
    if isinstance(status, dict):
        status.pop("instancetypeRef", None)
        status.pop("preferenceRef", None)
    return out
