"""``--jobs N``: rendering a big tree in N processes, the way kubeconform's ``-n`` does it.

The documents are read and checked once, in this process (the catalog and the cluster configuration need
all of them); then N forked workers render runs of whole files each and send back, per document, only what
is printed and reported: the output text, the problem, the warnings and the VM's label, never the rendered
object. The results come back in input order, so the output, the report and the exit status are byte for
byte those of ``--jobs 1``.

By default a run uses every core when it has at least :data:`DEFAULT_FROM` documents to render (below that,
starting the processes costs more than it saves), else one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import click

from ..errors import Notice, ToolError
from ..render import Item, Options, VMRenderer, render_each, vm_label
from ..yamlio import Document

DEFAULT_FROM = 1000  # documents from which the default is every core
TASK_DOCS = 100  # documents per task, in whole files: few enough round trips, small enough to balance


def jobs_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "-j", "--jobs", type=click.IntRange(min=0), default=0, show_default="0: every core for large inputs",
        help="Render in this many processes (results in input order, the output identical). 0: as many as "
             f"there are cores when there are {DEFAULT_FROM} documents or more, else 1.")(function)


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def how_many(jobs: int, documents: int) -> int:
    """The processes to use for ``documents`` when ``--jobs`` said ``jobs``."""
    if jobs:
        return jobs
    return cores() if documents >= DEFAULT_FROM else 1


@dataclass(frozen=True)
class Done:
    """What a worker sends back for one document: the text to print (None: nothing, it failed) and what the
    report needs (the problem, the warnings, the VM's label and file)."""

    text: str | None
    problem: ToolError | None
    warnings: tuple[Notice, ...]
    label: str | None  # a VM's label (None: no VM)
    source: str


def tasks(documents: Sequence[Document], size: int = TASK_DOCS) -> list[tuple[int, int]]:
    """``documents`` cut into (start, stop) runs of whole files of about ``size`` documents each."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(documents) + 1):
        if i == len(documents) or (i - start >= size and documents[i].source != documents[i - 1].source):
            out.append((start, i))
            start = i
    return out


# What the forked workers render: set in this process before the fork, inherited (never pickled).
_WORK: dict[str, Any] = {}


def _render_task(span: tuple[int, int]) -> list[Done]:
    work = _WORK
    docs = work["documents"][span[0]:span[1]]
    text: Callable[[Item], str] = work["text"]
    out = []
    for item in render_each(docs, work["catalog"], work["options"], work["renderer"]):
        label = vm_label(item.document.data, work["namespace"]) if item.is_vm else None
        out.append(Done(None if item.rendered is None else text(item), item.problem, tuple(item.warnings), label,
                        item.document.source))
    return out


def render_parallel(documents: Sequence[Document], catalog: Any, options: Options, renderer: VMRenderer | None,
                    namespace: str, text: Callable[[Item], str], jobs: int) -> Iterator[Done]:
    """Each document rendered in ``jobs`` forked processes, in input order; ``text`` makes its printed text."""
    import multiprocessing

    _WORK.update(documents=documents, catalog=catalog, options=options, renderer=renderer, namespace=namespace,
                 text=text)
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(jobs) as pool:
            for done in pool.imap(_render_task, tasks(documents)):
                yield from done
    finally:
        _WORK.clear()
