"""KubeVirt's ``Expand`` (pkg/instancetype/expand/expand.go), what ``virtctl expand`` prints: the VM with
its instancetype and preference applied, cluster defaults set and the matchers removed.

A VM with neither matcher comes back unchanged: no defaults at all.
"""

from __future__ import annotations

from typing import Any

from ..api.encoding import TEMPLATE_METADATA
from ..api.golang import child
from ..api.origin import NO_TRACE, Trace, named
from ..errors import KubeVirtError
from ..expand.apply import apply_spec
from ..expand.defaults import cluster_defaults, default_pod_network, default_volume_disks
from .lookup import TEMPLATE, Context
from .vm_validating_webhook import BASE, INTERFACES, conflict_field

Spec = dict[str, Any]
STAGE = "expand"
STATUS = named("KubeVirt expand (the status without its revision references)")


def has_matchers(vm: Spec) -> bool:
    spec = vm.get("spec") or {}
    return spec.get("instancetype") is not None or spec.get("preference") is not None


def conflicts_message(paths: list[str]) -> str:
    """The combined message of expand and the REST endpoint (``Conflicts.Error()``)."""
    return f"VM field(s) {', '.join(paths)} conflicts with selected instance type"


def expand(vm: Spec, ctx: Context) -> Spec:
    """``vm`` (the pipeline's own copy) expanded in place, or KubeVirt's error of stage ``expand``."""
    if not has_matchers(vm):
        return vm
    ctx.matched.require(STAGE)
    trace = ctx.trace(TEMPLATE)
    template = child(child(vm, "spec"), "template")
    fresh = trace.absent(template, ("metadata",))
    spec, meta = child(template, "spec"), child(template, "metadata")
    default_volume_disks(spec, trace)
    problem = default_pod_network(ctx.config, spec, trace)
    if problem is not None:
        raise KubeVirtError(problem, STAGE, field=INTERFACES)
    conflicts = apply_spec(BASE, ctx.matched.instancetype_spec, ctx.matched.preference_spec, spec, meta, trace,
                           ctx.config.release)
    if conflicts:
        field = conflict_field(conflicts[0])
        raise KubeVirtError(conflicts_message(conflicts), STAGE, tuple(conflicts), field)
    cluster_defaults(ctx.config, spec, trace)  # the pod network is settled above: nothing left to refuse
    if fresh and not meta:
        trace.metadata().set((), TEMPLATE_METADATA)
    strip_matchers(vm, trace.rooted(()))
    return vm


def strip_matchers(vm: Spec, trace: Trace = NO_TRACE) -> None:
    """Remove the matchers and the status references to the revisions they were resolved through."""
    vm["spec"].pop("instancetype", None)
    vm["spec"].pop("preference", None)
    status = vm.get("status")
    if isinstance(status, dict) and status:
        status.pop("instancetypeRef", None)
        status.pop("preferenceRef", None)
        if not status:
            trace.set(("status",), STATUS)
