"""Planning ``render --write`` and ``--output-dir``: the new text of each input file, nothing written.

A file's documents are loaded again from the text that will be rewritten and paired, in order, with the
rendered items of that file (``kind: List`` items one by one, as :func:`~kubectl_instancetype.inputs.lists.flatten`
yields them). Each VirtualMachine that rendered is replaced by its :func:`.stored.stored_form`; everything
else, including VMs that failed, keeps its data, so :func:`~kubectl_instancetype.yamlio.roundtrip.rewrite`
copies it byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..api.lists import is_list
from ..errors import InputError, Location
from ..records import dataclass
from ..render import Item
from ..yamlio.load import Document, load_stream
from ..yamlio.roundtrip import rewrite
from ..yamlio.values import same
from . import jsonfile
from .stored import stored_form, with_pruned


@dataclass(frozen=True)
class FileChange:
    """One file to produce: where it comes from, where it goes, what is there now and what it should hold."""

    source: str
    target: str
    before: str | None  # the target's current text; None when it does not exist
    after: str | None  # the new text; None when only the verdict was asked (see :func:`would_change`)
    verdict: bool | None = None  # whether it changes, when the texts were not computed

    @property
    def changed(self) -> bool:
        return self.verdict if self.verdict is not None else self.before != self.after


def _rebuilt(data: Any, items: Iterator[Item], where: Location) -> Any:
    """``data`` with each flattened object replaced by the stored form of its item (one Python frame per List)."""
    if is_list(data):
        return {k: ([_rebuilt(x, items, where) for x in v or []] if k == "items" else v) for k, v in data.items()}
    item = next(items, None)
    if item is None or not same(item.document.as_read, data):
        raise InputError("file changed while it was being rendered", where)
    if not item.is_vm or item.rendered is None:
        return data
    return _stored(item)


def _stored(item: Item) -> Any:
    """What ``--write`` stores for a rendered VM: its expansion, with what validation pruned kept."""
    read = item.document.as_read
    return with_pruned(read, item.document.data, stored_form(read, item.rendered))


def new_documents(text: str, source: str, items: Iterable[Item], docs: list[Document] | None = None
                  ) -> dict[int, Any]:
    """Document index -> the data ``--write`` stores there, for every document of ``text`` (``docs``)."""
    by_index: dict[int, list[Item]] = {}
    for item in items:
        by_index.setdefault(item.document.index, []).append(item)
    out: dict[int, Any] = {}
    for doc in load_stream(text, source) if docs is None else docs:
        if doc.index in by_index:
            out[doc.index] = _rebuilt(doc.data, iter(by_index[doc.index]), doc.location)
    return out


def rendered_text(text: str, source: str, items: Iterable[Item]) -> str:
    """``text`` with its VirtualMachines expanded, everything else kept byte for byte.

    A file that is one JSON value stays JSON (:mod:`.jsonfile`); YAML goes through the round-trip editor.
    """
    docs = load_stream(text, source)  # the items' own documents may be List items: the file is parsed again
    return rewritten(text, new_documents(text, source, items, docs), source, docs)


def rewritten(text: str, new: dict[int, Any], source: str, docs: list[Document] | None = None) -> str:
    """``text`` (whose documents are ``docs``, when already loaded) with document ``i`` holding ``new[i]``,
    everything else kept byte for byte: a file that is one JSON value stays JSON (:mod:`.jsonfile`); YAML goes
    through the round-trip editor."""
    old = jsonfile.parse(text)
    if old is not None and set(new) == {0}:
        return text if same(old, new[0]) else jsonfile.dump_like(text, old, new[0], source)
    return rewrite(text, new, source, docs)


def writable_change(items: list[Item], source: str) -> bool:
    """:func:`would_change`, and when the file would change, its new text made (and dropped): ``--check``
    says what ``--write`` does, an InputError where ``--write`` could not rewrite the file."""
    if not would_change(items):
        return False
    rendered_text(items[0].document.stream_text, source, items)
    return True


def would_change(items: Iterable[Item]) -> bool:
    """Whether :func:`rendered_text` would change the file these items were rendered from.

    The round-trip editor copies a document byte for byte exactly when its new data equals its old data,
    so comparing each VM with what ``--write`` stores gives the same verdict without reading or
    rewriting any text (``--check``).
    """
    return any(
        item.is_vm and item.rendered is not None
        and not same(item.document.as_read, _stored(item))
        for item in items
    )

