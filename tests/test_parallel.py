"""The forked workers of ``--jobs`` (:mod:`kubectl_instancetype.parallel`): results in order whatever the speed of
each task, a failed task raised here with where it failed, and no worker left running or unreaped."""

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


def test_results_in_order_from_every_worker() -> None:
    got = list(parallel.ordered_map(_slow_evens, _spans(40), 3))
    assert [index for index, _ in got] == list(range(40))
    assert len({pid for _, pid in got} - {os.getpid()}) == 3  # all of them worked, none of it here
    assert multiprocessing.active_children() == []


def _fails_at_7(span: tuple[int, int]) -> list[int]:
    if span[0] == 7:
        raise ValueError("task 7")
    return [span[0]]


def test_a_failed_task_is_raised_here_with_its_worker_traceback() -> None:
    with pytest.raises(ValueError, match="task 7") as raised:
        list(parallel.ordered_map(_fails_at_7, _spans(20), 2))
    assert isinstance(raised.value.__cause__, parallel.WorkerTraceback)
    assert "_fails_at_7" in str(raised.value.__cause__)
    assert multiprocessing.active_children() == []


def _dies_at_3(span: tuple[int, int]) -> list[int]:
    if span[0] == 3:
        os._exit(9)
    return [span[0]]


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="a --jobs worker ended unexpectedly"):
        list(parallel.ordered_map(_dies_at_3, _spans(20), 2))
    assert multiprocessing.active_children() == []


def test_stopping_early_ends_the_workers() -> None:
    results = parallel.ordered_map(_slow_evens, _spans(40), 2)
    assert next(results)[0] == 0
    results.close()
    assert multiprocessing.active_children() == []


def _interrupts_the_parent(span: tuple[int, int]) -> list[int]:
    if span[0] == 5:
        os.kill(os.getppid(), signal.SIGINT)  # as Ctrl-C does: the workers themselves leave it to the parent
    time.sleep(0.01)
    return [span[0]]


def test_ctrl_c_ends_the_workers() -> None:
    with pytest.raises(KeyboardInterrupt):
        list(parallel.ordered_map(_interrupts_the_parent, _spans(200), 2))
    assert multiprocessing.active_children() == []


def test_one_job_runs_here() -> None:
    assert [pid for _, pid in parallel.ordered_map(_slow_evens, _spans(4), 1)] == [os.getpid()] * 4
