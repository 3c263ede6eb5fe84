"""Where each value of an expansion comes from: origins, the book that keeps them, the trace stages write to.

An :class:`Origin` is an immutable, greppable answer to "why is this here?": the instancetype or preference
(kind, name and the field the value came from), or a named default (a KubeVirt default, a cluster
configuration setting, an auto-attached device). The appliers and defaults that set a value record its
origin through the :class:`Trace` they are handed, keyed by the value's path in the output object; a trace
without a book (:data:`NO_TRACE`, the default) records nothing, so rendering without ``--explain`` pays one
attribute test per value set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..records import dataclass, field, replace

Path = tuple[str | int, ...]

INSTANCETYPE = "instancetype"
PREFERENCE = "preference"
DEFAULT = "default"  # a KubeVirt default, or a device it attaches on its own
CLUSTER = "cluster"  # a cluster configuration setting (KubeVirt CR, else KubeVirt's own default for it)
RENDER = "render"  # what the tool itself adds (the namespace of -n)
TEMPLATE = "template"  # a value a VirtualMachineTemplate's parameter filled in (``${X}``)


@dataclass(frozen=True)
class Source:
    """The instancetype or preference object a VM was expanded with."""

    kind: str  # VirtualMachine(Cluster)Instancetype / VirtualMachine(Cluster)Preference
    name: str


@dataclass(frozen=True)
class Origin:
    """Why one value of an expansion is there."""

    source: str  # INSTANCETYPE, PREFERENCE, DEFAULT, CLUSTER or RENDER
    name: str  # the object's name, or the words naming the default or setting
    kind: str = ""  # the object's Kind (instancetype and preference origins)
    field: str = ""  # the object's field the value came from, or the configuration setting
    detail: str = ""  # how a value was derived rather than copied (the CPU topology)

    def text(self) -> str:
        """The origin in words: ``instancetype u1.medium (spec.memory.guest)``, ``default pod network``."""
        if self.source in (INSTANCETYPE, PREFERENCE):
            said = f": {self.detail}" if self.detail else f" ({self.field})"
            return f"{self.source} {self.name}{said}"
        return self.name

    def short(self) -> str:
        """The origin without the field: ``instancetype u1.medium``, ``default pod network``."""
        return f"{self.source} {self.name}" if self.source in (INSTANCETYPE, PREFERENCE) else self.name

    def as_json(self) -> dict[str, str]:
        """The origin for tools: every field that is set, and its words."""
        out = {"source": self.source, "text": self.text()}
        out.update((k, v) for k, v in (("kind", self.kind), ("name", self.name), ("field", self.field),
                                       ("detail", self.detail)) if v)
        return out


def named(words: str, setting: str = "") -> Origin:
    """A KubeVirt default (``setting`` empty) or a cluster configuration setting, by name."""
    return Origin(CLUSTER if setting else DEFAULT, words, field=setting)


def from_object(source: Source, field: str, detail: str = "") -> Origin:
    """The value ``field`` of an instancetype or preference (``detail``: how it was derived)."""
    word = PREFERENCE if "Preference" in source.kind else INSTANCETYPE
    return Origin(word, source.name, source.kind, field, detail)


class Origins:
    """The origins recorded for one rendered object, by path (keys and list indices) in that object.

    A value set whole (a mapping, a list item) replaces whatever was recorded inside it; the origin of a
    value is the one recorded at its path or, failing that, at the nearest enclosing path.
    """

    __slots__ = ("_by_path",)

    def __init__(self) -> None:
        self._by_path: dict[Path, Origin] = {}

    def record(self, path: Path, origin: Origin) -> None:
        depth = len(path)
        for inner in [p for p in self._by_path if len(p) > depth and p[:depth] == path]:
            del self._by_path[inner]
        self._by_path[path] = origin

    def record_new(self, path: Path, origin: Origin) -> None:
        """Record ``origin`` only where nothing (here or around) already explains the value."""
        if self.find(path) is None:
            self._by_path[path] = origin

    def find(self, path: Path) -> Origin | None:
        """The origin of the value at ``path``: its own or its nearest enclosing one."""
        return origin_at(self._by_path, path)

    def move(self, source: Path, target: Path) -> None:
        """Re-key everything recorded under ``source`` to ``target`` (a spec copied elsewhere)."""
        depth = len(source)
        moved = {p: o for p, o in self._by_path.items() if p[:depth] == source}
        for path, origin in moved.items():
            del self._by_path[path]
            self._by_path[target + path[depth:]] = origin

    def keep_present(self, obj: Any) -> None:
        """Forget the paths ``obj`` no longer has (values encoding omitted, entries removed later)."""
        for path in [p for p in self._by_path if not _present(obj, p)]:
            del self._by_path[path]

    def items(self) -> Iterator[tuple[Path, Origin]]:
        return iter(sorted(self._by_path.items(), key=lambda item: [str(k) for k in item[0]]))

    def __len__(self) -> int:
        return len(self._by_path)

    def as_mapping(self) -> Mapping[Path, Origin]:
        return dict(self._by_path)


def origin_at(origins: Mapping[Path, Origin], path: Path) -> Origin | None:
    """The origin of the value at ``path`` among ``origins``: its own or its nearest enclosing one."""
    for end in range(len(path), -1, -1):
        found = origins.get(path[:end])
        if found is not None:
            return found
    return None


def _present(obj: Any, path: Path) -> bool:
    for key in path:
        in_map = isinstance(obj, dict) and isinstance(key, str) and key in obj
        in_list = isinstance(obj, list) and isinstance(key, int) and 0 <= key < len(obj)
        if not (in_map or in_list):
            return False
        obj = obj[key]
    return True


def json_pointer(path: Path) -> str:
    """``path`` as an RFC 6901 JSON pointer."""
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


@dataclass(frozen=True)
class Trace:
    """Where a stage records the origins of what it sets: the book, the path of the spec it edits in the
    output object, the path of that spec's metadata, and the instancetype and preference being applied.

    Stages take a trace and pass it on, narrowed (:meth:`at`) to the part they hand a helper.
    """

    book: Origins | None = None
    root: Path = ()
    meta: Path = ()
    instancetype: Source | None = None
    preference: Source | None = None
    on: bool = field(init=False, repr=False, compare=False)  # whether anything is recorded

    def __post_init__(self) -> None:
        object.__setattr__(self, "on", self.book is not None)

    def at(self, *keys: str | int) -> Trace:
        """The trace for the value at ``keys`` below the current root."""
        return self if self.book is None else replace(self, root=self.root + keys)

    def rooted(self, root: Path) -> Trace:
        """The trace for a value elsewhere in the output object, at ``root``."""
        return self if self.book is None else replace(self, root=root)

    def metadata(self) -> Trace:
        """The trace rooted at the metadata that goes with the spec."""
        return self if self.book is None else replace(self, root=self.meta)

    def using(self, instancetype: Any, preference: Any) -> Trace:
        """The trace for applying ``instancetype`` and ``preference`` (found objects: ``kind`` and ``name``)."""
        if self.book is None:
            return self
        return replace(self, instancetype=source_of(instancetype), preference=source_of(preference))

    def absent(self, data: Any, keys: Path) -> Path | None:
        """When recording: the path of the first mapping of ``keys`` that ``data`` lacks (``child`` will
        create it), so that a structure a stage creates empty still has an origin. None when not recording."""
        if self.book is None:
            return None
        for end, key in enumerate(keys, 1):
            data = data.get(key) if isinstance(data, dict) else None
            if not isinstance(data, dict):
                return keys[:end]
        return None

    def set(self, keys: Path, origin: Origin) -> None:
        """Record that the value at ``keys`` (below the root) was set for ``origin``."""
        if self.book is not None:
            self.book.record(self.root + keys, origin)

    def set_new(self, keys: Path, origin: Origin) -> None:
        """Record ``origin`` unless an earlier stage already explains the value at ``keys``."""
        if self.book is not None:
            self.book.record_new(self.root + keys, origin)

    def by_instancetype(self, keys: Path, field: str, detail: str = "") -> None:
        """The value at ``keys`` came from the instancetype's ``field``."""
        if self.book is not None and self.instancetype is not None:
            self.book.record(self.root + keys, from_object(self.instancetype, field, detail))

    def by_preference(self, keys: Path, field: str, detail: str = "") -> None:
        """The value at ``keys`` came from the preference's ``field``."""
        if self.book is not None and self.preference is not None:
            self.book.record(self.root + keys, from_object(self.preference, field, detail))


NO_TRACE = Trace()
NAMESPACE = Origin(RENDER, "namespace of the render (-n)")


def source_of(found: Any) -> Source | None:
    """The :class:`Source` of a found instancetype or preference (anything with ``kind`` and ``name``)."""
    return None if found is None else Source(str(found.kind), str(found.name))
