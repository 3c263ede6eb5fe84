"""Choosing the instancetype: the one whose expansion gives the VM its vCPUs, memory and the other fields an
instancetype owns, or else the closest that does not shrink it.

KubeVirt refuses a VM that sets a field its instancetype owns (pkg/instancetype/apply/*.go, the conflicts of
spec §6.1), so the rewritten VM loses every such field: they are found by running KubeVirt's own appliers
and removing what they report, until none is left. Each candidate is then rendered (without a preference,
whose CPU topology only spreads the same vCPUs) and compared with the original's expansion.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..api.golang import clone_json, nonzero
from ..expand.apply import apply_spec
from ..pipeline.vm_validating_webhook import BASE, conflict_field
from ..records import dataclass
from .candidates import Candidate, quantity_bytes, tie_break
from .proof import Scope
from .tree import MISSING, Difference, Path, get, without

Spec = dict[str, Any]
TEMPLATE_SPEC: Path = ("spec", "template", "spec")
TOPOLOGY = frozenset(("sockets", "cores", "threads"))  # spread by the preference, compared as a vCPU count
MAX_ROUNDS = 8  # KubeVirt reports only the first memory conflict: removing one can reveal the next
# Fields an instancetype silently overrides rather than conflicting on (spec §6.1, "Never conflicting").
OVERRIDDEN: tuple[tuple[Path, Path], ...] = (
    (("cpu", "maxSockets"), ("domain", "cpu", "maxSockets")),
    (("cpu", "dedicatedCPUPlacement"), ("domain", "cpu", "dedicatedCpuPlacement")),
    (("cpu", "isolateEmulatorThread"), ("domain", "cpu", "isolateEmulatorThread")),
)
# Fields of a VM that an instancetype could provide: fewer left in the VM is a better fit.
OWNABLE: tuple[Path, ...] = (
    ("domain", "cpu", "dedicatedCpuPlacement"), ("domain", "cpu", "isolateEmulatorThread"),
    ("domain", "cpu", "numa"), ("domain", "cpu", "realtime"), ("domain", "cpu", "model"),
    ("domain", "cpu", "maxSockets"), ("domain", "memory", "hugepages"), ("domain", "memory", "maxGuest"),
    ("domain", "ioThreads", "supplementalPoolThreadCount"), ("domain", "ioThreadsPolicy"),
    ("domain", "launchSecurity"), ("domain", "devices", "gpus"), ("domain", "devices", "hostDevices"),
    ("nodeSelector",), ("schedulerName",),
)  # fmt: skip


@dataclass(frozen=True)
class Sizing:
    """The vCPUs and guest memory (bytes) of a VM's expansion."""

    vcpus: int
    memory: int

    @staticmethod
    def of(rendered: Spec) -> Sizing:
        domain = get(rendered, (*TEMPLATE_SPEC, "domain"))
        cpu = (domain.get("cpu") if isinstance(domain, dict) else None) or {}
        vcpus = 1
        for key in TOPOLOGY:
            value = cpu.get(key)
            vcpus *= value if isinstance(value, int) and value > 0 else 1
        memory = (domain.get("memory") if isinstance(domain, dict) else None) or {}
        return Sizing(vcpus, quantity_bytes(memory.get("guest")))


@dataclass(frozen=True)
class Fit:
    """One instancetype tried on a VM: the VM without what it owns, and how its expansion compares."""

    candidate: Candidate
    vm: Spec  # the VM naming the instancetype, without the fields it owns
    differences: tuple[Difference, ...]  # topology aside; the vCPU count is compared instead
    sizing: Sizing

    def rank(self, wanted: Sizing) -> tuple[Any, ...]:
        """Fewest differences, then fewest ownable fields left in the VM, then the tie-break order."""
        left = sum(1 for path in OWNABLE if _present(get(self.vm, (*TEMPLATE_SPEC, *path))))
        excess = (self.sizing.vcpus - wanted.vcpus, self.sizing.memory - wanted.memory)
        return (len(self.differences), left, excess, tie_break(self.candidate))


def _present(value: Any) -> bool:
    return value is not MISSING and nonzero(value)


def without_owned(vm: Spec, it: Spec) -> Spec:
    """``vm`` without the fields instancetype spec ``it`` conflicts on or overrides (never mutated)."""
    out = clone_json(vm)
    for _ in range(MAX_ROUNDS):
        template = get(out, ("spec", "template"))
        template = template if isinstance(template, dict) else {}
        spec, meta = clone_json(template.get("spec") or {}), clone_json(template.get("metadata") or {})
        conflicts = apply_spec(BASE, it, None, spec, meta)
        if not conflicts:
            break
        out = without(out, *(_json_field(conflict_field(path)) for path in conflicts))
    overridden = [(*TEMPLATE_SPEC, *field) for key, field in OVERRIDDEN if get(it, key) not in (MISSING, None)]
    return without(out, *overridden)


def _json_field(field: tuple[str, ...]) -> Path:
    """A KubeVirt conflict path as JSON keys: it spells ``dedicatedCpuPlacement`` with "CPU"."""
    return tuple("dedicatedCpuPlacement" if key == "dedicatedCPUPlacement" else key for key in field)


def with_matcher(vm: Spec, field: str, candidate: Candidate | None) -> Spec:
    """A copy of ``vm`` whose ``spec.<field>`` names ``candidate`` (or that has no such matcher)."""
    out = clone_json(vm)
    spec = out.setdefault("spec", {})
    spec.pop(field, None)
    if candidate is not None:
        spec[field] = candidate.matcher()
    return out


def try_on(vm: Spec, candidate: Candidate, baseline: Spec, scope: Scope) -> Fit | None:
    """``candidate`` tried on ``vm``; None when KubeVirt refuses the result."""
    rewritten = with_matcher(without_owned(vm, candidate.spec), "instancetype", candidate)
    rendered = scope.attempt(rewritten)
    if rendered is None:
        return None
    found = [d for d in scope.compare(baseline, rendered) if not _topology(d.path)]
    sizing, wanted = Sizing.of(rendered), Sizing.of(baseline)
    if sizing.vcpus != wanted.vcpus:
        found.append(Difference((*TEMPLATE_SPEC, "domain", "cpu"), wanted.vcpus, sizing.vcpus))
    return Fit(candidate, rewritten, tuple(found), sizing)


def _topology(path: Path) -> bool:
    return path[:-1] == (*TEMPLATE_SPEC, "domain", "cpu") and path[-1] in TOPOLOGY


def shrinks(candidate: Candidate, wanted: Sizing) -> bool:
    """Whether naming ``candidate`` would give the VM fewer vCPUs or less memory than it has."""
    return candidate.vcpus < wanted.vcpus or candidate.memory < wanted.memory


def best(vm: Spec, candidates: Iterable[Candidate], baseline: Spec, scope: Scope) -> Fit | None:
    """The best instancetype for ``vm`` among those that do not shrink it; None when none does."""
    wanted = Sizing.of(baseline)
    fits = [fit for c in candidates if not shrinks(c, wanted) and (fit := try_on(vm, c, baseline, scope))]
    return min(fits, key=lambda fit: fit.rank(wanted), default=None)


def closest_shrinking(candidates: Iterable[Candidate], wanted: Sizing) -> Candidate | None:
    """When every instancetype shrinks the VM: the one that shrinks it least (for the message)."""
    def shortfall(c: Candidate) -> tuple[Any, ...]:
        return (max(wanted.vcpus - c.vcpus, 0), max(wanted.memory - c.memory, 0), tie_break(c))

    return min(candidates, key=shortfall, default=None)
