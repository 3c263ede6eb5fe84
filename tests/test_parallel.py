"""The processes of ``--jobs`` (:mod:`kubectl_instancetype.parallel`: this one and forked workers): results in
order whatever the speed of each task, a failed task raised here with where it failed, and no worker left running
or unreaped."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from kubectl_instancetype import parallel

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")


def _spans(count: int) -> list[tuple[int, int]]:
    return [(i, i + 1) for i in range(count)]


def _slow_evens(span: tuple[int, int]) -> list[tuple[int, int]]:
    if span[0] % 2 == 0:
        time.sleep(0.01)
    return [(span[0], os.getpid())]


def test_results_in_order_from_every_process() -> None:
    got = list(parallel.ordered_map(_slow_evens, _spans(40), 3))
    assert [index for index, _ in got] == list(range(40))
    assert len({pid for _, pid in got}) == 3 and os.getpid() in {pid for _, pid in got}  # two workers and this one
    assert multiprocessing.active_children() == []


_HERE = os.getpid()


def _fails_in_a_worker(span: tuple[int, int]) -> list[int]:
    if span[0] >= 7 and os.getpid() != _HERE:
        raise ValueError(f"task {span[0]}")
    time.sleep(0.001)
    return [span[0]]


def test_a_failed_task_is_raised_here_with_its_worker_traceback() -> None:
    with pytest.raises(ValueError, match="task") as raised:
        list(parallel.ordered_map(_fails_in_a_worker, _spans(40), 2))
    assert isinstance(raised.value.__cause__, parallel.WorkerTraceback)
    assert "_fails_in_a_worker" in str(raised.value.__cause__)
    assert multiprocessing.active_children() == []


def _dies_in_a_worker(span: tuple[int, int]) -> list[int]:
    if span[0] >= 3 and os.getpid() != _HERE:
        os._exit(9)
    time.sleep(0.001)
    return [span[0]]


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="a --jobs worker ended unexpectedly"):
        list(parallel.ordered_map(_dies_in_a_worker, _spans(40), 2))
    assert multiprocessing.active_children() == []


def test_stopping_early_ends_the_workers() -> None:
    results = parallel.ordered_map(_slow_evens, _spans(40), 2)
    assert next(results)[0] == 0
    results.close()
    assert multiprocessing.active_children() == []


def _interrupts_the_parent(span: tuple[int, int]) -> list[int]:
    if span[0] >= 5 and os.getpid() != _HERE:
        os.kill(_HERE, signal.SIGINT)  # as Ctrl-C does: the workers themselves leave it to the parent
    time.sleep(0.01)
    return [span[0]]


def test_ctrl_c_ends_the_workers() -> None:
    with pytest.raises(KeyboardInterrupt):
        list(parallel.ordered_map(_interrupts_the_parent, _spans(200), 2))
    assert multiprocessing.active_children() == []


def test_a_task_that_fails_here_ends_the_workers() -> None:
    with pytest.raises(ZeroDivisionError):
        list(parallel.ordered_map(lambda span: [1 // (os.getpid() - _HERE)], _spans(40), 3))
    assert multiprocessing.active_children() == []


def test_one_job_runs_here() -> None:
    assert [pid for _, pid in parallel.ordered_map(_slow_evens, _spans(4), 1)] == [os.getpid()] * 4
