"""What ``suggest`` says about each VirtualMachine, as notes in the one message grammar.

One line per VM (``path:line:col: note: VirtualMachine ns/name: instancetype u1.medium, preference fedora:
exact``), then one line per remaining difference of its proof and per setting it keeps because the
expansion would put back another value, each at the field it is about when the VM has it.
"""

from __future__ import annotations

from ..errors import Notice
from .engine import APPROXIMATE, LEFT_ALONE, NOTHING, Suggestion
from .run import Outcome
from .tree import pointer, shown

NOT_WRITTEN = "not rewritten without --accept-approximate"


def _choice(suggestion: Suggestion) -> str:
    it, pref = suggestion.instancetype, suggestion.preference
    named = f"instancetype {it.describe()}" if it else "no instancetype"
    return f"{named}, {f'preference {pref.describe()}' if pref else 'no preference'}"


def headline(suggestion: Suggestion, accept_approximate: bool) -> str:
    """The VM's line, after its label."""
    if suggestion.verdict == LEFT_ALONE:
        return f"left alone: {suggestion.reason}"
    if suggestion.verdict == NOTHING:
        return f"{NOTHING}: {suggestion.reason}"
    count = len(suggestion.differences)
    if suggestion.verdict == APPROXIMATE:
        written = "" if accept_approximate else f"; {NOT_WRITTEN}"
        return f"{_choice(suggestion)}: {APPROXIMATE}, {count} difference{'s' if count != 1 else ''}{written}"
    added = ", ".join(_annotations(suggestion))
    extra = f" (adds the template annotations {added})" if added else ""
    return f"{_choice(suggestion)}: {suggestion.verdict}{extra}"


def _annotations(suggestion: Suggestion) -> list[str]:
    """``key: value`` of each template annotation the objects add (a whole map, or one key, per difference)."""
    out: list[str] = []
    for difference in suggestion.annotated:
        added = difference.after if len(difference.path) == 4 else {difference.path[4]: difference.after}
        out.extend(f"{key}: {shown(value)}" for key, value in added.items())
    return out


def notices(outcome: Outcome, accept_approximate: bool = False) -> list[Notice]:
    """The notes for one VM (none when it could not be processed: its problem says why)."""
    found, doc = outcome.suggestion, outcome.document
    if found is None:
        return []
    out = [Notice(f"{found.label}: {headline(found, accept_approximate)}", doc.location, "note")]
    if found.closest is not None:
        said = "; ".join(d.sentence() for d in found.shortfall)
        message = f"{found.label}: the closest instancetype, {found.closest.describe()}, would shrink it: {said}"
        out.append(Notice(message, doc.location, "note"))
    for difference in found.differences:
        out.append(Notice(f"{found.label}: differs at {difference.sentence()}", doc.locate(difference.path), "note"))
    for kept in found.kept:
        message = (f"{found.label}: keeps {pointer(kept.path)}: {shown(kept.value)} "
                   f"(the expansion would set {shown(kept.instead)})")
        out.append(Notice(message, doc.locate(kept.path), "note"))
    return out
