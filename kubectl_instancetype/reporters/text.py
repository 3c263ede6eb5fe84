"""The text reporter: one line per notice and problem, for standard error (notices first)."""

from __future__ import annotations

from .status import RunResult


def lines(result: RunResult) -> list[str]:
    """Notices, problems only shown, then the problems that decide the status."""
    out = [notice.render() for notice in result.notices]
    out.extend(problem.render() for problem in result.shown)
    out.extend(problem.render() for problem in result.problems)
    return out
