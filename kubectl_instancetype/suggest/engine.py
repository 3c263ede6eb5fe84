"""One VirtualMachine in, its suggestion out: the instancetype, the preference, the rewritten VM and its proof.

The instancetype is chosen first (it decides the vCPUs and memory; see :mod:`.instancetypes`), the preference
next, on the VM already naming it (see :mod:`.preferences`); the rewritten VM is then rendered once more and
compared with the original's expansion (:mod:`.proof`). Nothing here reads files or prints.
"""

from __future__ import annotations

from typing import Any

from ..api.matchers import MATCHERS
from ..records import dataclass
from ..render import vm_label
from . import candidates, instancetypes, preferences
from .candidates import Candidate
from .hints import Hints
from .instancetypes import TEMPLATE_SPEC, Sizing
from .preferences import Kept
from .proof import Scope
from .tree import MISSING, Difference, get

Spec = dict[str, Any]
EXACT = "exact"
APPROXIMATE = "approximate"
NOTHING = "nothing fits"
LEFT_ALONE = "left alone"
ARTICLES = {"instancetype": "an instancetype", "preference": "a preference"}
ANNOTATIONS = ("spec", "template", "metadata", "annotations")


@dataclass(frozen=True)
class Suggestion:
    """What ``suggest`` says about one VM; ``vm`` is the rewritten VM (None when it is left as it is).

    ``closest`` is set when instancetypes are in scope but every one would shrink the VM: the one that
    shrinks it least, with what it would take away in ``shortfall``.
    """

    label: str
    verdict: str
    instancetype: Candidate | None = None
    preference: Candidate | None = None
    vm: Spec | None = None
    differences: tuple[Difference, ...] = ()
    kept: tuple[Kept, ...] = ()
    reason: str = ""  # why a VM is left alone, or why nothing fits
    closest: Candidate | None = None
    shortfall: tuple[Difference, ...] = ()
    annotated: tuple[Difference, ...] = ()  # template annotations the instancetype or preference adds

    @property
    def exact(self) -> bool:
        return self.verdict == EXACT

    @property
    def attention(self) -> bool:
        """Whether a person must look at it (exit status 1): approximate, no instancetype fits, nothing does."""
        return self.verdict in (APPROXIMATE, NOTHING) or self.closest is not None


def suggest(vm: Spec, scope: Scope, hints: Hints) -> Suggestion:
    """The suggestion for ``vm``; KubeVirtError when KubeVirt refuses the VM as it is."""
    label = vm_label(vm, scope.namespace)
    named = [ARTICLES[m.field] for m in MATCHERS if (vm.get("spec") or {}).get(m.field) is not None]
    if named:
        return Suggestion(label, LEFT_ALONE, reason=f"it already names {' and '.join(named)}")
    baseline = scope.baseline(vm)
    namespace = scope.namespace_of(vm)
    offered = candidates.instancetypes(scope.catalog, namespace)
    fit = instancetypes.best(vm, offered, baseline, scope)
    closest = None if fit is not None else instancetypes.closest_shrinking(offered, Sizing.of(baseline))
    shortfall = _shortfall(closest, baseline)
    choice = preferences.best(fit.vm if fit else vm, candidates.preferences(scope.catalog, namespace), baseline,
                              scope, hints)
    if choice is None or (fit is None and choice.candidate is None):
        reason = "no instancetype fits without shrinking it" if closest else "no instancetype in scope"
        return Suggestion(label, NOTHING, reason=f"{reason}, and no preference either", closest=closest,
                          shortfall=shortfall)
    rewritten = preferences.tidy(choice.vm, vm, choice.rendered, scope)
    differences = scope.compare(baseline, scope.render(rewritten))
    annotated = tuple(d for d in differences if added_annotation(d))
    differences = tuple(d for d in differences if not added_annotation(d))
    return Suggestion(label, APPROXIMATE if differences else EXACT, fit.candidate if fit else None,
                      choice.candidate, rewritten, differences, choice.kept, closest=closest, shortfall=shortfall,
                      annotated=annotated)


def added_annotation(difference: Difference) -> bool:
    """Whether a difference only adds annotations to the VM's template: those the instancetype's and the
    preference's ``spec.annotations`` carry (``vm.kubevirt.io/os: linux``), the one thing expand adds to the
    template's metadata. They do not change the guest, and a VM that names these objects gets them anyway:
    a suggestion that differs only in them is exact (they are listed)."""
    return difference.path[:4] == ANNOTATIONS and difference.before is MISSING and len(difference.path) <= 5


def _shortfall(closest: Candidate | None, baseline: Spec) -> tuple[Difference, ...]:
    """What naming ``closest`` would take away from the VM: vCPUs, memory."""
    if closest is None:
        return ()
    domain, wanted = (*TEMPLATE_SPEC, "domain"), Sizing.of(baseline)
    found = []
    if closest.vcpus < wanted.vcpus:
        found.append(Difference((*domain, "cpu"), f"{wanted.vcpus} vCPUs", f"{closest.vcpus} vCPUs"))
    if closest.memory < wanted.memory:
        memory = (closest.spec.get("memory") or {}).get("guest")
        found.append(Difference((*domain, "memory", "guest"), get(baseline, (*domain, "memory", "guest")), memory))
    return tuple(found)
