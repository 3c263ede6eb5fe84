"""virt-controller's VirtualMachineInstance construction when it starts a VM.

``setupVMIFromVM`` and ``startVMI`` in pkg/virt-controller/watch/vm/vm.go: metadata and spec come from
the template, the VM owns the VMI, the VM generation and the controller finalizer are recorded. Then the
instance type steps: the preference's auto-attach devices, default disks, the input device and pod network,
the name annotations and the instancetype and preference applied with conflict base path ``spec``; last, the
network validator refuses discontinued interface bindings.
A failed lookup stops the sync before any VMI exists (:mod:`.vm_controller`); a VM that sync expanded has
no matchers left, and gets none of the instance type steps.
"""

from __future__ import annotations

from typing import Any

from ..admission.network.discontinued import controller_refusal
from ..api.golang import clone_json
from ..api.matchers import MATCHERS
from ..api.names import CORE_API_VERSION, VIRTUAL_MACHINE, VIRTUAL_MACHINE_INSTANCE
from ..api.origin import NAMESPACE, NO_TRACE, Trace, named
from ..errors import KubeVirtError
from ..expand.apply import apply_spec
from ..expand.defaults import default_pod_network, default_volume_disks
from ..expand.devices import autoattach
from ..vmi.cbt import cbt_state
from ..vmi.firmware import set_stable_firmware_uuid
from .expand import has_matchers
from .lookup import TEMPLATE, VMI, Context, Matched
from .vm_controller import generation
from .vm_validating_webhook import INTERFACES, conflict_field

Spec = dict[str, Any]
STAGE = "controller"
ROOT = ("spec", "template")  # where the VMI's spec comes from in the VM
CONTROLLER_FINALIZER = "kubevirt.io/virtualMachineControllerFinalize"
GENERATION_ANNOTATION = "kubevirt.io/vm-generation"
MIGRATION_TARGET_ANNOTATION = "kubevirt.io/create-migration-target"
CONSTRUCTION = named("virt-controller (the VMI of the VM)")
PAUSED = named("virt-controller (the VM's start request asks for paused)")
INPUT_DEVICE = named("default input device (autoattachInputDevice)")
TRACKING = named("virt-controller (changed block tracking of the VM, IncrementalBackup)")
NAME_ANNOTATION = named("virt-controller (the name of the VM's instancetype or preference)")


def vmi_from_vm(vm: Spec, namespace: str, trace: Trace = NO_TRACE) -> Spec:
    """The VMI virt-controller creates from ``vm`` before any instance type or default is applied
    (``trace``: rooted at the VMI's spec, with its metadata)."""
    vm_meta = vm.get("metadata") or {}
    vm_spec = vm.get("spec") or {}
    template = vm_spec.get("template") or {}
    meta = clone_json(template.get("metadata") or {})
    meta.pop("generateName", None)
    meta["name"] = vm_meta.get("name")
    meta["namespace"] = vm_meta.get("namespace") or namespace
    about = trace.metadata()
    if not vm_meta.get("namespace"):
        about.set(("namespace",), NAMESPACE)
    labels = (template.get("metadata") or {}).get("labels")
    if labels is None:
        meta.pop("labels", None)
    spec = clone_json(template.get("spec") or {})
    if _start_paused(vm):
        spec["startStrategy"] = "Paused"
        trace.set(("startStrategy",), PAUSED)
    set_stable_firmware_uuid(spec, str(meta["name"] or ""), trace)
    meta["ownerReferences"] = [owner_reference(vm)]
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = meta["annotations"] = {}
    annotations[GENERATION_ANNOTATION] = str(generation(vm))
    if vm_spec.get("runStrategy") == "WaitAsReceiver":
        annotations[MIGRATION_TARGET_ANNOTATION] = "true"
    finalizers = meta.get("finalizers") or []
    meta["finalizers"] = [*finalizers, CONTROLLER_FINALIZER]
    if trace.on:
        for path in (("ownerReferences",), ("annotations", GENERATION_ANNOTATION),
                     ("annotations", MIGRATION_TARGET_ANNOTATION), ("finalizers", len(finalizers))):
            about.set(path, CONSTRUCTION)
        trace.rooted(()).set(("kind",), CONSTRUCTION)
        if vm.get("apiVersion") != CORE_API_VERSION:
            trace.rooted(()).set(("apiVersion",), CONSTRUCTION)
    return {"kind": VIRTUAL_MACHINE_INSTANCE, "apiVersion": CORE_API_VERSION, "metadata": meta, "spec": spec}


def owner_reference(vm: Spec) -> Spec:
    """The controller reference a VMI carries to its VM (an unset uid prints as ``""``)."""
    meta = vm.get("metadata") or {}
    return {
        "apiVersion": CORE_API_VERSION,
        "kind": VIRTUAL_MACHINE,
        "name": meta.get("name"),
        "uid": meta.get("uid") or "",
        "controller": True,
        "blockOwnerDeletion": True,
    }


def _start_paused(vm: Spec) -> bool:
    requests = (vm.get("status") or {}).get("stateChangeRequests") or []
    if not requests or not isinstance(requests[0], dict):
        return False
    first = requests[0]
    return first.get("action") == "Start" and (first.get("data") or {}).get("paused") == "true"


def attach_input_device(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """Add the ``default-0`` input device when ``autoattachInputDevice`` is true and none exists."""
    devices = (spec.get("domain") or {}).get("devices") or {}
    if devices.get("autoattachInputDevice") is True and not devices.get("inputs"):
        devices["inputs"] = [{"name": "default-0"}]
        trace.set(("domain", "devices", "inputs", 0), INPUT_DEVICE)


def set_name_annotations(vm: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    """``kubevirt.io/(cluster-)instancetype-name`` and ``(cluster-)preference-name`` for the matchers
    (``trace``: rooted at ``meta``)."""
    spec = vm.get("spec") or {}
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = meta["annotations"] = {}
    for matcher in MATCHERS:
        m = spec.get(matcher.field)
        if not isinstance(m, dict):
            continue
        kind = matcher.resolve(str(m.get("kind") or ""))
        if kind == matcher.namespaced:
            annotations[f"kubevirt.io/{matcher.field}-name"] = m.get("name")
            trace.set(("annotations", f"kubevirt.io/{matcher.field}-name"), NAME_ANNOTATION)
        elif kind == matcher.cluster:
            annotations[f"kubevirt.io/cluster-{matcher.field}-name"] = m.get("name")
            trace.set(("annotations", f"kubevirt.io/cluster-{matcher.field}-name"), NAME_ANNOTATION)


def start(vm: Spec, ctx: Context) -> Spec:
    """The VMI virt-controller creates for ``vm`` (as the webhooks stored it)."""
    matched = ctx.matched if has_matchers(vm) else Matched()  # Find of an absent matcher finds nothing
    matched.require(STAGE)
    if ctx.book is not None:  # the VMI takes its metadata and spec from the template
        for source, target in zip(TEMPLATE[::-1], VMI[::-1], strict=True):
            ctx.book.move(source, target)
    trace = ctx.trace(VMI)
    vmi = vmi_from_vm(vm, ctx.namespace, trace)
    spec, meta = vmi["spec"], vmi["metadata"]
    if matched.preference is not None:
        autoattach(matched.preference.spec, spec, trace)  # before the input device and pod network are added
    tracking = cbt_state(vm, ctx.config)
    if tracking is not None:
        vmi["status"] = {"changedBlockTracking": {"state": tracking}}
        trace.rooted(()).set(("status", "changedBlockTracking"), TRACKING)
    default_volume_disks(spec, trace)
    attach_input_device(spec, trace)
    problem = default_pod_network(ctx.config, spec, trace)
    if problem is not None:
        raise KubeVirtError(problem, STAGE, field=INTERFACES)
    if matched.anything:
        set_name_annotations(vm, meta, trace.metadata())
        conflicts = apply_spec("spec", matched.instancetype_spec, matched.preference_spec, spec, meta, trace,
                               ctx.config.release)
        if conflicts:
            message = f"VMI conflicts with instancetype spec in fields: [{', '.join(conflicts)}]"
            raise KubeVirtError(message, STAGE, tuple(conflicts), conflict_field(conflicts[0], ROOT))
    problem = controller_refusal(spec, ctx.config)  # the network validator's creation checks, before the VMI is created
    if problem is not None:
        raise KubeVirtError(problem, STAGE, field=INTERFACES)
    return vmi
