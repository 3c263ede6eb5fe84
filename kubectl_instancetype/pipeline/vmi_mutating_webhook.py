"""The VMI mutating webhook on create (pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go).

It defaults the spec (the same cluster defaults expansion uses, then the API defaulters, Hyper-V
dependencies, architecture defaults and hot-plug maxima), annotates the PCI topology scheme, adds the
foreground-deletion finalizer and the initial status.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import named
from ..errors import KubeVirtError
from ..expand.defaults import cluster_defaults
from ..vmi import clusterannotations, pcitopology
from ..vmi.arch import set_arch_defaults, set_arch_features
from ..vmi.hotplug import setup_hotplug
from ..vmi.objdefaults import set_hyperv_dependencies, set_object_defaults
from ..vmi.status import initial_status
from .lookup import VMI, Context
from .vm_validating_webhook import INTERFACES

Spec = dict[str, Any]
STAGE = "vmi-mutate"

VMI_FINALIZER = "kubevirt.io/foregroundDeleteVirtualMachine"
LEGACY_VMI_FINALIZER = "foregroundDeleteVirtualMachine"  # before v1.7.0 (release.qualified_vmi_finalizer)
WEBHOOK = named("VMI mutating webhook")
STATUS = named("VMI mutating webhook (the status of a new VMI)")


def mutate(vmi: Spec, ctx: Context) -> Spec:
    """``vmi`` with the webhook's defaults, in KubeVirt's order (edited in place)."""
    cfg = ctx.config
    trace = ctx.trace(VMI)
    spec = child(vmi, "spec")
    problem = cluster_defaults(cfg, spec, trace)
    if problem is not None:  # virt-controller has added the pod network already: not met in practice
        raise KubeVirtError(problem, STAGE, field=INTERFACES)
    set_arch_features(spec, trace)
    set_object_defaults(spec, trace)
    set_hyperv_dependencies(spec, trace)
    set_arch_defaults(spec, cfg, trace)
    status = initial_status(spec, cfg)
    setup_hotplug(spec, cfg, trace)
    meta = child(vmi, "metadata")
    about = trace.metadata()
    pcitopology.annotate(vmi, spec, WEBHOOK, about, cfg.release)
    clusterannotations.annotate(meta, spec, cfg, WEBHOOK, about)
    finalizers = meta.get("finalizers") or []
    finalizer = VMI_FINALIZER if cfg.release.qualified_vmi_finalizer else LEGACY_VMI_FINALIZER
    meta["finalizers"] = [*finalizers, finalizer]
    about.set(("finalizers", len(finalizers)), WEBHOOK)
    vmi["status"] = {**(vmi.get("status") or {}), **status}  # what virt-controller set stays
    trace.rooted(()).set(("status",), STATUS)
    return vmi
