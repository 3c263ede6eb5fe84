"""What a cluster does with a VirtualMachine, in order: mutate on create, admit, expand.

VM mode takes one pass over a single copy of the VM: the lookups are done once and the admission
checks are folded into the expansion (see :func:`.expand.expand_in_place`).
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from .expand import expand_in_place
from .find import Lookup, find_spec
from .kinds import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER
from .requirements import check_spread
from .webhook import apply_preferred_defaults, mutate_matchers

Spec = dict[str, Any]


def has_matchers(vm: Spec) -> bool:
    spec = vm.get("spec") or {}
    return spec.get("instancetype") is not None or spec.get("preference") is not None


def render_vm(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> Spec:
    """The VM as ``virtctl expand`` shows it once created; KubeVirtError when KubeVirt would refuse it."""
    if not has_matchers(vm):
        return vm
    out = mutate_matchers(vm, namespace, lookup)
    if not has_matchers(out):  # both matchers cleared by inferFromVolume with the Ignore policy
        return out
    # A failed lookup is only logged by the webhooks and then fails expand: the same message.
    it = find_spec(INSTANCETYPE_MATCHER, out, namespace, lookup)
    pref = find_spec(PREFERENCE_MATCHER, out, namespace, lookup)
    if pref is not None:
        apply_preferred_defaults(out, pref.spec)
    spread = check_spread(it.spec if it else None, pref.spec if pref else None)
    if spread:
        raise KubeVirtError(spread, stage="admit")
    expand_in_place(out, it, pref, cfg, admission=True)
    return out
