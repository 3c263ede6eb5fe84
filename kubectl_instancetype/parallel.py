"""Work spread over forked processes, results in input order (``--jobs``).

The work is set up in this process and inherited by the workers through ``fork`` (never pickled); each
task is a (start, stop) span of it and sends back a list of small results. This process is one of the
``jobs``: it runs tasks too, whose results need no copy. Where ``fork`` is not available (or one process is
asked for), the tasks run here, one after another: the results are the same.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

R = TypeVar("R")

DEFAULT_FROM = 1000  # documents from which the default (``--jobs 0``) is every core
TASK_ITEMS = 100  # documents per task, in whole files: few enough round trips, small enough to balance


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def how_many(jobs: int, documents: int) -> int:
    """The processes to use for ``documents`` when ``--jobs`` said ``jobs`` (0: every core for large inputs)."""
    if jobs:
        return jobs
    return cores() if documents >= DEFAULT_FROM else 1


def spans(sources: Sequence[str], size: int) -> list[tuple[int, int]]:
    """Items from ``sources`` (the file of each) cut into (start, stop) runs of whole files of about ``size``."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(sources) + 1):
        if i == len(sources) or (i - start >= size and sources[i] != sources[i - 1]):
            out.append((start, i))
            start = i
    return out


_TASK: list[Callable[[tuple[int, int]], list[Any]]] = []  # the task of the running map, inherited by the workers
ENDED = "a --jobs worker ended unexpectedly"


class WorkerEnded(RuntimeError):
    """A worker ended before its work was done: killed by a signal (the kernel's out-of-memory killer, a CI
    runner's SIGTERM) or exiting of its own. The environment ended it, not a bug of the tool.

    ``exitcode`` is the process's (negative: the signal that ended it; None: unknown)."""

    def __init__(self, exitcode: int | None) -> None:
        super().__init__(f"{ENDED}{_how(exitcode)}")
        self.exitcode = exitcode


def _how(exitcode: int | None) -> str:
    """How a worker ended, in words: ``: killed by signal 9 (SIGKILL)``."""
    import signal

    if exitcode is None or exitcode == 0:
        return ""
    if exitcode < 0:
        try:
            name = f" ({signal.Signals(-exitcode).name})"
        except ValueError:
            name = ""
        return f": killed by signal {-exitcode}{name}"
    return f": it exited with status {exitcode}"
AHEAD = 2  # tasks handed to a worker at a time: it starts the next while its last result is being read


def ordered_map(task: Callable[[tuple[int, int]], list[R]], work: list[tuple[int, int]], jobs: int) -> Iterator[R]:
    """The results of ``task`` on each span of ``work``, in order, computed in ``jobs`` processes: this one and
    ``jobs - 1`` forked workers."""
    import multiprocessing

    if jobs <= 1 or len(work) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for span in work:
            yield from task(span)
        return
    import gc
    import sys

    for stream in (sys.stdout, sys.stderr):  # nothing buffered here that a worker's exit could write again
        if stream is not None:
            stream.flush()
    _TASK.append(task)
    gc.freeze()  # the workers' collector leaves what they inherit alone: no copy of its pages for that
    try:
        with _Workers(min(jobs, len(work)) - 1) as workers:  # this process is one of the ``jobs``
            yield from workers.map(work, task)
    finally:
        gc.unfreeze()
        _TASK.pop()


class _Workers:
    """Forked processes that each run the tasks they are handed, one after another, and send back the
    results through a pipe of their own.

    Not :class:`multiprocessing.pool.Pool`: its worker-handler thread polls the results' queue too, and spins
    while results wait there (a large part of a core while big results stream in, taken from the workers).
    """

    def __init__(self, count: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.processes: list[Any] = []
        self.pipes: list[Any] = []
        for _ in range(count):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there, [*self.pipes, here]), daemon=True)
            process.start()
            there.close()
            self.processes.append(process)
            self.pipes.append(here)

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        for pipe in self.pipes:  # a worker waiting for a task ends on this
            pipe.close()
        for process in self.processes:
            if kind is not None:  # interrupted, or a task failed: the others' work is not wanted
                process.terminate()
            process.join()

    def map(self, work: list[tuple[int, int]], task: Callable[[tuple[int, int]], list[Any]]) -> Iterator[Any]:
        """The results of the tasks of ``work`` in order; each worker is handed the next task as it sends one
        back, so that the faster takes more, and this process runs the next task itself while the result it
        is to hand out next is not back (its own results cost no copy)."""
        from multiprocessing.connection import wait

        handed: dict[Any, deque[int]] = {pipe: deque() for pipe in self.pipes}
        done: dict[int, list[Any]] = {}
        following = 0

        def ended(pipe: Any) -> WorkerEnded:
            """The error for the worker at the other end of ``pipe``, which is gone: how it ended."""
            process = self.processes[self.pipes.index(pipe)]
            process.join(1)  # it is gone or going: its status tells whether a signal ended it
            return WorkerEnded(process.exitcode)

        def hand(pipe: Any) -> None:
            nonlocal following
            if following < len(work):
                try:
                    pipe.send(work[following])
                except OSError:  # the worker is gone (its end closed, or reset)
                    raise ended(pipe) from None
                handed[pipe].append(following)
                following += 1

        def receive(timeout: float | None) -> None:
            ready: list[Any] = wait([p for p, tasks in handed.items() if tasks], timeout)
            for pipe in ready:
                try:
                    ok, result, trace = pipe.recv()
                except (EOFError, OSError):  # the worker is gone (its end closed, or reset)
                    raise ended(pipe) from None
                if not ok:
                    raise result from WorkerTraceback(trace)
                done[handed[pipe].popleft()] = result
                hand(pipe)

        for _ in range(AHEAD):
            for pipe in self.pipes:
                hand(pipe)
        for index in range(len(work)):
            receive(0)  # what is ready already
            while index not in done:
                if following < len(work):
                    following += 1
                    done[following - 1] = task(work[following - 1])
                    receive(0)
                else:
                    receive(None)
            yield from done.pop(index)


class WorkerTraceback(Exception):
    """Where a task failed in its worker: the cause of the exception raised here (its traceback's text)."""


def _serve(pipe: Any, inherited: list[Any]) -> None:
    """A worker: run each task it is handed until the pipe closes; Ctrl-C is left to the parent."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for other in inherited:  # the parent's ends of the pipes: it alone holds them, so that closing them ends this
        other.close()
    import queue
    import threading

    # Results are sent by a thread of their own: the worker goes on with its next task while the parent,
    # busy with a task of its own, has not read the last one yet.
    results: queue.SimpleQueue[tuple[bool, Any, str] | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send, args=(pipe, results), daemon=True)
    sender.start()
    try:
        while True:
            span = pipe.recv()
            try:
                results.put((True, _TASK[-1](span), ""))
            except Exception as exc:
                import traceback  # here: a worker whose tasks succeed does not pay for it

                results.put((False, exc, traceback.format_exc()))
    except (EOFError, OSError):  # the parent is done (or gone)
        pass
    results.put(None)
    sender.join()


def _send(pipe: Any, results: Any) -> None:
    while (result := results.get()) is not None:
        try:
            pipe.send(result)
        except OSError:  # the parent is gone
            return
        except Exception as exc:  # an exception that cannot be pickled
            import traceback

            pipe.send((False, RuntimeError(f"{type(exc).__name__}: {exc}"), traceback.format_exc()))
