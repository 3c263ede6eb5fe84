"""SARIF message text (``message.text``): plain text in which ``[text](target)`` is an embedded link (SARIF 2.1.0,
3.11.6), which code scanning shows as a link. A message that could hold one has its brackets escaped as the
standard says (``\\[``, ``\\]``), so that a value quoted in it links nowhere; other messages are left as they are.
JSON encoding does the rest."""

from __future__ import annotations

import re

_LINK = re.compile(r"\]\s*\(")


def text(value: str) -> str:
    """``value`` as a SARIF plain-text message: no embedded link."""
    if not _LINK.search(value):
        return value
    return value.replace("[", "\\[").replace("]", "\\]")
