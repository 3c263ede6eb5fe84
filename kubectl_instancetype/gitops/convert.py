"""``kubectl instancetype convert``: the new text of a file whose v1alpha1/v1alpha2 objects become v1beta1.

Each document is converted as :func:`~kubectl_instancetype.catalog.conversion.converted` says (instancetypes
and preferences as the API server served them, ControllerRevisions as virt-controller decoded them) and the
file is rewritten as ``render --write`` rewrites it: unchanged documents byte for byte, changed ones through
the round-trip editor, keeping comments, quoting and indentation; a JSON file stays JSON.
"""

from __future__ import annotations

from typing import Any

from ..catalog.conversion import converted
from ..yamlio import DEFAULT_LIMITS, Limits, load_stream
from .plan import rewritten


def converted_documents(text: str, source: str, limits: Limits = DEFAULT_LIMITS) -> dict[int, Any]:
    """Document index -> its converted data, for the documents of ``text`` that change."""
    out: dict[int, Any] = {}
    for doc in load_stream(text, source, limits):
        new = converted(doc.data)
        if new is not doc.data:
            out[doc.index] = new
    return out


def converted_text(text: str, source: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """``text`` with every old object converted; the same text when there is none."""
    new = converted_documents(text, source, limits)
    return rewritten(text, new, source) if new else text
