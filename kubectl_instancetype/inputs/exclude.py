"""``--exclude GLOB``: leaving files of a repository out, matched the way a user expects.

A pattern matches a file when it matches the file's path relative to the ``-f`` directory it was found
under, its base name, or any directory on the way (``charts`` leaves out everything under any ``charts/``,
``deploy/charts`` only that one).
``*`` does not cross ``/`` in a relative path; ``**`` does. A file named directly by ``-f`` is matched
by its path as given and its base name.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from .sources import STDIN, Source


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    pattern = pattern.strip("/").removeprefix("./")
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1:end]
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end + 1
                continue
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out) + r"\Z")


def _relative(source: Source) -> str:
    path = posixpath.normpath(source.path.replace("\\", "/"))
    root = posixpath.normpath(source.root.replace("\\", "/")) if source.root else ""
    if root and root != path and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1:]
    return path.removeprefix("./")


def excluded(source: Source, patterns: tuple[str, ...]) -> bool:
    """Whether ``source`` is left out by one of ``patterns`` (standard input and URLs never are)."""
    if not patterns or source.path == STDIN or "://" in source.path:
        return False
    relative = _relative(source)
    parts = relative.split("/")
    candidates = {relative, *parts, *("/".join(parts[:i]) for i in range(1, len(parts)))}
    return any(_compiled(p).match(c) for p in patterns for c in candidates)
