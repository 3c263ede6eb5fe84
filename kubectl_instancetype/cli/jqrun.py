"""Argo CD's jq patches under its time limit.

libjq keeps the interpreter while a program runs, and a program may never end (``def f: f; f``): Argo CD gives
each one a second (util/argo/normalizers/diff_normalizer.go, ``DefaultJQExecutionTimeout``) and skips the patch
that runs longer. Here the programs run in one forked process that this one ends when a rule's programs take
longer than a second each; they are then run one by one, the slow one is skipped the same way, remembered for a
warning, and not run again (Argo CD would wait out the second on every object). Where ``fork`` is not available
they run in this process, unbounded.

The worker dies with this process whatever ends it (SIGTERM from a cancelled CI job, SIGHUP, SIGKILL): on Linux
the kernel kills it (``PR_SET_PDEATHSIG``); everywhere, a watchdog process it forks waits on a pipe whose only
writer is this process and kills the worker when the pipe closes. The watchdog is a process, not a thread of the
worker: libjq holds the interpreter's lock while a program runs, so no thread of the worker would get to run.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from ..gitops.ignore import run_jq

LIMIT = 1.0  # seconds: Argo CD's default (argocd-cmd-params-cm ignore.normalizer.jq.timeout)
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _serve(conn: Any, parent: int, lifeline: tuple[int, int]) -> None:
    os.close(lifeline[1])  # the parent's end: the pipe closes when the parent is gone
    _die_with_parent(parent)
    _watchdog(lifeline[0], conn)
    os.close(lifeline[0])
    while True:
        try:
            expressions, doc = conn.recv()
        except EOFError:
            return
        conn.send(run_jq(expressions, doc))


def kernel_kills_orphan() -> bool:
    """Linux: ask the kernel to SIGKILL this process when its parent ends (``prctl(PR_SET_PDEATHSIG)``); whether
    it was set."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _die_with_parent(parent: int) -> None:
    """The kernel's kill on the parent's death, then: a parent that ended before it was asked is ended already."""
    kernel_kills_orphan()
    if os.getppid() != parent:
        os._exit(0)


def _watchdog(lifeline: int, conn: Any) -> None:
    """Fork the process that kills this one (the worker) when ``lifeline`` closes: the parent is gone. It ends
    by itself when the worker does (the pipe ``alive`` closes)."""
    worker = os.getpid()
    alive_read, alive_write = os.pipe()
    if os.fork():
        os.close(alive_read)  # the worker keeps the writing end open as long as it lives
        return
    try:  # the watchdog: no Python-level cleanup of the worker's state, only os._exit
        import select

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C ends the parent; the pipe says so
        os.close(alive_write)
        os.close(conn.fileno())  # the worker's end of the request pipe: its death must reach the parent
        ready, _, _ = select.select([lifeline, alive_read], [], [])
        if lifeline in ready and alive_read not in ready:
            os.kill(worker, signal.SIGKILL)
    finally:
        os._exit(0)


class JqRunner:
    """:func:`..gitops.ignore.run_jq` in a worker process, each program bounded by ``limit`` seconds."""

    def __init__(self, limit: float = LIMIT) -> None:
        self.limit = limit
        self.timed_out: list[str] = []
        self._worker: tuple[Any, Any, int] | None = None

    def __call__(self, expressions: tuple[str, ...], doc: Any) -> Any:
        import multiprocessing

        if "fork" not in multiprocessing.get_all_start_methods():
            return run_jq(expressions, doc)
        expressions = tuple(e for e in expressions if e not in self.timed_out)
        if not expressions:
            return doc
        done = self._run(expressions, doc)
        if done is not _LATE:
            return done
        for expression in expressions:  # which one: run them one by one
            one = self._run((expression,), doc)
            if one is _LATE:
                self.timed_out.append(expression)
            else:
                doc = one
        return doc

    def _run(self, expressions: tuple[str, ...], doc: Any) -> Any:
        if self._worker is None:
            context = multiprocessing_context()
            here, there = context.Pipe()
            lifeline = os.pipe()
            process = context.Process(target=_serve, args=(there, os.getpid(), lifeline), daemon=True)
            process.start()
            there.close()
            os.close(lifeline[0])
            self._worker = (process, here, lifeline[1])
        conn = self._worker[1]
        try:
            conn.send((expressions, doc))
            if conn.poll(self.limit * len(expressions)):
                return conn.recv()
        except (EOFError, OSError):  # the worker died (the OOM killer): taken as a program that ran too long
            pass
        self.close()
        return _LATE

    def close(self) -> None:
        if self._worker is not None:
            process, conn, lifeline = self._worker
            self._worker = None
            process.kill()
            process.join()
            conn.close()
            os.close(lifeline)


_LATE = object()


def multiprocessing_context() -> Any:
    import multiprocessing

    return multiprocessing.get_context("fork")
