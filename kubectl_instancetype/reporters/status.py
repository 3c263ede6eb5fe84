"""What a run found, and the exit status it adds up to: decided here and nowhere else.

    0  success: nothing to report, nothing to change
    1  findings: KubeVirt would reject a VirtualMachine or refuse a catalog object; files would change
       (``--check``); expansions changed (``diff``)
    2  usage error (click's own, and :class:`~kubectl_instancetype.errors.UsageError`)
    3  input that cannot be processed; standard output that cannot be written; a --jobs worker killed
    4  a bug of this tool
  130  interrupted (Ctrl-C)
  141  standard output closed by its reader (``| head``): the run ends quietly, as kubectl and cat do (SIGPIPE)

A run that finishes gets its status from its :class:`RunResult`; a run that cannot finish, from how it
ended (:class:`Ending`, which ``cli/crash.py`` recognises).
"""

from __future__ import annotations

from enum import IntEnum

from ..errors import EXIT_BUG, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, Notice, ToolError
from ..records import dataclass


class Ending(IntEnum):
    """How a run that cannot finish ends; each value is its exit status."""

    OUTPUT_FAILED = EXIT_INPUT  # standard output closed, full or a broken pipe: not the input's fault, not a bug
    BUG = EXIT_BUG  # anything no ToolError anticipated: never 1, which a CI job reads as "KubeVirt refuses"
    INTERRUPTED = 130  # 128 + SIGINT, as shells report a process Ctrl-C ended
    PIPE_CLOSED = 141  # 128 + SIGPIPE: its reader closed standard output (`| head`); quiet, as kubectl and cat end
    WORKER_ENDED = EXIT_INPUT  # a --jobs worker killed (the OOM killer, a CI runner's SIGTERM): not a bug either


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
    outdated: tuple[ToolError, ...] = ()  # files --check/--diff found out of date: results of the machine reports


def exit_status(result: RunResult) -> int:
    """The worst status among the problems, at least 1 when something changes."""
    worst = max((p.exit_code for p in result.problems), default=EXIT_OK)
    return max(worst, EXIT_FINDINGS) if result.changed else worst
