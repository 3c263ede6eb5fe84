"""``--jobs N``: rendering a big tree in N processes, the way kubeconform's ``-n`` does it.

The documents are read and checked first, all of them (the catalog and the cluster configuration need all
of them: :mod:`..inputs.gather` reads and checks them in N processes too); then N processes (this one and
N - 1 forked workers) render runs of whole files each; a worker sends back, per document, only what is
printed and reported: the output text, the problem, the warnings and the VM's label, never the rendered
object. The results come back in input order, so the output, the report and the exit status are byte for
byte those of ``--jobs 1``.

By default a run uses every core when it has at least ``DEFAULT_FROM`` documents (below that, starting the
processes costs more than it saves), else one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import Notice, ToolError, files_in_error
from ..parallel import TASK_ITEMS, ordered_map, spans
from ..records import dataclass, replace
from ..render import Item, Options, VMRenderer, render_each, vm_label
from ..yamlio import Document

TASK_DOCS = TASK_ITEMS


@dataclass(frozen=True)
class Done:
    """What a worker sends back for one document: the text to print (None: nothing, it failed) and what the
    report needs (the problem, the warnings, the VM's label and file)."""

    text: str | None
    problem: ToolError | None
    warnings: tuple[Notice, ...]
    label: str | None  # a VM's label (None: no VM)
    source: str
    # --write/--check/--diff: on the last document of a file, the file's new text (or the InputError making
    # it met; with ``verdict_only``, whether it would change; None: the file is skipped)
    planned: Any = None


def tasks(documents: Sequence[Document], size: int | None = None) -> list[tuple[int, int]]:
    """``documents`` cut into (start, stop) runs of whole files of about ``size`` (:data:`TASK_DOCS`) each."""
    return spans([doc.source for doc in documents], TASK_DOCS if size is None else size)


# What the processes render: set in this process before the fork, inherited (never pickled).
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
    """Each document rendered in ``jobs`` processes, in input order; ``text`` makes its printed text."""
    _WORK.update(documents=documents, catalog=catalog, options=options, renderer=renderer, namespace=namespace,
                 text=text)
    try:
        yield from ordered_map(_render_task, tasks(documents), jobs)
    finally:
        _WORK.clear()


def _write_task(span: tuple[int, int]) -> list[Done]:
    """The documents of ``span`` rendered, and the new text of each of their files made as :func:`..write.
    plan_changes` makes it, so that only text comes back."""
    from ..errors import EXIT_INPUT, InputError
    from ..gitops.plan import rendered_text, writable_change

    work = _WORK
    items = list(render_each(work["documents"][span[0]:span[1]], work["catalog"], work["options"],
                             work["renderer"]))
    out: list[Done] = []
    start = 0
    for i, item in enumerate(items):
        label = vm_label(item.document.data, work["namespace"]) if item.is_vm else None
        out.append(Done(None, item.problem, tuple(item.warnings), label, item.document.source))
        if i + 1 < len(items) and items[i + 1].document.source == item.document.source:
            continue
        of_file, start = items[start:i + 1], i + 1
        if item.document.source in work["broken"] or any(
                one.problem is not None and one.problem.exit_code == EXIT_INPUT for one in of_file):
            continue
        try:
            if work["verdict_only"]:
                planned: Any = writable_change(of_file, item.document.source)
            else:
                planned = rendered_text(of_file[0].document.stream_text, item.document.source, of_file)
        except InputError as exc:
            planned = exc
        out[-1] = replace(out[-1], planned=planned)
    return out


def write_parallel(documents: Sequence[Document], catalog: Any, options: Options, renderer: VMRenderer | None,
                   namespace: str, problems: list[ToolError], verdict_only: bool, jobs: int,
                   planned: dict[str, Any]) -> Iterator[Item]:
    """Each document rendered in ``jobs`` processes, in input order, as an item holding the input
    document and what the report needs (not the rendered object); each file's new text (see
    :func:`_write_task`) goes into ``planned`` by file before the file's last item is handed out."""
    broken = files_in_error(problems)
    _WORK.update(documents=documents, catalog=catalog, options=options, renderer=renderer, namespace=namespace,
                 broken=broken, verdict_only=verdict_only)
    try:
        for doc, done in zip(documents, ordered_map(_write_task, tasks(documents), jobs), strict=True):
            if done.planned is not None:
                planned[done.source] = done.planned
            yield Item(doc, None, done.label is not None, done.problem, None, done.warnings)
    finally:
        _WORK.clear()
