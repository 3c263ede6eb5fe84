"""The fields of a VM's expansion that changed between two revisions, each with where it came from on each side.

A catalog bump then reads as what it is: ``memory.guest 4Gi → 8Gi (instancetype acme.small)``. The origins
are those the render recorded (``render --explain``); a value with none is the VM's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..api.origin import Origin, Path, origin_at
from ..records import dataclass

_ABSENT = object()
_SHOWN = 60  # a longer value is cut to this many characters in sentences
# Paths are shown relative to the first of these they are under: "memory.guest", not the whole way down.
_SHORTENED = (("spec", "template", "spec", "domain"), ("spec", "template", "spec"), ("spec", "template"))


@dataclass(frozen=True)
class FieldChange:
    """One value of an expansion that differs between the base revision and the working tree."""

    path: Path
    before: str | None  # the value as text (JSON for collections); None when absent
    after: str | None
    origin_before: Origin | None  # None: the VM's own value
    origin_after: Origin | None

    @property
    def field(self) -> str:
        """The path as a reviewer reads it: ``memory.guest``, ``devices.disks[0].disk.bus``."""
        path = self.path
        for prefix in _SHORTENED:
            if path[: len(prefix)] == prefix and len(path) > len(prefix):
                path = path[len(prefix):]
                break
        text = ""
        for key in path:
            text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
        return text

    def origins(self) -> str:
        """``instancetype acme.small``, or ``before → after`` when the origin moved."""
        said = _said(self.origin_before)
        if self.origin_before != self.origin_after:
            said = f"{said} → {_said(self.origin_after)}"
        return said

    def values(self) -> tuple[str, str]:
        """The values before and after, cut for a sentence (``—`` when absent)."""
        return shown(self.before), shown(self.after)

    def sentence(self) -> str:
        """``memory.guest 4Gi → 8Gi (instancetype acme.small)``; both origins when they differ."""
        before, after = self.values()
        return f"{self.field} {before} → {after} ({self.origins()})"

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path_text, "field": self.field, "before": self.before, "after": self.after,
                "origin_before": self.origin_before.as_json() if self.origin_before else None,
                "origin_after": self.origin_after.as_json() if self.origin_after else None}

    @property
    def path_text(self) -> str:
        return ".".join(str(key) for key in self.path)


def _said(origin: Origin | None) -> str:
    return origin.short() if origin is not None else "the VM"


def shown(text: str | None) -> str:
    """A value for a sentence: ``—`` when absent, cut after :data:`_SHOWN` characters."""
    if text is None:
        return "—"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _text(value: Any) -> str | None:
    """A value on one line: plain strings as they are, anything else (and multi-line text) as JSON."""
    if value is _ABSENT:
        return None
    if isinstance(value, str) and value and value.isprintable():
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def field_changes(before: Any, after: Any, origins_before: Mapping[Path, Origin],
                  origins_after: Mapping[Path, Origin]) -> list[FieldChange]:
    """Every value that differs between two expansions (a value present on one side only is one change, however
    large), in the order of the expansion."""
    return [FieldChange(path, _text(old), _text(new), origin_at(origins_before, path), origin_at(origins_after, path))
            for path, old, new in _differences(before, after, ())]


def _differences(before: Any, after: Any, path: Path) -> Iterator[tuple[Path, Any, Any]]:
    if type(before) is type(after) and before == after:
        return
    if type(before) is dict and type(after) is dict:
        for key in sorted(before.keys() | after.keys()):
            yield from _differences(before.get(key, _ABSENT), after.get(key, _ABSENT), (*path, key))
    elif type(before) is list and type(after) is list:
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else _ABSENT
            new = after[index] if index < len(after) else _ABSENT
            yield from _differences(old, new, (*path, index))
    else:
        yield path, before, after
