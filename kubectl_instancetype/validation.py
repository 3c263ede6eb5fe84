"""Input documents through kubectl and the API server's create path, before anything else reads them.

Every document of a KubeVirt group is put through :func:`kubectl_instancetype.schema.server.admit` under the
``--validate`` mode: a refused document becomes located problems (the API server's and kubectl's wording,
exit status 1, as a VM KubeVirt refuses) and is not used further; an admitted one continues as the server
would keep it (unknown fields pruned, non-nullable nulls dropped); warnings (unknown fields under ``warn``,
deprecated versions, repeated YAML keys) are collected. Documents of other groups are only checked for what
the tool needs of them (a kind and a name).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import InputError, KubeVirtError, RefusedError, ToolError
from .records import dataclass, field, replace
from .schema.server import ADMISSION, NOT_VALIDATED, REFUSED, STRICT, WARN, Admission, Options, admit
from .yamlio import Document

MODE_ALIASES = {"strict": "strict", "true": "strict", "warn": "warn", "ignore": "ignore", "false": "ignore"}


@dataclass
class Checked:
    """The documents to use, and what checking them found."""

    documents: list[Document] = field(default_factory=list)
    problems: list[ToolError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def check_documents(docs: Iterable[Document], options: Options, checked: Checked | None = None) -> Checked:
    """Every document of ``docs`` (already flattened) checked; problems and warnings collected."""
    out = checked if checked is not None else Checked()
    for doc in docs:
        use = check_document(doc, options, out.problems, out.warnings)
        if use is not None:
            out.documents.append(use)
    return out


def check_document(doc: Document, options: Options, problems: list[ToolError], warnings: list[str]) -> Document | None:
    """``doc`` as the tool should read it, or None when it is refused (its problems added to ``problems``)."""
    warnings.extend(doc.warnings)
    if options.mode == STRICT and doc.data.get("kind") in options.as_stored:
        options = replace(options, mode=WARN)
    answer = admit(doc.data, options)
    if answer.warnings:
        label = _label(doc.data)
        warnings.extend(f"{doc.locate(w.path)}: {label}: {w.message}" for w in answer.warnings)
    if answer.verdict == REFUSED:
        problems.extend(_problems(doc, answer, options.namespace))
        return None
    if answer.verdict == NOT_VALIDATED:
        try:
            _needed(doc)
        except InputError as exc:
            problems.append(exc)
            return None
    return doc if answer.obj is doc.data else replace(doc, data=answer.obj, warnings=(),
                                                                          original=doc.as_read)


def _problems(doc: Document, answer: Admission, namespace: str) -> list[ToolError]:
    out: list[ToolError] = []
    for problem in answer.problems:
        where = doc.locate(_present(doc.data, problem.path))
        if answer.stage == ADMISSION and answer.denial is not None:
            # KubeVirt's mutating webhook, as kubectl prints its denial: 'Error from server (Invalid): error
            # when creating "<file>": admission webhook "<name>" denied the request: <KubeVirt's message>'
            causes = tuple((message, _present(doc.data, path)) for path, message in answer.denial.causes)
            # named as KubeVirt's other refusals are: with the namespace the API server set (the webhooks' kinds
            # are namespaced)
            label = _label(doc.data, namespace)
            error = KubeVirtError(f"{label}: {problem.message}", "mutate", causes=causes)
            out.append(error.with_location(where))
        else:
            out.append(RefusedError(problem.message, where))
    return out


def _present(data: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The longest prefix of ``path`` that exists in ``data``: a missing field is shown at its parent's key."""
    for i, step in enumerate(path):
        if isinstance(data, dict) and step in data:
            data = data[step]
            continue
        if isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
            continue
        return path[:i]
    return path


def _label(data: Any, default_namespace: str = "") -> str:
    if not isinstance(data, dict):
        return "document"
    meta = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else ""
    namespace = meta.get("namespace") if isinstance(meta.get("namespace"), str) else ""
    namespace = namespace or default_namespace
    return f"{data.get('kind')} {namespace + '/' if namespace else ''}{name}".rstrip()


def _needed(doc: Document) -> None:
    """What the tool needs of an object no CRD of KubeVirt describes: a name it can be found by."""
    meta = doc.data.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta.get("name"):
        raise InputError(f"{doc.data.get('kind')} has no metadata.name", doc.locate(("metadata",)))
