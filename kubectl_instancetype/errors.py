"""The one exception hierarchy of the tool, and the exit codes it maps to.

Every error can carry a :class:`Location` so that the CLI prints the single message grammar
``path:line:col: error: message``. The core raises these; only ``cli.py`` turns them into output
and exit statuses.
"""

from __future__ import annotations

from collections.abc import Iterable

from .escape.terminal import one_line
from .records import dataclass

EXIT_OK = 0
EXIT_FINDINGS = 1  # an object the cluster would refuse (API server or KubeVirt), or --check found changes
EXIT_USAGE = 2  # bad command line
EXIT_INPUT = 3  # input that cannot be processed
EXIT_BUG = 4  # an unexpected exception: a bug of this tool, never an answer about the input


@dataclass(frozen=True)
class Location:
    """A 1-based position in a named input (``<stdin>`` for standard input)."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class ToolError(Exception):
    """Base class of every error the tool reports to its user.

    ``notes`` are what the user needs beside the message (a misspelt instancetype behind KubeVirt's verbatim
    refusal): each a ``note`` :class:`Notice` with its own location, printed right after the error.
    """

    exit_code = EXIT_INPUT
    notes: tuple[Notice, ...] = ()
    # Each cause of a refusal with several (KubeVirt's webhooks), as a message of its own at its field: the
    # reports that point at lines (GitHub annotations, SARIF, JUnit, JSON) show each where it is.
    located_causes: tuple[tuple[str, Location], ...] = ()

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def with_location(self, location: Location) -> ToolError:
        """The same error pointing at ``location`` (kept when it already has one)."""
        if self.location is not None:
            return self
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.args = self.args
        clone.location = location
        return clone

    def render(self) -> str:
        """The one-line ``path:line:col: error: message`` form (line breaks in names are escaped)."""
        prefix = f"{self.location}: " if self.location else ""
        return one_line(f"{prefix}error: {self.message}")

    def headline(self, message: str | None = None) -> str:
        """``message`` (default: the error's own), then its notes: the one text a report shows where a note of
        its own would go unseen (code scanning shows a result's message, not its related locations; a JUnit
        failure's message, not its body). KubeVirt's words come first, verbatim."""
        text = self.message if message is None else message
        return "; ".join((text, *(f"note: {note.message}" for note in self.notes)))

    def with_notes(self, notes: tuple[Notice, ...]) -> ToolError:
        """The same error with ``notes`` added after its own."""
        if not notes:
            return self
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.args = self.args
        clone.notes = (*self.notes, *notes)
        return clone


@dataclass(frozen=True)
class Notice:
    """A warning (or a note) for the user: reported with the problems, never part of the exit status."""

    message: str
    location: Location | None = None
    severity: str = "warning"  # "warning" or "note"

    def render(self) -> str:
        """One line, as errors and as gcc, clang and ruff print theirs (so that problem matchers read every
        severity): ``path:line:col: warning: message``, ``path:line:col: note: message``."""
        prefix = f"{self.location}: " if self.location else ""
        return one_line(f"{prefix}{self.severity}: {self.message}")


def files_in_error(problems: Iterable[ToolError]) -> set[str]:
    """The input files that could not be read or parsed (a syntax error, too big, missing, not UTF-8, …):
    their problems' paths."""
    return {p.location.path for p in problems if p.exit_code == EXIT_INPUT and p.location is not None}


def located(text: str) -> Notice:
    """A warning of the catalog loader (``"path:line:col: message"`` or a bare message) as a Notice."""
    head, sep, message = text.partition(": ")
    path, *numbers = head.rsplit(":", 2)
    if sep and len(numbers) == 2 and all(n.isdigit() for n in numbers):
        return Notice(message, Location(path, int(numbers[0]), int(numbers[1])))
    return Notice(text)


class InputError(ToolError):
    """Input that cannot be processed: syntax, wrong types, unknown versions, unreadable files."""

    exit_code = EXIT_INPUT


class UsageError(ToolError):
    """A command line that does not make sense."""

    exit_code = EXIT_USAGE


class KubeVirtError(ToolError):
    """KubeVirt would reject this VirtualMachine or fail to expand it; the message is KubeVirt's own.

    ``stage`` names the KubeVirt component that refuses (``mutate``, ``admit``, ``expand``, ``controller``,
    ``vmi-mutate``, ``vmi-admit``; ``config``: the cluster configuration KubeVirt will not use), ``paths`` are
    KubeVirt's conflicting field paths and ``field`` is the
    VirtualMachine field at fault (keys from the document root), so that a caller can point at it. A webhook's
    refusal also lists its ``causes``: each message with the VirtualMachine field it names (``()``: none), so
    that a report can point at every one. ``lookups`` are the matchers whose objects KubeVirt's webhooks could
    not find and went on without (each failed lookup's message and the matcher's field): they explain a
    refusal whose own message does not name them.
    """

    exit_code = EXIT_FINDINGS
    lookups: tuple[tuple[str, tuple[str | int, ...]], ...] = ()
    hint: str = ""  # said after KubeVirt's message when it is reported (" (hint: …)")

    def __init__(
        self,
        message: str,
        stage: str = "expand",
        paths: tuple[str, ...] = (),
        field: tuple[str | int, ...] = (),
        causes: tuple[tuple[str, tuple[str | int, ...]], ...] = (),
    ) -> None:
        super().__init__(message)
        self.stage = stage
        self.paths = paths
        self.field = field
        self.causes = causes


class RefusedError(ToolError):
    """kubectl or the API server would refuse this object (``--validate``); the message is theirs.

    A finding, like a VM KubeVirt refuses: exit status 1 in every command.
    """

    exit_code = EXIT_FINDINGS


class OutOfDate(ToolError):
    """A file ``--check`` or ``--diff`` finds that ``--write`` would change: a finding (exit status 1), reported
    by the machine formats as a result (the text output lists the file on standard output and counts it)."""

    exit_code = EXIT_FINDINGS


class HygieneError(ToolError):
    """A template leaks something to every VM made from it (a credential, a machine identifier, a value that
    defeats its instancetype): a finding (exit status 1). ``rule`` is its SARIF rule id (``KIT006``…)."""

    exit_code = EXIT_FINDINGS

    def __init__(self, message: str, rule: str, location: Location | None = None) -> None:
        super().__init__(message, location)
        self.rule = rule


class InternalLimitError(InputError):
    """Input refused because it exceeds a documented safety limit (alias bombs, huge documents)."""
