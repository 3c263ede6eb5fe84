"""Work spread over forked processes, results in input order (``--jobs``).

The work is set up in this process and inherited by the workers through ``fork`` (never pickled); each
task is a (start, stop) span of it and sends back a list of small results. Where ``fork`` is not available
(or one process is asked for), the tasks run here, one after another: the results are the same.
"""

from __future__ import annotations

import os
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


def _run(span: tuple[int, int]) -> list[Any]:
    return _TASK[-1](span)


def ordered_map(task: Callable[[tuple[int, int]], list[R]], work: list[tuple[int, int]], jobs: int) -> Iterator[R]:
    """The results of ``task`` on each span of ``work``, in order, computed in ``jobs`` forked processes."""
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
        with multiprocessing.get_context("fork").Pool(min(jobs, len(work))) as pool:
            for results in pool.imap(_run, work):
                yield from results
    finally:
        gc.unfreeze()
        _TASK.pop()
