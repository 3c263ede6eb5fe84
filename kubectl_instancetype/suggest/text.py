"""The new text of a file whose VirtualMachines take their suggestions, kept as ``render --write`` keeps it.

Each rewritten VM replaces its object in its document (at the item's place in a ``kind: List``); the file
then goes through :func:`~kubectl_instancetype.gitops.plan.rewritten`: unchanged documents byte for byte,
changed ones through the round-trip editor with their comments, a JSON file as JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..api.golang import clone_json
from ..errors import InputError, Location, ToolError
from ..gitops.plan import rewritten
from ..gitops.stored import with_pruned
from ..yamlio import Document, load_stream
from .run import Outcome
from .tree import Path, get

Spec = dict[str, Any]
Places = dict[tuple[int, Path], Spec]  # (document index, place in the document) -> the rewritten VM


def file_texts(documents: Iterable[Document], found: Iterable[Outcome], accept_approximate: bool,
               broken: set[str]) -> tuple[dict[str, tuple[str, str]], list[ToolError]]:
    """Each file's (text, new text) by display name, in input order, and the files that cannot be rewritten.

    Files named in ``broken`` (input errors: their problems say why) are left out.
    """
    texts: dict[str, tuple[str, str]] = {}
    problems: list[ToolError] = []
    for source, text, places in _by_file(documents, found, accept_approximate):
        if source in broken:
            continue
        try:
            texts[source] = (text, suggested_text(text, source, places))
        except ToolError as exc:
            problems.append(exc)
    return texts, problems


def _by_file(documents: Iterable[Document], found: Iterable[Outcome],
             accept_approximate: bool) -> Iterator[tuple[str, str, Places]]:
    """Each file's text and the VMs rewritten in it."""
    changed: dict[str, Places] = {}
    for outcome in found:
        vm = outcome.suggestion.vm if outcome.suggestion else None
        if vm is not None and outcome.rewritten(accept_approximate):
            doc = outcome.document
            # what validation pruned (unknown fields, nulls) stays in the file
            if doc.prefix:  # a template's VM (..vmtemplate.standin): its placeholders come back
                from ..vmtemplate.standin import restored, with_standins

                vm = restored(with_pruned(with_standins(doc.as_read), doc.data, vm))
                changed.setdefault(doc.source, {})[(doc.index, doc.prefix)] = vm
                continue
            changed.setdefault(doc.source, {})[(doc.index, doc.prefix)] = with_pruned(doc.as_read, doc.data, vm)
    seen: set[str] = set()
    for doc in documents:
        if doc.source not in seen:
            seen.add(doc.source)
            yield doc.source, doc.stream_text, changed.get(doc.source, {})


def suggested_text(text: str, source: str, vms: Mapping[tuple[int, Path], Spec]) -> str:
    """``text`` with the object at (document index, path in the document) replaced by ``vms[...]``."""
    if not vms:
        return text
    docs = load_stream(text, source)
    new: dict[int, Any] = {}
    for doc in docs:
        for (index, path), vm in vms.items():
            if index == doc.index:
                new[index] = _replaced(new.get(index, doc.data), path, vm, source)
                if path and isinstance(new[index], dict):  # a template's VM: its console annotations follow
                    from ..vmtemplate.console import consistent

                    new[index] = consistent(new[index], path)
    return rewritten(text, new, source, docs)


def _replaced(data: Any, path: Path, value: Spec, source: str) -> Any:
    """A copy of ``data`` holding ``value`` at ``path``."""
    if not path:
        return clone_json(value)
    out = clone_json(data)
    parent = get(out, path[:-1])
    if not isinstance(parent, dict | list):
        raise InputError("file changed while suggestions were being made", Location(source))
    parent[path[-1]] = clone_json(value)  # type: ignore[index]
    return out
