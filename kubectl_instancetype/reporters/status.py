"""What a run found, and the exit status it adds up to: decided here and nowhere else.

    0  success: nothing to report, nothing to change
    1  findings: KubeVirt would reject a VirtualMachine or refuse a catalog object; files would change
       (``--check``); expansions changed (``diff``)
    2  usage error (click's own, and :class:`~kubectl_instancetype.errors.UsageError`)
    3  input that cannot be processed
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EXIT_FINDINGS, EXIT_OK, Notice, ToolError


@dataclass(frozen=True)
class Checked:
    """One VirtualMachine a run looked at (a test case for CI): its label, its file, and its problem."""

    name: str
    file: str
    problem: ToolError | None = None


@dataclass(frozen=True)
class RunResult:
    """Everything a command found: problems (they decide the status), notices (they never do), problems
    only shown (a diff's base revision), whether something changes, and the VMs looked at."""

    problems: tuple[ToolError, ...] = ()
    notices: tuple[Notice, ...] = ()
    changed: bool = False
    shown: tuple[ToolError, ...] = ()
    checked: tuple[Checked, ...] = ()


def exit_status(result: RunResult) -> int:
    """The worst status among the problems, at least 1 when something changes."""
    worst = max((p.exit_code for p in result.problems), default=EXIT_OK)
    return max(worst, EXIT_FINDINGS) if result.changed else worst
