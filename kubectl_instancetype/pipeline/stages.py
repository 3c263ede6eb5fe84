"""The two runs of KubeVirt's stages: VM mode (``virtctl expand`` of a created VM) and VMI mode (the VMI a
cluster starts for it), over one lookup of the instancetype and preference.

Both begin with the VM mutating webhook settling the matchers (``inferFromVolume`` decides what to look
up); the lookup follows, then each stage takes the object the previous one returned. The pipeline works on
its own copy: the caller's VM is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ..api.encoding import encode_vm, encode_vmi
from ..api.origin import NO_TRACE, Origins, Trace
from ..catalog.find import Lookup
from ..config import ClusterConfig
from ..errors import KubeVirtError
from . import expand, vm_mutating_webhook, vm_validating_webhook
from .lookup import VMI, Context, lookup

Spec = dict[str, Any]
Stage = Callable[[Spec, Context], Spec]

VM_MODE: tuple[Stage, ...] = (
    vm_mutating_webhook.preferred_defaults,
    vm_validating_webhook.admit,
    expand.expand,
)
@cache
def vmi_mode() -> tuple[Stage, ...]:
    """The stages of VMI mode (imported on first use: a plain render does not pay for them)."""
    from . import generated_name, vm_controller, vmi_controller, vmi_mutating_webhook, vmi_validating_webhook

    return (
        generated_name.generated,  # the mutating webhooks do not read the name; the UUID derived from it does
        vm_mutating_webhook.preferred_defaults,
        vm_mutating_webhook.create_defaults,
        vm_validating_webhook.admit,
        vm_controller.created,
        vm_controller.sync,
        vmi_controller.start,
        vmi_mutating_webhook.mutate,
        vmi_validating_webhook.admit,
    )


@cache
def stored_mode() -> tuple[Stage, ...]:
    """``kubectl get vm -o yaml`` after ``kubectl apply`` and virt-controller's first reconcile
    (render --stored; imported on first use)."""
    from . import generated_name, stored, vm_controller

    return (
        generated_name.generated,
        vm_mutating_webhook.preferred_defaults,
        vm_validating_webhook.admit,  # as in VM mode: before the values the cluster draws are placeheld
        stored.webhook,
        vm_controller.created,
        stored.first_reconcile,
    )


def run(stages: tuple[Stage, ...], vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig,
        book: Origins | None = None, warnings: list[str] | None = None) -> Spec:
    """``vm`` through the matcher mutation, the lookup and ``stages``; KubeVirtError when one refuses. With
    ``book``, the stages record the origin of every value they set; ``warnings`` gets what the webhooks
    answer with what they admit (also when a later stage refuses)."""
    out = vm_mutating_webhook.mutate_matchers(vm, namespace, catalog, cfg.release)
    ctx = Context(namespace, catalog, cfg, lookup(out, namespace, catalog, cfg.release), book)
    try:
        for stage in stages:
            out = stage(out, ctx)
    except KubeVirtError as exc:
        # KubeVirt's webhooks go on without an object they cannot find: their refusal (a preference's
        # requirements) may then not name it. Keep what the lookups said, for the report to add.
        # (Not when the refusal quotes the lookup's message itself, as KubeVirt before v1.6 does.)
        missed = tuple((f.message, f.field) for f in ctx.matched.failures
                       if f.message != exc.message and f.message.split(" (")[0] not in exc.message)
        if missed and not exc.lookups:
            exc.lookups = missed
        raise
    finally:
        if warnings is not None:
            warnings.extend(ctx.warnings)
    return out


def render_vm(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
              warnings: list[str] | None = None) -> Spec:
    """The VM as ``virtctl expand`` shows it once created; KubeVirtError when KubeVirt would refuse it.

    A VM without matchers is admitted too (its pod network may be refused) and comes back unchanged.
    """
    return run(VM_MODE, vm, namespace, catalog, cfg, book, warnings)


def render_vmi(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
               warnings: list[str] | None = None) -> Spec:
    """The VMI virt-controller would create for ``vm`` once created and started on a cluster."""
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    trace = NO_TRACE if book is None else Trace(book, *VMI)
    return encode_vmi(run(vmi_mode(), vm, namespace, catalog, cfg, book, warnings), trace)


def render_stored(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
                  warnings: list[str] | None = None) -> Spec:
    """The VM as the cluster stores it after ``kubectl apply`` and virt-controller's first reconcile."""
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    out = run(stored_mode(), vm, namespace, catalog, cfg, book, warnings)
    meta = out.setdefault("metadata", {})
    meta.setdefault("namespace", namespace)
    encode_vm(out, NO_TRACE if book is None else Trace(book))
    return out
