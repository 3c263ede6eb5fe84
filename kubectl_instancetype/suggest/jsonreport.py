"""``suggest -o json``: the suggestions as one JSON document, for scripts and CI, instead of the files.

One entry per VirtualMachine, in input order: where it is, the verdict, what it would name, whether the
file is rewritten, the proof's differences (a side that is absent has no ``before`` or ``after`` key), the
settings it keeps, and for a VM that could not be processed, the error instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..render import vm_label
from ..schemas import header
from .candidates import Candidate
from .preferences import Kept
from .run import Outcome
from .tree import MISSING, Difference, pointer

KIND = "SuggestionList"


def _candidate(candidate: Candidate | None) -> dict[str, str] | None:
    return None if candidate is None else {"kind": candidate.kind, "name": candidate.name}


def _difference(difference: Difference) -> dict[str, Any]:
    out: dict[str, Any] = {"path": difference.pointer}
    if difference.before is not MISSING:
        out["before"] = difference.before
    if difference.after is not MISSING:
        out["after"] = difference.after
    return out


def _kept(kept: Kept) -> dict[str, Any]:
    return {"path": pointer(kept.path), "value": kept.value, "instead": kept.instead}


def entry(outcome: Outcome, namespace: str, accept_approximate: bool) -> dict[str, Any]:
    """The JSON entry of one VM."""
    doc, found = outcome.document, outcome.suggestion
    where = doc.location
    head = {"file": where.path, "line": where.line, "column": where.col,
            "virtualMachine": vm_label(doc.data, namespace).partition(" ")[2]}
    if found is None:
        return head | {"error": outcome.problem.message if outcome.problem else ""}
    return head | {
        "verdict": found.verdict,
        "instancetype": _candidate(found.instancetype),
        "preference": _candidate(found.preference),
        "rewritten": outcome.rewritten(accept_approximate),
        "differences": [_difference(d) for d in found.differences],
        "addedAnnotations": [_difference(d) for d in found.annotated],
        "kept": [_kept(k) for k in found.kept],
        "reason": found.reason,
        "closestInstancetype": _candidate(found.closest),
        "shortfall": [_difference(d) for d in found.shortfall],
    }


def report(outcomes: Iterable[Outcome], namespace: str, accept_approximate: bool) -> dict[str, Any]:
    """Every VM's entry, as a ``SuggestionList``."""
    return {**header(KIND), "items": [entry(o, namespace, accept_approximate) for o in outcomes]}
