"""Applying an instance type and a preference to a VMI spec (pkg/instancetype/apply/vmi.go).

The instance type appliers run first and all of them run; if any reported a conflict the preference
is not applied. Callers pass their own copies of ``spec`` and ``meta``: they are edited in place.
"""

from __future__ import annotations

from typing import Any

from . import instancetype, preference

Spec = dict[str, Any]


def apply_spec(base: str, it: Spec | None, pref: Spec | None, spec: Spec, meta: Spec) -> list[str]:
    """Apply ``it`` then ``pref`` to ``spec``/``meta``; the conflict paths, in KubeVirt's order."""
    if it is not None:
        conflicts = [path for applier in instancetype.APPLIERS for path in applier(base, it, pref, spec, meta)]
        if conflicts:
            return conflicts
    if pref is not None:
        for applier in preference.APPLIERS:
            applier(pref, spec, meta)
    return []


def conflicts_message(paths: list[str]) -> str:
    """The combined message of expand and the REST endpoint (``Conflicts.Error()``)."""
    return f"VM field(s) {', '.join(paths)} conflicts with selected instance type"


def webhook_conflicts_message(paths: list[str]) -> str:
    """What the validating webhook answers: one cause per path, joined (first ten, then a count)."""
    causes = [f"VM field(s) {path} conflicts with selected instance type" for path in paths]
    text = ", ".join(causes[:10])
    if len(causes) > 10:
        text += f", and {len(causes) - 10} more validation errors"
    return text
