"""What a cluster does with a VirtualMachine, in order: mutate on create, admit, expand."""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from .expand import expand
from .find import Lookup
from .webhook import admit, mutate

Spec = dict[str, Any]


def has_matchers(vm: Spec) -> bool:
    spec = vm.get("spec") or {}
    return spec.get("instancetype") is not None or spec.get("preference") is not None


def render_vm(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> Spec:
    """The VM as ``virtctl expand`` shows it once created; KubeVirtError when KubeVirt would refuse it."""
    if not has_matchers(vm):
        return vm
    created = mutate(vm, namespace, lookup)
    admit(created, namespace, lookup, cfg)
    return expand(created, namespace, lookup, cfg)
