"""The JSON outputs' contract: the version every machine-readable output carries, and its JSON Schemas.

Each JSON document the commands print for tools (not the Kubernetes objects ``render -o json`` prints: those
are KubeVirt's) starts with ``apiVersion`` :data:`API_VERSION` and a ``kind`` naming its shape; the schema of
each kind ships beside this module (``kubectl instancetype schema KIND`` prints it). The promise the version
makes is in the README ("JSON outputs: versions and schemas"): fields are only added within a version.
"""

from __future__ import annotations

from typing import Any

from ..packagedata import json_beside

API_VERSION = "kubectl-instancetype.io/v1"

# Each kind, the file of its schema, and what prints it.
KINDS: dict[str, tuple[str, str]] = {
    "Diff": ("diff.json", "diff -o json"),
    "RestartImpact": ("restart-impact.json", "diff --restart-impact -o json"),
    "Report": ("report.json", "--output-format json (every command), validate -o json"),
    "SuggestionList": ("suggestion-list.json", "suggest -o json"),
    "DriftList": ("drift-list.json", "drift -o json"),
    "Explanation": ("explanation.json", "render --explain -o json (each item of the List for several)"),
    "CapacityReport": ("capacity-report.json", "capacity -o json"),
}


def header(kind: str) -> dict[str, str]:
    """The first keys of a JSON output of ``kind``: its version and kind."""
    return {"apiVersion": API_VERSION, "kind": kind}


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``kind``; KeyError for a kind not in :data:`KINDS`."""
    loaded: dict[str, Any] = json_beside(__spec__, __file__, KINDS[kind][0])
    return loaded
