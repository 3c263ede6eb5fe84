"""Argo CD's jq patches under its time limit.

libjq keeps the interpreter while a program runs, and a program may never end (``def f: f; f``): Argo CD gives
each one a second (util/argo/normalizers/diff_normalizer.go, ``DefaultJQExecutionTimeout``) and skips the patch
that runs longer. Here the programs run in one forked process that this one ends when a rule's programs take
longer than a second each; they are then run one by one, the slow one is skipped the same way, remembered for a
warning, and not run again (Argo CD would wait out the second on every object). Where ``fork`` is not available
they run in this process, unbounded.
"""

from __future__ import annotations

from typing import Any

from ..gitops.ignore import run_jq

LIMIT = 1.0  # seconds: Argo CD's default (argocd-cmd-params-cm ignore.normalizer.jq.timeout)


def _serve(conn: Any) -> None:
    while True:
        try:
            expressions, doc = conn.recv()
        except EOFError:
            return
        conn.send(run_jq(expressions, doc))


class JqRunner:
    """:func:`..gitops.ignore.run_jq` in a worker process, each program bounded by ``limit`` seconds."""

    def __init__(self, limit: float = LIMIT) -> None:
        self.limit = limit
        self.timed_out: list[str] = []
        self._worker: tuple[Any, Any] | None = None

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
            process = context.Process(target=_serve, args=(there,), daemon=True)
            process.start()
            there.close()
            self._worker = (process, here)
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
            process, conn = self._worker
            self._worker = None
            process.kill()
            process.join()
            conn.close()


_LATE = object()


def multiprocessing_context() -> Any:
    import multiprocessing

    return multiprocessing.get_context("fork")
