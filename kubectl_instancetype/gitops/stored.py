"""The expansion of a VirtualMachine as it is stored in a file, rather than as ``render`` displays it.

``render`` fills in ``metadata.namespace`` from ``-n`` so that the printed object says where it goes. A file
rewritten in place, a mirrored output and a JSON patch must not: the namespace of a manifest without one is
chosen when it is applied (``kubectl apply -n``, a kustomize ``namespace:``), and writing ``default`` into it
would override that choice.
"""

from __future__ import annotations

from typing import Any


def _has_namespace(doc: Any) -> bool:
    meta = doc.get("metadata") if isinstance(doc, dict) else None
    return isinstance(meta, dict) and "namespace" in meta


def stored_form(original: Any, rendered: Any) -> Any:
    """``rendered`` without the ``metadata.namespace`` that ``original`` did not have (never mutated)."""
    if _has_namespace(original) or not _has_namespace(rendered):
        return rendered
    metadata = {k: v for k, v in rendered["metadata"].items() if k != "namespace"}
    return {k: (metadata if k == "metadata" else v) for k, v in rendered.items()}
