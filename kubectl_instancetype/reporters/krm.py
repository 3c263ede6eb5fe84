"""The KRM reporter: a function's problems and warnings as ``results`` of the ResourceList it returns.

Each result has a severity, a resource reference, the field path in the item, and the file the item came
from when kustomize or kpt named it in their tracking annotations.
"""

from __future__ import annotations

from typing import Any

from ..errors import KubeVirtError, Notice
from ..krm import Envelope, Finding, Outcome

PATH_ANNOTATIONS = ("internal.config.kubernetes.io/path", "config.kubernetes.io/path")
INDEX_ANNOTATIONS = ("internal.config.kubernetes.io/index", "config.kubernetes.io/index")


def results(findings: list[Finding], items: list[Any], notices: tuple[Notice, ...] = ()) -> list[dict[str, Any]]:
    """``findings`` (severity error) and warnings as KRM ``results``: message, severity, resourceRef,
    field path and file."""
    out: list[dict[str, Any]] = []
    for finding in findings:
        item = items[finding.item] if finding.item is not None else None
        out.extend(_result(cause, item) for cause in _per_cause(finding))
        out.extend(_lookup_note(out[-1], message, keys) for message, keys in getattr(finding.error, "lookups", ()))
    out.extend({"message": _located(n), "severity": "warning"} for n in notices if n.severity == "warning")
    return out


def _per_cause(finding: Finding) -> list[Finding]:
    """``finding``, or one per cause of a KubeVirt refusal with several (each at its own field, as the webhook
    lists them and the other reports show them)."""
    error = finding.error
    if not isinstance(error, KubeVirtError) or len(error.causes) < 2 \
            or len(error.located_causes) != len(error.causes):
        return [finding]
    causes = error.causes
    out: list[Finding] = []
    for (message, where), (_, keys) in zip(error.located_causes, causes, strict=True):
        one = KubeVirtError(message, error.stage, error.paths, keys or error.field)
        out.append(Finding(one.with_location(where), finding.item, keys or finding.path))
    return out


def _lookup_note(result: dict[str, Any], message: str, keys: tuple[str | int, ...]) -> dict[str, Any]:
    """An ``info`` result beside a refusal: an instancetype or preference KubeVirt did not find (it went on
    without it), on the same resource, at the matcher's field."""
    note: dict[str, Any] = {"message": message, "severity": "info"}
    note.update({k: result[k] for k in ("resourceRef", "file") if k in result})
    if keys:
        note["field"] = {"path": ".".join(str(k) for k in keys)}
    return note


def _located(notice: Notice) -> str:
    return f"{notice.location}: {notice.message}" if notice.location else notice.message


def _result(finding: Finding, item: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"message": finding.error.message, "severity": "error"}
    if not isinstance(item, dict):
        return out
    meta = _mapping(item.get("metadata"))
    ref = {"apiVersion": item.get("apiVersion"), "kind": item.get("kind"), "name": meta.get("name"),
           "namespace": meta.get("namespace")}
    out["resourceRef"] = {k: v for k, v in ref.items() if isinstance(v, str) and v}
    if finding.path:
        out["field"] = {"path": ".".join(str(p) for p in finding.path)}
    annotations = _mapping(meta.get("annotations"))
    path = next((annotations[a] for a in PATH_ANNOTATIONS if a in annotations), None)
    if isinstance(path, str):
        index = str(next((annotations[a] for a in INDEX_ANNOTATIONS if a in annotations), ""))
        out["file"] = {"path": path, **({"index": int(index)} if index.isdigit() else {})}
    return out


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def output(envelope: Envelope, outcome: Outcome) -> list[Any]:
    """The documents to write: the ResourceList with its items and results, or the items of a stream."""
    if envelope.resource_list is None:
        return outcome.items
    earlier = envelope.resource_list.get("results")
    new = (earlier if isinstance(earlier, list) else []) + results(outcome.findings, outcome.items, outcome.notices)
    rl = {**envelope.resource_list, "items": outcome.items}
    if new:
        rl["results"] = new
    return [rl]
