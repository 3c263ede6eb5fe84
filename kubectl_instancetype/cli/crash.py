"""The last line of defence at the entry point: standard streams that cannot be used, and bugs.

Every problem the tool anticipates is a :class:`~kubectl_instancetype.errors.ToolError` with its own
status. Anything else that escapes a command is a bug of this tool: it ends with ``Ending.BUG`` (4) and
one line that says so and how to report it, never with a traceback nor with status 1, which means
"KubeVirt would refuse this VM" to a CI job. A standard stream that is closed, full or a broken pipe is
not a bug: the run ends quietly with status 141 when its reader closed standard output (``| head``: kubectl and
cat end so, by SIGPIPE), else with one line and status 3.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..errors import one_line
from ..parallel import WorkerEnded
from ..reporters.status import Ending

REPORT_URL = "https://github.com/kubevirt/kubectl-instancetype/issues"
DEBUG_ENV = "KUBECTL_INSTANCETYPE_TRACEBACK"  # set to print the traceback of a bug as well


class StreamBroken(Exception):
    """Standard output became a broken pipe (its reader went away); raised past click, which exits 1."""


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C); raised past click, which exits 1."""


class ClosedStream(io.TextIOBase):
    """Stands in for a standard stream that was closed when the process started: using it is an OSError."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.stream_name = name

    def _closed(self) -> OSError:
        return OSError(errno.EBADF, f"standard {self.stream_name} is closed")

    def read(self, size: int | None = -1) -> str:
        raise self._closed()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise self._closed()

    def write(self, text: str) -> int:
        raise self._closed()

    def isatty(self) -> bool:
        return False


def reserve_standard_streams() -> None:
    """Give closed standard descriptors /dev/null and closed ``sys`` streams a :class:`ClosedStream`.

    Without this, the first file the tool opens would get descriptor 0, 1 or 2, and a child process
    (``git``) could write its messages into a file being rewritten.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
    if sys.stdin is None:
        sys.stdin = ClosedStream("input")
    if sys.stdout is None:
        sys.stdout = ClosedStream("output")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    utf8_output()


def utf8_output() -> None:
    """Standard output in UTF-8 whatever the locale says (``LC_ALL=C``, ``PYTHONIOENCODING=ascii``), as kubectl
    writes it: the manifests are YAML and JSON, UTF-8 by definition, and escaping a character would change the
    value it spells. Standard error keeps the locale's encoding, with escapes for what it cannot show."""
    for name, errors in (("stdout", "strict"), ("stderr", "backslashreplace")):
        stream = getattr(sys, name)
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding == "utf8" or not isinstance(stream, io.TextIOWrapper):
            continue
        with contextlib.suppress(OSError, ValueError):
            if name == "stdout":
                stream.reconfigure(encoding="utf-8", errors=errors)
            else:
                stream.reconfigure(errors=errors)


def guarded(run: Callable[[], Any]) -> Any:
    """``run()``, with stream failures and unexpected exceptions turned into one line and a status."""
    reserve_standard_streams()
    try:
        result = run()
        _flush()
        return result
    except SystemExit as exc:
        _flush()
        raise exc from None
    except (KeyboardInterrupt, Interrupted):
        _exit(Ending.INTERRUPTED, "error: interrupted")
    except WorkerEnded as exc:  # the environment ended it (out of memory, a runner's SIGTERM): say how
        _exit(Ending.WORKER_ENDED, f"error: {exc}; the run did not finish (files it writes are replaced whole or "
                                   "not at all); if memory ran out, give fewer --jobs or split the input")
    except (BrokenPipeError, StreamBroken):  # `| head` had what it wanted: no error, as kubectl (SIGPIPE)
        _exit(Ending.PIPE_CLOSED, None, drop_output=True)
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _exit(Ending.PIPE_CLOSED, None, drop_output=True)
        if _is_stream_error(exc):
            _exit(Ending.OUTPUT_FAILED, f"error: cannot write the output: {exc.strerror or exc}", drop_output=True)
        _bug(exc)
    except RecursionError as exc:
        _bug(exc, "nesting this deep should have been refused")
    except Exception as exc:  # the one place that catches everything
        _bug(exc)


def end_process(code: object) -> NoReturn:
    """End the process with ``code`` (a ``SystemExit``'s) as the interpreter would, without its teardown.

    The teardown frees every object of the run one at a time and looks for cycles once more: for a short run,
    a tenth of its time, for nothing. What an exit does that matters is kept: the ``atexit`` functions run,
    then the standard streams are flushed. While another thread runs, for an exit code that is no number, or
    when a stream cannot be flushed, the interpreter ends the process as before (and says what failed).
    """
    threading = sys.modules.get("threading")
    if not (code is None or isinstance(code, int)) or (threading is not None and threading.active_count() > 1):
        raise SystemExit(code)
    import atexit

    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    os._exit(code or 0)


def _is_stream_error(exc: OSError) -> bool:
    return exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EBADF, errno.EIO, errno.EDQUOT)


def _flush() -> None:
    """Flush standard output now, so a full or closed stream is reported here, not at interpreter exit."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
    except BrokenPipeError:
        _exit(Ending.PIPE_CLOSED, None, drop_output=True)
    except (OSError, ValueError) as exc:
        message = f"error: cannot write the output: {getattr(exc, 'strerror', None) or exc}"
        _exit(Ending.OUTPUT_FAILED, message, drop_output=True)


def _bug(exc: BaseException, note: str = "") -> NoReturn:
    import traceback  # here: a run without a bug does not pay for it

    where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    at = f" at {os.path.basename(where[0].filename)}:{where[0].lineno}" if where else ""
    detail = f"{type(exc).__name__}: {exc}"
    if note:
        detail = f"{detail} ({note})"
    if os.environ.get(DEBUG_ENV):
        _say("".join(traceback.format_exception(exc)))
    _exit(
        Ending.BUG,
        f"error: internal error (a bug in kubectl-instancetype, not in your input): {detail}{at}; "
        f"please report it at {REPORT_URL} with the command line and the input "
        f"({DEBUG_ENV}=1 prints the traceback)",
    )


def _say(text: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text if text.endswith("\n") else text + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _exit(ending: Ending, message: str | None, drop_output: bool = False) -> NoReturn:
    if message is not None:
        _say(one_line(message[:2000]))
    if drop_output:  # the interpreter's own flush at exit must not fail again on the broken stream
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.close(devnull)
        except OSError:
            pass
    sys.exit(int(ending))
