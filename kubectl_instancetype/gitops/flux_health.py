"""Flux health checks for KubeVirt VMs and VMIs as CEL (``drift -o flux-health``): a Kustomization's
``spec.healthCheckExprs``, in the form kustomize-controller documents (docs/spec/v1/kustomizations.md, "Health
check expressions": ``apiVersion``, ``kind``, ``inProgress``, ``failed``, ``current``).

Without them kstatus reads a VM's ``Ready`` condition and nothing else. The expressions say what the Argo CD
check of :mod:`.argocd_health` says, in Flux's three words: Healthy is Current, Degraded is Failed, Progressing
and Suspended are InProgress (the status Flux gives when no expression holds). So a VM Git declares halted that
is stopped is Current, a running VM with ``RestartRequired=True`` Failed, a paused one InProgress; a VMI follows
Argo CD's bundled VirtualMachineInstance check (its phase, then ``Ready`` and ``Paused``).

Flux evaluates ``inProgress``, then ``failed``, then ``current`` (fluxcd/pkg runtime/cel ``StatusEvaluator``);
each expression sees the object's top-level fields as variables, so each is guarded with ``has()`` (no optional
syntax, so any CEL implementation reads them). None reads ``status.observedGeneration``: a VM's is the
generation its running VMI was started from (VEP 376). Flux itself, before any expression, reports an object
whose ``status.observedGeneration`` differs from ``metadata.generation`` as InProgress (RFC 0009), and a VM's
stays behind after every template change until the VM restarts (kubevirt#18700): that rule is Flux's, and the
README says what it means for ``wait: true``.
"""

from __future__ import annotations

from typing import Any

API_VERSION = "kubevirt.io/v1"


def _condition(kind: str, status: str = "True", op: str = "==") -> str:
    return f"has(status.conditions) && status.conditions.exists(c, c.type == '{kind}' && c.status {op} '{status}')"


_READY = _condition("Ready")
_NOT_READY = _condition("Ready", op="!=")
_PAUSED = _condition("Paused")
_RESTART = _condition("RestartRequired")
_CREATED = "(has(status.created) && status.created == true)"
_HALTED = ("((has(spec.runStrategy) && spec.runStrategy == 'Halted') || "
           "(has(spec.running) && spec.running == false))")
_PHASE = "(has(status.phase) ? status.phase : '')"

VIRTUAL_MACHINE = {
    "apiVersion": API_VERSION,
    "kind": "VirtualMachine",
    # Suspended in Argo CD: paused by its owner (virtctl pause)
    "inProgress": _PAUSED,
    # Degraded in Argo CD: running (or starting) what Git no longer declares, until a restart
    "failed": f"({_RESTART})\n&& (({_READY}) || {_CREATED})",
    # Healthy in Argo CD: running, or stopped as Git declares it (argo-cd#29664)
    "current": f"({_READY})\n|| (!{_CREATED}\n    && {_HALTED}\n    && ({_NOT_READY}))",
}

VIRTUAL_MACHINE_INSTANCE = {
    "apiVersion": API_VERSION,
    "kind": "VirtualMachineInstance",
    # Progressing, Suspended and Unknown in Argo CD: not yet running, done, unknown, or paused
    "inProgress": f"{_PHASE} in ['Pending', 'Scheduling', 'Scheduled', 'Succeeded', 'Unknown']\n"
                  f"|| ({_PHASE} != 'Failed' && ({_PAUSED}))",
    # Degraded in Argo CD: failed, or running but not Ready
    "failed": f"{_PHASE} == 'Failed'\n|| ({_NOT_READY})",
    "current": _READY,
}

HEADER = """\
# Flux health checks for KubeVirt VMs and VMIs (kubectl instancetype drift -o flux-health), as CEL: the same
# answers as drift -o argocd-health (a VM Git declares halted and that is stopped is Current; a running VM with
# RestartRequired=True is Failed; paused is InProgress). Merge the list into the spec of the Kustomization that
# applies the VMs, in Git; Flux reads it when the Kustomization waits (spec.wait: true) or names the VMs in
# spec.healthChecks. A merge patch (kubectl patch kustomization NAME -n flux-system --type merge) replaces the
# whole list: keep your other entries in it.
# Flux reports a VM whose status.observedGeneration is behind metadata.generation as InProgress before these
# expressions run, and KubeVirt leaves it behind after a template change until the VM restarts.
"""


def health_check_exprs() -> list[dict[str, str]]:
    """The ``healthCheckExprs`` entries: VirtualMachine, then VirtualMachineInstance."""
    return [dict(VIRTUAL_MACHINE), dict(VIRTUAL_MACHINE_INSTANCE)]


def kustomization_patch() -> dict[str, Any]:
    """A Kustomization's ``spec`` fragment holding :func:`health_check_exprs`."""
    return {"spec": {"healthCheckExprs": health_check_exprs()}}
