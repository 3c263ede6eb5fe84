"""Choosing the preference, and removing from the VM what it now provides.

A preference only fills what the VM leaves unset (pkg/instancetype/preference/apply/*.go), so naming one
never changes a field the VM sets: what it can change is what the VM leaves out. The best preference keeps
the VM's architecture; then it is the one the VM's OS hints point at (the OS a user asks a preference for),
then the one whose expansion adds the fewest differences, then the one that provides the most of the VM's
settings. A setting it provides is removed when the expansion puts back the
same value: each is tried, top down, and kept out only when the whole render stays the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..pipeline.expand import has_matchers
from ..records import dataclass, field
from .candidates import Candidate, tie_break
from .hints import Hints, declared_os
from .instancetypes import with_matcher
from .proof import Scope
from .tree import MISSING, Difference, Path, get, leaves, without

Spec = dict[str, Any]
TEMPLATE: Path = ("spec", "template")
ARCHITECTURE: Path = (*TEMPLATE, "spec", "architecture")
# Where a preference's settings land in the VM, and the preference field that must be set to try there.
AREAS: tuple[tuple[Path, Path], ...] = (
    (("spec", "domain", "cpu", "features"), ("cpu", "preferredCPUFeatures")),
    (("spec", "domain", "devices"), ("devices",)),
    (("spec", "domain", "features"), ("features",)),
    (("spec", "domain", "firmware"), ("firmware",)),
    (("spec", "domain", "machine"), ("machine", "preferredMachineType")),
    (("spec", "domain", "clock"), ("clock",)),
    (("spec", "domain", "launchSecurity"), ("preferredLaunchSecurity",)),
    (("spec", "subdomain"), ("preferredSubdomain",)),
    (("spec", "terminationGracePeriodSeconds"), ("preferredTerminationGracePeriodSeconds",)),
    (("spec", "architecture"), ("preferredArchitecture",)),
)
# Never removed whole: the VM's own devices (a preference only sets fields inside them) and their names.
STRUCTURAL = frozenset(("disks", "interfaces", "inputs", "filesystems", "gpus", "hostDevices", "devices"))


@dataclass(frozen=True)
class Kept:
    """A setting the VM keeps because the expansion would put back another value."""

    path: Path
    value: Any
    instead: Any


@dataclass(frozen=True)
class Choice:
    """One preference (or none) on a VM: the VM with what it provides removed, and how its render compares."""

    candidate: Candidate | None
    vm: Spec
    rendered: Spec
    differences: tuple[Difference, ...]
    removed: int = 0  # how many of the VM's values the preference now provides
    kept: tuple[Kept, ...] = ()


def _areas(pref: Spec, vm: Spec) -> Iterator[Path]:
    """The VM paths (under its template) where ``pref`` may provide values, in the table's order."""
    for where, setting in AREAS:
        if get(pref, setting) not in (MISSING, None):
            yield (*TEMPLATE, *where)
    annotations = get(vm, (*TEMPLATE, "metadata", "annotations"))
    for key in pref.get("annotations") or {}:
        if isinstance(annotations, dict) and key in annotations:
            yield (*TEMPLATE, "metadata", "annotations", key)


@dataclass
class _Trial:
    """Removing settings one subtree at a time, keeping each removal that leaves the render unchanged, and
    noting, at the deepest place it shows, each setting the expansion would replace with another value."""

    scope: Scope
    target: Spec  # the render to keep
    vm: Spec
    removed: int = 0
    kept: list[Kept] = field(default_factory=list)

    def visit(self, path: Path) -> None:
        value = get(self.vm, path)
        if value is MISSING:
            return
        instead = MISSING
        if path[-1] not in STRUCTURAL and not isinstance(path[-1], int) and path[-1] != "name":
            candidate = without(self.vm, path)
            rendered = self.scope.attempt(candidate)
            if rendered == self.target:
                self.vm, self.removed = candidate, self.removed + leaves(value)
                return
            instead = get(rendered, path) if rendered is not None else MISSING
        noted = len(self.kept)
        for key in _children(value):
            self.visit((*path, key))
        if instead is not MISSING and instead != value and len(self.kept) == noted:
            self.kept.append(Kept(path, value, instead))


def _children(value: Any) -> list[str | int]:
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, list):
        return list(range(len(value)))
    return []


def tidy(vm: Spec, original: Spec, target: Spec, scope: Scope) -> Spec:
    """``vm`` without the maps that removals from ``original`` left empty, each dropped only when the render
    stays ``target`` (a map emptied by dropping another is tried next)."""
    tried: set[Path] = set()
    while True:
        path = next((p for p in _emptied(vm, original, ()) if p not in tried), None)
        if path is None:
            return vm
        tried.add(path)
        candidate = without(vm, path)
        rendered = scope.attempt(candidate)
        if rendered is not None and _unemptied(rendered) == _unemptied(target):
            vm = candidate


def _unemptied(tree: Any) -> Any:
    """``tree`` without its empty maps: a map the removals emptied (``resources: {requests: {}}``) reads as
    absent to KubeVirt (Go omits an empty map, and the appliers allocate what they set)."""
    if isinstance(tree, dict):
        kept = {key: _unemptied(value) for key, value in tree.items()}
        return {key: value for key, value in kept.items() if value != {}}
    if isinstance(tree, list):
        return [_unemptied(item) for item in tree]
    return tree


def _emptied(tree: Any, original: Any, path: Path) -> Iterator[Path]:
    """Paths of empty maps in ``tree`` that held something in ``original``, deepest first."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _emptied(value, get(original, (key,)), (*path, key))
        if not tree and isinstance(original, dict) and original:
            yield path
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from _emptied(value, get(original, (index,)), (*path, index))


def _render(vm: Spec, baseline: Spec, scope: Scope) -> Spec | None:
    """``vm`` rendered; a VM naming nothing is the original itself, expanded as its baseline was."""
    return scope.attempt(vm) if has_matchers(vm) else baseline


def provide(vm: Spec, candidate: Candidate | None, baseline: Spec, scope: Scope) -> Choice | None:
    """``vm`` (naming its instancetype, if it has one) naming ``candidate``, with what it provides removed."""
    named = with_matcher(vm, "preference", candidate)
    rendered = _render(named, baseline, scope)
    if rendered is None:
        return None
    if candidate is None:
        return Choice(None, named, rendered, scope.compare(baseline, rendered))
    trial = _Trial(scope, rendered, named)
    for path in _areas(candidate.spec, named):
        trial.visit(path)
    return Choice(candidate, trial.vm, rendered, scope.compare(baseline, rendered), trial.removed, tuple(trial.kept))


def best(vm: Spec, candidates: Iterable[Candidate], baseline: Spec, scope: Scope, hints: Hints) -> Choice | None:
    """The best preference for ``vm``, or no preference (a Choice of None) when none improves on that.

    Only the candidates tied on differences and hints are stripped of what they provide: a render is cheap,
    but a trial renders once per setting.
    """
    scored: list[tuple[tuple[bool, int, bool, int], Candidate | None]] = []
    for candidate in [None, *candidates]:
        rendered = _render(with_matcher(vm, "preference", candidate), baseline, scope)
        if rendered is not None:
            found = [d for d in scope.compare(baseline, rendered) if not _metadata(d.path)]
            # Never another architecture (fedora.arm64 for a VM on the cluster's amd64); then the OS the VM
            # says it runs, before an exact fit: a user asks for their OS's preference, so a VM annotated
            # fedora gets fedora (its differences listed, approximate) rather than no preference, and rhel9
            # gets rhel.9 rather than a rhel.7 that happens to differ less. No preference only when no
            # preference in scope is the OS the VM names.
            moved = any(d.path == ARCHITECTURE for d in found)
            hinted = hints.score(candidate.name, declared_os(candidate.spec, candidate.labels)) if candidate else 0
            scored.append(((moved, -hinted, bool(found), len(found)), candidate))
    if not scored:
        return None
    top = min(score for score, _ in scored)
    choices = [c for score, cand in scored if score == top and (c := provide(vm, cand, baseline, scope))]
    return min(choices, key=_rank, default=None)


def _metadata(path: Path) -> bool:
    """Whether a difference is in the template's metadata (a preference's annotations), not its spec."""
    return path[:3] == (*TEMPLATE, "metadata")


def _rank(choice: Choice) -> tuple[Any, ...]:
    """Among choices tied on spec differences and hints: the one that provides the most of the VM, then the
    fewest metadata differences, cluster-scoped, the most generic (``linux`` before ``ubuntu``), by name."""
    candidate = choice.candidate
    generality = leaves(candidate.spec) if candidate else 0
    scope_rank = tie_break(candidate)[0]
    return (-choice.removed, len(choice.differences), scope_rank, generality, candidate.name if candidate else "")
