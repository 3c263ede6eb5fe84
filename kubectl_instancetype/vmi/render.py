"""``render --vmi``: a VirtualMachine in, the VirtualMachineInstance a cluster would start out.

The order is KubeVirt's: the complete VM mutating webhook on create (the expand core's instance type
part, then :mod:`.vm_webhook`), the validating webhook's instance type checks, virt-controller's VMI
construction (lookups, :mod:`.build`, auto-attach preferences, default input device and pod network,
instance type and preference applied with conflict base path ``spec``), then the VMI mutating webhook
(:mod:`.vmi_webhook`). Errors are :class:`~kubectl_instancetype.errors.KubeVirtError` with KubeVirt's
message and the stage that raises it.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..expand.apply import apply_spec
from ..expand.defaults import default_pod_network, default_volume_disks
from ..expand.devices import autoattach
from ..expand.encode import encode_vmi_spec
from ..expand.find import Found, Lookup, find_spec
from ..expand.kinds import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER, MatcherKind
from ..expand.webhook import admit, find_quietly, mutate
from ..quantity import canonical
from .build import attach_input_device, set_name_annotations, vmi_from_vm
from .vm_webhook import vm_webhook_defaults
from .vmi_webhook import vmi_webhook

Spec = dict[str, Any]

_META_ORDER = (
    "name",
    "generateName",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
)


def render_vmi(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> Spec:
    """The VMI virt-controller would create for ``vm`` once created and started on a cluster."""
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    created = create_vm(vm, namespace, lookup, cfg)
    it = _find(INSTANCETYPE_MATCHER, created, namespace, lookup)
    pref = _find(PREFERENCE_MATCHER, created, namespace, lookup)
    vmi = vmi_from_vm(created, namespace)
    spec, meta = vmi["spec"], vmi["metadata"]
    if pref is not None:
        autoattach(pref.spec, spec)  # before the input device and pod network are added
    default_volume_disks(spec)
    attach_input_device(spec)
    _controller_step(default_pod_network, cfg, spec)
    if it is not None or pref is not None:
        set_name_annotations(created, meta)
        conflicts = apply_spec("spec", it.spec if it else None, pref.spec if pref else None, spec, meta)
        if conflicts:
            message = f"VMI conflicts with instancetype spec in fields: [{', '.join(conflicts)}]"
            raise KubeVirtError(message, stage="controller", paths=tuple(conflicts))
    vmi_webhook(vmi, cfg)
    return encode_vmi(vmi)


def create_vm(vm: Spec, namespace: str, lookup: Lookup, cfg: ClusterConfig) -> Spec:
    """The VM as stored after the mutating and validating webhooks accepted it (a new object)."""
    mutated = mutate(vm, namespace, lookup)
    pref = find_quietly(PREFERENCE_MATCHER, mutated, namespace, lookup)
    created = vm_webhook_defaults(mutated, cfg, pref.spec if pref else None)
    admit(created, namespace, lookup, cfg)
    return created


def encode_vmi(vmi: Spec) -> Spec:
    """``vmi`` as KubeVirt prints it: canonical Quantities, metadata keys in ObjectMeta order."""
    encode_vmi_spec(vmi["spec"])
    memory = (vmi.get("status") or {}).get("memory")
    if isinstance(memory, dict):
        for key, value in memory.items():
            memory[key] = canonical(value)
    meta = vmi["metadata"]
    ordered = {key: meta[key] for key in _META_ORDER if meta.get(key) not in (None, {}, [])}
    ordered.update((k, v) for k, v in meta.items() if k not in _META_ORDER)
    vmi["metadata"] = ordered
    return {key: vmi[key] for key in ("kind", "apiVersion", "metadata", "spec", "status") if key in vmi}


def _find(matcher: MatcherKind, vm: Spec, namespace: str, lookup: Lookup) -> Found | None:
    try:
        return find_spec(matcher, vm, namespace, lookup)
    except KubeVirtError as exc:  # virt-controller's sync fails before it creates the VMI
        raise KubeVirtError(exc.message, stage="controller") from None


def _controller_step(step: Any, cfg: ClusterConfig, spec: Spec) -> None:
    try:
        step(cfg, spec)
    except KubeVirtError as exc:
        raise KubeVirtError(exc.message, stage="controller") from None
