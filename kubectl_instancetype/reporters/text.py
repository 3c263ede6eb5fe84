"""The text reporter: one line per notice and problem, for standard error (notices first)."""

from __future__ import annotations

from .status import RunResult


def lines(result: RunResult) -> list[str]:
    """Notices, problems only shown, then the problems that decide the status; each problem's notes after it."""
    out = [notice.render() for notice in result.notices]
    for problem in (*result.shown, *result.problems):
        out.append(problem.render())
        out.extend(note.render() for note in problem.notes)
    return out
