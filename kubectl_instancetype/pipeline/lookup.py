"""One lookup of the instancetype and preference a VirtualMachine's matchers select, shared by every stage.

KubeVirt's webhooks only log a failed lookup and go on as if the matcher were absent; the stages that need
the objects (expand, virt-controller) fail with the lookup's error. Both read the same :class:`Matched`,
made once after the mutating webhook has settled the matchers (``inferFromVolume`` decides what to look up).
The :class:`Context` also carries the book the stages record origins in, when the render explains itself.
A "not found" keeps KubeVirt's message verbatim and gets a hint after it (:mod:`..catalog.hints`).
"""

from __future__ import annotations

from typing import Any

from ..api.matchers import MATCHERS
from ..api.origin import NO_TRACE, Origins, Path, Trace
from ..api.releases import DEFAULT, Release
from ..catalog.find import Found, Lookup, NotFound, find_spec
from ..catalog.hints import hint
from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..records import dataclass
from ..records import field as dataclass_field

Spec = dict[str, Any]
# Where the spec and metadata a stage edits sit in the object it returns: a VM's template, or a VMI.
TEMPLATE: tuple[Path, Path] = (("spec", "template", "spec"), ("spec", "template", "metadata"))
VMI: tuple[Path, Path] = (("spec",), ("metadata",))


@dataclass(frozen=True)
class Failure:
    """A matcher whose object could not be found: KubeVirt's message and the matcher's field."""

    message: str
    field: tuple[str, ...]

    def error(self, stage: str) -> KubeVirtError:
        return KubeVirtError(self.message, stage, field=self.field)


@dataclass(frozen=True)
class Matched:
    """The specs the two matchers select (None without a matcher or when its lookup failed)."""

    instancetype: Found | None = None
    preference: Found | None = None
    failures: tuple[Failure, ...] = ()

    @property
    def instancetype_spec(self) -> Spec | None:
        return self.instancetype.spec if self.instancetype else None

    @property
    def preference_spec(self) -> Spec | None:
        return self.preference.spec if self.preference else None

    @property
    def anything(self) -> bool:
        """Whether a stage has an instancetype or preference to apply."""
        return self.instancetype is not None or self.preference is not None

    def require(self, stage: str) -> None:
        """Raise the first lookup failure (the instance type's first), as ``stage`` reports it."""
        if self.failures:
            raise self.failures[0].error(stage)


@dataclass(frozen=True)
class Context:
    """What every stage may read besides the object it transforms."""

    namespace: str
    catalog: Lookup
    config: ClusterConfig
    matched: Matched
    book: Origins | None = None  # where the origins of the values set are recorded (render --explain)
    warnings: list[str] = dataclass_field(default_factory=list)  # what the webhooks answer with an admitted object

    def trace(self, where: tuple[Path, Path]) -> Trace:
        """The trace of a stage editing the spec and metadata at ``where``, naming the objects found."""
        if self.book is None:
            return NO_TRACE
        return Trace(self.book, *where).using(self.matched.instancetype, self.matched.preference)


def lookup(vm: Spec, namespace: str, catalog: Lookup, release: Release = DEFAULT) -> Matched:
    """Find both matchers' specs as ``release`` does, recording failures instead of raising them."""
    found: list[Found | None] = []
    failures: list[Failure] = []
    for matcher in MATCHERS:
        try:
            found.append(find_spec(matcher, vm, namespace, catalog, release))
        except KubeVirtError as exc:
            found.append(None)
            extra = hint(exc, catalog) if isinstance(exc, NotFound) else ""
            failures.append(Failure(exc.message + extra, matcher.path))
    return Matched(found[0], found[1], tuple(failures))
