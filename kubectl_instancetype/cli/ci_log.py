"""Standard output in a GitHub Actions log: text of the user's files printed as it is (``render --diff``'s
context lines, ``render``'s, ``suggest``'s, ``convert``'s and ``template process``' YAML, ``diff -o markdown``'s
diffs) may hold a line the runner reads as a workflow command (``::add-mask::…``, ``::notice::…`` inside a block
scalar; ``##[…`` anywhere). Under GitHub Actions (``GITHUB_ACTIONS=true``) the piece of output holding such a
line is preceded by ``::stop-commands::`` with a random token and the output ends by resuming the commands,
before the run's own annotations are written. Output without such a line, output redirected to a file (which
the runner does not read) and every run outside GitHub Actions are written byte for byte as they are; a pipe
may be the runner's, so output piped on gets the two lines too.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import Any, TextIO, cast

from ..escape import workflow


class _Guarded:
    """A text stream that writes whole lines to ``out``, stopping the runner's commands before the first piece
    of output (what one ``write`` completes: a file's diff, a document) that holds a line it would read as one.
    The stop goes before the piece, not inside it: a diff's hunk stays whole for ``patch`` and ``git apply``,
    which skip the lines between two files' diffs."""

    def __init__(self, out: TextIO, token: str) -> None:
        self.out, self.token, self.tail, self.stopped = out, token, "", False

    def write(self, text: str) -> int:
        whole, ended, self.tail = (self.tail + text).rpartition("\n")
        if ended:
            self._piece(whole + "\n")
        return len(text)

    def _piece(self, text: str) -> None:
        if not self.stopped and any(workflow.is_command(line) for line in text.split("\n")):
            self.out.write(workflow.stop(self.token))
            self.stopped = True
        self.out.write(text)

    def close(self) -> None:
        """Write what is left and resume the runner's commands (after a last line without its newline, a newline:
        the resuming command must start a line)."""
        if self.tail:
            tail, self.tail = self.tail, ""
            self._piece(tail)
            if self.stopped:
                self.out.write("\n")
        if self.stopped:
            self.out.write(workflow.resume(self.token))
        self.out.flush()

    def flush(self) -> None:
        self.out.flush()

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding: the real stream's
        return getattr(self.out, name)


# the guard in place (one command runs per process; a test runs commands one after another)
_ACTIVE: list[tuple[TextIO, _Guarded]] = []


def guard_stdout() -> None:
    """From here on, standard output is safe for a GitHub Actions log (as it is elsewhere)."""
    release_stdout()  # one left by a run that ended early
    if os.environ.get("GITHUB_ACTIONS") != "true" or _regular_file(sys.stdout):
        return
    import secrets  # here: only a GitHub Actions run needs a token (OpenSSL's bindings cost every start 5 ms)

    guard = _Guarded(sys.stdout, secrets.token_hex(16))
    _ACTIVE.append((sys.stdout, guard))
    sys.stdout = cast(TextIO, guard)


def _regular_file(stream: TextIO) -> bool:
    """Whether ``stream`` writes a file (``> comment.md``, ``> fix.patch``): the runner never reads it, and the
    file is kept as it would be anywhere else."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def release_stdout() -> None:
    """Resume the runner's commands (if output stopped them) and write to standard output directly again: called
    before the run's report, whose annotations the runner must read."""
    while _ACTIVE:
        real, guard = _ACTIVE.pop()
        if sys.stdout is cast(TextIO, guard):
            sys.stdout = real
        guard.close()
