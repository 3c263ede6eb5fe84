"""A VirtualMachine as the cluster stores it: ``kubectl get vm -o yaml`` after ``kubectl apply`` and
virt-controller's first reconcile (``render --stored``, the ``drift`` command).

On create the API server hands the VM to KubeVirt's mutating webhook, which replaces ``spec`` with its own
encoding of it (pkg/virt-api/webhooks/mutating-webhook/mutators/vm-mutator.go, ``patch.WithReplace("/spec",
…)``): :func:`webhook` writes what it adds — the preference's architecture, machine type and storage class
(:func:`.vm_mutating_webhook.preferred_defaults`), the cluster's architecture and machine type, a firmware
UUID and serial, the ``kubevirt.io/pci-topology-version`` annotation, and the empty ``domain.resources`` that
Go's encoding of a non-pointer struct prints. The validating webhook then admits or refuses it.

virt-controller's first reconcile (pkg/virt-controller/watch/vm/vm.go ``execute``, pkg/instancetype/controller/vm
``Sync``, pkg/instancetype/revision/store.go ``Store``), :func:`first_reconcile`, adds the observed API version
annotations and its finalizer, and under ``referencePolicy: reference`` the status references to the
ControllerRevisions it stores; under ``expand``/``expandAll`` it replaces the VM with its expansion.

What the cluster draws at random — the firmware UUID and serial, the VM's uid, the uid of a catalog object
read from a file without one — is shown as :data:`ASSIGNED`, never invented.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.matchers import MATCHERS
from ..api.names import ASSIGNED, INSTANCETYPE_VERSION
from ..api.origin import NO_TRACE, Trace, named
from ..catalog.find import find_object
from . import expand, vm_controller, vm_mutating_webhook
from .lookup import TEMPLATE, Context

Spec = dict[str, Any]

FIRMWARE_RANDOM = named("assigned by the cluster: KubeVirt's VM mutating webhook draws a random value")
CONTROLLER = named("virt-controller's first reconcile of the new VM")
UID = named("assigned by the cluster: the API server gives each object a random uid")
REVISION = named("virt-controller's first reconcile (the ControllerRevision it stores; the object's uid is "
                 "assigned by the cluster)")
RESOURCES = named("KubeVirt's encoding of the template (domain.resources is not a pointer)")
DEVICES = named("KubeVirt's encoding of the template (domain.devices is not a pointer, nor omitted when empty)")
OBSERVED_API_VERSION = "v1"
LATEST_OBSERVED = "kubevirt.io/latest-observed-api-version"
STORAGE_OBSERVED = "kubevirt.io/storage-observed-api-version"
FINALIZER = "kubevirt.io/virtualMachineControllerFinalize"


def webhook(vm: Spec, ctx: Context) -> Spec:
    """What the complete mutating webhook on create stores after :func:`.preferred_defaults`."""
    _go_encoded(child(vm, "spec"), ctx.trace(TEMPLATE))
    release = ctx.config.release
    return vm_mutating_webhook.on_create(vm, ctx, _assigned_firmware(ctx), release.writes_default_matcher_kind)


def _assigned_firmware(ctx: Context) -> vm_mutating_webhook.FirmwareIdentity:
    """The firmware UUID and serial the release's webhook draws at random, shown as :data:`ASSIGNED`."""
    release = ctx.config.release

    def assigned(_vm: Spec, tspec: Spec, trace: Trace) -> None:
        domain = child(tspec, "domain")
        firmware = child(domain, "firmware")
        for key, written in (("uuid", release.writes_firmware_uuid), ("serial", release.writes_firmware_serial)):
            if written and not firmware.get(key):
                firmware[key] = ASSIGNED
                trace.set(("domain", "firmware", key), FIRMWARE_RANDOM)
        if not firmware:
            del domain["firmware"]

    return assigned


def _go_encoded(spec: Spec, trace: Trace) -> None:
    """What Go's encoding of the webhook's ``spec`` adds or drops beyond :func:`..api.encoding.encode_vm`: an
    empty matcher ``kind`` (omitempty) goes, the non-pointer template metadata, ``domain.resources``,
    ``domain.devices`` and claim resources show as ``{}``."""
    for matcher in MATCHERS:
        m = spec.get(matcher.field)
        if isinstance(m, dict):
            for key in ("kind", "name", "revisionName", "inferFromVolume", "inferFromVolumeFailurePolicy"):
                if m.get(key) == "":
                    del m[key]
    template = spec.get("template")
    if isinstance(template, dict) and not isinstance(template.get("metadata"), dict):
        template["metadata"] = {}
    if isinstance(template, dict):
        domain = child(child(template, "spec"), "domain")
        if not isinstance(domain.get("resources"), dict):
            domain["resources"] = {}
            trace.set(("domain", "resources"), RESOURCES)
        if not isinstance(domain.get("devices"), dict):  # DomainSpec.Devices: `json:"devices"`, not a pointer
            domain["devices"] = {}
            trace.set(("domain", "devices"), DEVICES)
    for dvt in spec.get("dataVolumeTemplates") or []:
        for claim in ("pvc", "storage"):
            found = (dvt.get("spec") or {}).get(claim) if isinstance(dvt, dict) else None
            if isinstance(found, dict) and not isinstance(found.get("resources"), dict):
                found["resources"] = {}


def first_reconcile(vm: Spec, ctx: Context) -> Spec:
    """``vm`` after virt-controller's first reconcile of a new VM."""
    trace = NO_TRACE if ctx.book is None else Trace(ctx.book)
    meta = child(vm, "metadata")
    if not meta.get("uid"):
        meta["uid"] = ASSIGNED
        trace.set(("metadata", "uid"), UID)
    annotations = child(meta, "annotations")
    for key in (LATEST_OBSERVED, STORAGE_OBSERVED):
        if key not in annotations:
            annotations[key] = OBSERVED_API_VERSION
            trace.set(("metadata", "annotations", key), CONTROLLER)
    finalizers = meta.get("finalizers")
    if not isinstance(finalizers, list):
        finalizers = meta["finalizers"] = []
    if FINALIZER not in finalizers:
        finalizers.append(FINALIZER)
        trace.set(("metadata", "finalizers", len(finalizers) - 1), CONTROLLER)
    if not expand.has_matchers(vm):
        return vm
    if vm_controller.expands(vm, vm_controller.reference_policy(ctx.config)):
        return vm_controller.sync(vm, ctx)
    ctx.matched.require(vm_controller.STAGE)
    status = child(vm, "status")
    for matcher in MATCHERS:
        m = vm["spec"].get(matcher.field)
        if isinstance(m, dict):
            status[f"{matcher.field}Ref"] = _status_ref(vm, m, matcher, ctx)
            trace.set(("status", f"{matcher.field}Ref", "controllerRevisionRef", "name"), REVISION)
    return vm


def _status_ref(vm: Spec, m: Spec, matcher: Any, ctx: Context) -> Spec:
    """``syncStatusWithMatcher``: the matcher's name, kind and inferFromVolume, and the revision it is pinned to."""
    ref: Spec = {key: m[key] for key in ("name", "kind", "inferFromVolume") if m.get(key)}
    policy = m.get("inferFromVolumeFailurePolicy")
    if policy is not None:
        ref["inferFromVolumeFailurePolicy"] = policy
    revision = m.get("revisionName")
    if not revision:
        obj = find_object(matcher, m, ctx.namespace, ctx.catalog)[1]
        meta = (obj or {}).get("metadata") or {}
        uid = meta.get("uid") or ASSIGNED
        revision = (f"{(vm.get('metadata') or {}).get('name')}-{meta.get('name') or m.get('name')}-"
                    f"{INSTANCETYPE_VERSION}-{uid}-{meta.get('generation') or 1}")
    ref["controllerRevisionRef"] = {"name": revision}
    return ref
