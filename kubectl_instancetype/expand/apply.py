"""Applying an instance type and a preference to a VMI spec (pkg/instancetype/apply/vmi.go).

The instance type appliers run first and all of them run; if any reported a conflict the preference
is not applied. Callers pass their own copies of ``spec`` and ``meta``: they are edited in place, and the
appliers record the origin of every value they set in ``trace`` (which names the instancetype and preference).
"""

from __future__ import annotations

from typing import Any

from ..api.origin import NO_TRACE, Trace
from . import instancetype, preference

Spec = dict[str, Any]


def apply_spec(base: str, it: Spec | None, pref: Spec | None, spec: Spec, meta: Spec,
               trace: Trace = NO_TRACE) -> list[str]:
    """Apply ``it`` then ``pref`` to ``spec``/``meta``; the conflict paths, in KubeVirt's order."""
    if it is not None:
        conflicts = [path for applier in instancetype.APPLIERS
                     for path in applier(base, it, pref, spec, meta, trace)]
        if conflicts:
            return conflicts
    if pref is not None:
        for applier in preference.APPLIERS:
            applier(pref, spec, meta, trace)
    return []

