"""GitHub Actions workflow commands: each problem an ``::error`` and each warning a ``::warning``
annotation on the file and line it is about (the Checks tab and the pull request's diff show them)."""

from __future__ import annotations

from ..errors import Location, Notice, ToolError
from ..escape import workflow
from .status import RunResult

_UNNAMED = ("<stdin>", "<defaults>")


def _where(location: Location | None) -> str:
    if location is None or location.path in _UNNAMED or "://" in location.path:
        return ""
    return f" file={workflow.prop(location.path)},line={location.line},col={location.col}"


def annotation(level: str, message: str, location: Location | None) -> str:
    """One workflow command line: ``::error file=…,line=…,col=…::message``."""
    return f"::{level}{_where(location)}::{workflow.data(message)}"


def workflow_commands(result: RunResult) -> list[str]:
    """The annotations of a run: warnings (notes are left out) and the problems that decide its status."""
    out = [annotation("warning", n.message, n.location) for n in result.notices if _is_warning(n)]
    for problem in result.problems:
        out.extend(_problem(problem))
    return out


def _is_warning(notice: Notice) -> bool:
    return notice.severity == "warning"


def _problem(problem: ToolError) -> list[str]:
    """The problem's ``::error``, each of its causes at its own field's line (KubeVirt refuses with several),
    then its notes as ``::notice`` at their own lines (and in the error's message: a reader of the error sees
    the misspelt instancetype behind KubeVirt's refusal)."""
    causes = problem.located_causes or ((problem.message, problem.location),)
    out = [annotation("error", problem.headline(message), where) for message, where in causes]
    out.extend(annotation("notice", n.message, n.location) for n in problem.notes)
    return out
