"""virt-controller's VirtualMachineInstance construction when it starts a VM.

``setupVMIFromVM`` and ``startVMI`` in pkg/virt-controller/watch/vm/vm.go: metadata and spec come from
the template, the VM owns the VMI, the VM generation and the controller finalizer are recorded. The
instance type steps in between (auto-attach preferences, the appliers) live in :mod:`.render`.
"""

from __future__ import annotations

from typing import Any

from .firmware import set_stable_firmware_uuid
from .util import clone_json

Spec = dict[str, Any]

API_VERSION = "kubevirt.io/v1"
CONTROLLER_FINALIZER = "kubevirt.io/virtualMachineControllerFinalize"
GENERATION_ANNOTATION = "kubevirt.io/vm-generation"
MIGRATION_TARGET_ANNOTATION = "kubevirt.io/create-migration-target"


def vmi_from_vm(vm: Spec, namespace: str) -> Spec:
    """The VMI virt-controller creates from ``vm`` before any instance type or default is applied."""
    vm_meta = vm.get("metadata") or {}
    vm_spec = vm.get("spec") or {}
    template = vm_spec.get("template") or {}
    meta = clone_json(template.get("metadata") or {})
    meta.pop("generateName", None)
    meta["name"] = vm_meta.get("name")
    meta["namespace"] = vm_meta.get("namespace") or namespace
    labels = (template.get("metadata") or {}).get("labels")
    if labels is None:
        meta.pop("labels", None)
    spec = clone_json(template.get("spec") or {})
    if _start_paused(vm):
        spec["startStrategy"] = "Paused"
    set_stable_firmware_uuid(spec, str(meta["name"] or ""))
    meta["ownerReferences"] = [owner_reference(vm)]
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = meta["annotations"] = {}
    annotations[GENERATION_ANNOTATION] = str(_generation(vm_meta))
    if vm_spec.get("runStrategy") == "WaitAsReceiver":
        annotations[MIGRATION_TARGET_ANNOTATION] = "true"
    meta["finalizers"] = [*(meta.get("finalizers") or []), CONTROLLER_FINALIZER]
    return {"kind": "VirtualMachineInstance", "apiVersion": API_VERSION, "metadata": meta, "spec": spec}


def owner_reference(vm: Spec) -> Spec:
    """The controller reference a VMI carries to its VM (an unset uid prints as ``""``)."""
    meta = vm.get("metadata") or {}
    return {
        "apiVersion": API_VERSION,
        "kind": "VirtualMachine",
        "name": meta.get("name"),
        "uid": meta.get("uid") or "",
        "controller": True,
        "blockOwnerDeletion": True,
    }


def _generation(vm_meta: Spec) -> int:
    """The VM's generation once created: 1, or the generation a dumped VM already carries."""
    generation = vm_meta.get("generation")
    if isinstance(generation, int) and not isinstance(generation, bool) and generation > 0:
        return generation
    return 1


def _start_paused(vm: Spec) -> bool:
    requests = (vm.get("status") or {}).get("stateChangeRequests") or []
    if not requests or not isinstance(requests[0], dict):
        return False
    first = requests[0]
    return first.get("action") == "Start" and (first.get("data") or {}).get("paused") == "true"


def attach_input_device(spec: Spec) -> None:
    """Add the ``default-0`` input device when ``autoattachInputDevice`` is true and none exists."""
    devices = (spec.get("domain") or {}).get("devices") or {}
    if devices.get("autoattachInputDevice") is True and not devices.get("inputs"):
        devices["inputs"] = [{"name": "default-0"}]


def set_name_annotations(vm: Spec, meta: Spec) -> None:
    """``kubevirt.io/(cluster-)instancetype-name`` and ``(cluster-)preference-name`` for the matchers."""
    spec = vm.get("spec") or {}
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = meta["annotations"] = {}
    for field, word in (("instancetype", "instancetype"), ("preference", "preference")):
        matcher = spec.get(field)
        if not isinstance(matcher, dict):
            continue
        kind = go_lower(str(matcher.get("kind") or ""))
        if kind in (f"virtualmachine{word}", f"virtualmachine{word}s"):
            annotations[f"kubevirt.io/{word}-name"] = matcher.get("name")
        elif kind in ("", f"virtualmachinecluster{word}", f"virtualmachinecluster{word}s"):
            annotations[f"kubevirt.io/cluster-{word}-name"] = matcher.get("name")


def go_lower(text: str) -> str:
    """Go's ``strings.ToLower``: the simple per-character mapping (``İ`` -> ``i``, not ``i̇``)."""
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch.lower()[0] for ch in text)
