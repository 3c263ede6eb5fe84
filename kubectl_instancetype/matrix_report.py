"""The views of a :class:`~.matrix.Matrix`: a text grid (a row per instancetype, a column per preference), a
JSON document and a Markdown section for a pull-request comment. Every name and message comes from the
inputs: the Markdown puts each in a code span and the text escapes its control characters (:mod:`.escape`).
"""

from __future__ import annotations

import json
from typing import Any

from .escape import markdown as md
from .escape.terminal import one_line
from .matrix import Matrix

ADMITTED, REFUSED = "ok", "refused"


def _mark(matrix: Matrix, instancetype: str, preference: str) -> str:
    return ADMITTED if matrix.cell(instancetype, preference).admitted else REFUSED


def text(matrix: Matrix) -> list[str]:
    """The grid, then each refusal (one line each) and the preferences no instancetype satisfies."""
    its, prefs = matrix.instancetypes, matrix.preferences
    admitted = sum(c.admitted for c in matrix.cells)
    lines = [f"{matrix.template}: {len(its.names)} instancetypes × {len(prefs.names)} preferences "
             f"({_source(its)}; {_source(prefs)}): {admitted} admitted, {len(matrix.cells) - admitted} refused"]
    first = max([len("instancetype")] + [len(n) for n in its.names])
    widths = [max(len(p), len(REFUSED)) for p in prefs.names]
    lines.append("  " + " ".join(["instancetype".ljust(first), *(p.ljust(w) for p, w in zip(prefs.names, widths,
                                                                                         strict=True))]).rstrip())
    for i in its.names:
        marks = (_mark(matrix, i, p).ljust(w) for p, w in zip(prefs.names, widths, strict=True))
        lines.append("  " + " ".join([i.ljust(first), *marks]).rstrip())
    for i in its.names:
        for p in prefs.names:
            cell = matrix.cell(i, p)
            if not cell.admitted:
                lines.append(f"  {i} × {p}: {cell.refusal}")
    for p in matrix.uncovered():
        lines.append(f"  preference {p}: no instancetype of the matrix satisfies it")
    return [one_line(line) for line in lines]


def _source(axis: Any) -> str:
    parameter = f"${{{axis.parameter}}}" if axis.parameter else "fixed"
    return f"{parameter} from {axis.origin}" if axis.parameter else f"{axis.names[0]} (fixed)"


def as_json(matrices: list[Matrix]) -> str:
    """``{"templates": [{template, instancetypes, preferences, cells: [{instancetype, preference, admitted,
    refusal, stage}], uncoveredPreferences}]}``, indented."""
    out = []
    for m in matrices:
        cells = [{"instancetype": i, "preference": p, "admitted": m.cell(i, p).admitted,
                  "refusal": m.cell(i, p).refusal or None, "stage": m.cell(i, p).stage or None}
                 for i in m.instancetypes.names for p in m.preferences.names]
        out.append({"template": m.template,
                    "instancetypes": {"parameter": m.instancetypes.parameter or None, "kind": m.instancetypes.kind,
                                      "from": m.instancetypes.origin, "names": list(m.instancetypes.names)},
                    "preferences": {"parameter": m.preferences.parameter or None, "kind": m.preferences.kind,
                                    "from": m.preferences.origin, "names": list(m.preferences.names)},
                    "cells": cells, "uncoveredPreferences": m.uncovered()})
    return json.dumps({"templates": out}, indent=2, ensure_ascii=False) + "\n"


def markdown(matrices: list[Matrix]) -> str:
    """A PR-comment section: per template a table (✅ admitted, ❌ refused) and the refusals in a details block."""
    parts = ["### Instancetype × preference matrix", ""]
    for m in matrices:
        admitted = sum(c.admitted for c in m.cells)
        parts.append(f"**{md.code(m.template)}**: {admitted} of {len(m.cells)} combinations admitted")
        parts.append("")
        parts.append("| instancetype | " + " | ".join(md.code_cell(p) for p in m.preferences.names) + " |")
        parts.append("|---|" + "---|" * len(m.preferences.names))
        for i in m.instancetypes.names:
            marks = ("✅" if m.cell(i, p).admitted else "❌" for p in m.preferences.names)
            parts.append(f"| {md.code_cell(i)} | " + " | ".join(marks) + " |")
        parts.append("")
        for p in m.uncovered():
            parts.append(f"⚠️ preference {md.code(p)}: no instancetype of the matrix satisfies it")
        refused = [(i, p) for i in m.instancetypes.names for p in m.preferences.names if not m.cell(i, p).admitted]
        if refused:
            parts.append("")
            parts.append("<details><summary>Refusals (KubeVirt's messages)</summary>")
            parts.append("")
            parts.extend(f"- {md.code(i)} × {md.code(p)}: {md.code(m.cell(i, p).refusal)}" for i, p in refused)
            parts.append("")
            parts.append("</details>")
        parts.append("")
    return "\n".join(parts).rstrip("\n") + "\n"
