"""Unified diffs of texts, as ``diff -u`` and ``git diff`` print them, for ``--diff`` and the ``diff`` command."""

from __future__ import annotations

import difflib

from ..escape.terminal import one_line

NO_NEWLINE = "\\ No newline at end of file\n"


def unified(before: str | None, after: str | None, old_name: str, new_name: str, context: int = 3) -> str:
    """The unified diff from ``before`` to ``after`` (None: the file does not exist); ``""`` when equal.

    A last line without a newline is marked as GNU diff marks it, so that ``patch`` applies the result. The names
    are terminal text (a file name's line break would start a line of its own).
    """
    if before == after:
        return ""
    old = before.splitlines(keepends=True) if before is not None else []
    new = after.splitlines(keepends=True) if after is not None else []
    lines = difflib.unified_diff(
        old, new, one_line(old_name) if before is not None else "/dev/null",
        one_line(new_name) if after is not None else "/dev/null",
        n=context,
    )
    return "".join(line if line.endswith("\n") else f"{line}\n{NO_NEWLINE}" for line in lines)
