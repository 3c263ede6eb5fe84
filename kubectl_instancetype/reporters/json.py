"""The JSON report (``--output-format json``): by file, a ``metav1.Status`` per object, as kubectl-validate's
``--output json`` reports, after the report's ``apiVersion`` and ``kind`` (``Report``).

Each VirtualMachine checked is a ``Success`` or a ``Failure`` status (``reason`` ``Invalid``, code 422, for an
object the cluster refuses; ``BadRequest``, 400, for input that cannot be processed); a problem no single VM
owns (a file that does not parse, a catalog object refused) is a ``Failure`` of its own. ``details.causes``
holds each cause with KubeVirt's field path, its ``path:line:col`` and the notes beside it; warnings are
statuses with ``reason`` ``Warning``, as the API server answers them in a ``Warning`` header of a success.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import EXIT_FINDINGS, KubeVirtError, Location, Notice, ToolError
from ..schemas import header
from .status import Checked, RunResult


def status_report(result: RunResult) -> str:
    """The report of ``result``: a JSON object of file -> list of statuses, sorted by file."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    tied = {id(c.problem) for c in result.checked if c.problem is not None}
    for case in result.checked:
        by_file.setdefault(case.file, []).append(_status(case.name, case.problem))
    for problem in result.problems:
        if id(problem) not in tied:
            by_file.setdefault(problem.location.path if problem.location else "", []).append(_status("", problem))
    for notice in result.notices:
        if notice.severity == "warning":
            by_file.setdefault(notice.location.path if notice.location else "", []).append(_warning(notice))
    files = {_file_key(name): statuses for name, statuses in sorted(by_file.items())}
    return json.dumps({**header("Report"), **files}, indent=2, ensure_ascii=False) + "\n"


def _file_key(name: str) -> str:
    """A file's key: its name, or ``./name`` for a file named as the report's own keys (apiVersion, kind)."""
    return f"./{name}" if name in ("apiVersion", "kind") else name


def _status(name: str, problem: ToolError | None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "metadata": {}}
    details = _details(name)
    if problem is None:
        return {**out, "status": "Success", "message": "", "code": 200, **({"details": details} if details else {})}
    refused = problem.exit_code == EXIT_FINDINGS
    causes = [_cause("FieldValueInvalid", message, where, field) for message, where, field in _causes(problem)]
    causes.extend(_cause("FieldValueNotFound", n.message, n.location, "") for n in problem.notes)
    return {**out, "status": "Failure", "message": problem.message, "reason": "Invalid" if refused else "BadRequest",
            "details": {**details, "causes": causes}, "code": 422 if refused else 400}


def _causes(problem: ToolError) -> list[tuple[str, Location | None, str]]:
    """Each cause of ``problem``: its message, where it is, and the field it names (KubeVirt's path)."""
    if isinstance(problem, KubeVirtError) and problem.located_causes and len(problem.causes) == len(
            problem.located_causes):
        return [(message, where, _dotted(keys)) for (message, where), (_m, keys) in
                zip(problem.located_causes, problem.causes, strict=True)]
    field = _dotted(problem.field) if isinstance(problem, KubeVirtError) else ""
    return [(problem.message, problem.location, field)]


def _dotted(keys: tuple[str | int, ...]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")


def _cause(reason: str, message: str, where: Location | None, field: str) -> dict[str, Any]:
    out: dict[str, Any] = {"reason": reason, "message": message}
    if field:
        out["field"] = field
    if where is not None:
        out["location"] = {"path": where.path, "line": where.line, "column": where.col}
    return out


def _details(name: str) -> dict[str, Any]:
    """``kind`` and ``name`` (with the namespace, as the label spells it) of ``VirtualMachine ns/name``."""
    kind, _, ident = name.partition(" ")
    if not ident:
        return {}
    return {"kind": kind, "name": ident}


def _warning(notice: Notice) -> dict[str, Any]:
    cause: dict[str, Any] = {"reason": "Warning", "message": notice.message}
    if notice.location is not None:
        cause["location"] = {"path": notice.location.path, "line": notice.location.line,
                             "column": notice.location.col}
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "message": notice.message,
            "reason": "Warning", "details": {"causes": [cause]}, "code": 200}


__all__ = ["Checked", "status_report"]
