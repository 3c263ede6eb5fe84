"""Where an object that arrives on standard input really comes from, to name that file in problems.

kustomize and kpt annotate each object with the file it was read from (``internal.config.kubernetes.io/path``,
``config.kubernetes.io/path``, with ``…/index`` and, where a tool sets one, ``…/line``); Helm 4's
post-renderer names the template (``postrenderer.helm.sh/postrender-filename``). A problem located in
such an object on ``<stdin>`` is then reported against that file. Where the object starts in it is known
when it is the file's first object (no index, or index 0) or a line annotation says: the line is then
counted from there and the column kept; otherwise the problem points at the file's start (1:1).
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Iterable
from typing import Any

from ..errors import Location, Notice, ToolError
from ..records import dataclass
from ..yamlio import Document

PATH_ANNOTATIONS = ("internal.config.kubernetes.io/path", "config.kubernetes.io/path",
                    "postrenderer.helm.sh/postrender-filename")
LINE_ANNOTATIONS = ("internal.config.kubernetes.io/line", "config.kubernetes.io/line")
INDEX_ANNOTATIONS = ("internal.config.kubernetes.io/index", "config.kubernetes.io/index")


@dataclass(frozen=True)
class Provenance:
    """An object that starts at ``start`` (a line of ``stream``) and comes from ``file`` (None: unknown),
    where it starts at ``line``."""

    stream: str
    start: int
    file: str | None
    line: int | None = 1  # None: somewhere in the file, not known where


def provenance_of(doc: Document) -> Provenance:
    """The file ``doc``'s annotations name, if any, and where ``doc`` starts."""
    start = doc.location
    meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
    annotations: Any = meta.get("annotations") if isinstance(meta, dict) else None
    if not isinstance(annotations, dict):
        return Provenance(start.path, start.line, None)
    path = next((annotations[a] for a in PATH_ANNOTATIONS if isinstance(annotations.get(a), str)), None)
    line = next((str(annotations[a]) for a in LINE_ANNOTATIONS if a in annotations), "")
    index = next((str(annotations[a]) for a in INDEX_ANNOTATIONS if a in annotations), "0")
    if line.isascii() and line.isdigit() and len(line) <= 18:  # "²" is a digit to str.isdigit, not to int()
        return Provenance(start.path, start.line, path or None, int(line))
    return Provenance(start.path, start.line, path or None, 1 if index in ("", "0") else None)


@dataclass(frozen=True)
class Provenances:
    """The origins of the objects of standard input, by the line each starts at."""

    entries: tuple[Provenance, ...] = ()

    @classmethod
    def of(cls, docs: Iterable[Document], stream: str) -> Provenances:
        found = [provenance_of(d) for d in docs if d.source == stream]
        if all(o.file is None for o in found):
            return cls()
        return cls(tuple(sorted(found, key=lambda o: o.start)))

    def relocate(self, location: Location | None) -> Location | None:
        """``location`` in the file its object came from; unchanged when no annotation says."""
        if location is None or not self.entries or location.path != self.entries[0].stream:
            return location
        at = bisect.bisect_right([o.start for o in self.entries], location.line) - 1
        if at < 0:
            return location
        origin = self.entries[at]
        if origin.file is None:
            return location
        if origin.line is None:
            return Location(origin.file)
        return Location(origin.file, origin.line + location.line - origin.start, location.col)

    def problem(self, problem: ToolError) -> ToolError:
        moved = self.relocate(problem.location)
        if moved is problem.location:
            return problem
        clone = copy.copy(problem)
        clone.location = moved
        return clone

    def notice(self, notice: Notice) -> Notice:
        moved = self.relocate(notice.location)
        return notice if moved is notice.location else Notice(notice.message, moved, notice.severity)
