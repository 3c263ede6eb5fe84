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


def with_pruned(read: Any, kept: Any, new: Any) -> Any:
    """``new`` (computed from ``kept``, what validation kept of the data ``read`` from a file) with the fields
    validation pruned put back where ``new`` still has their parent: a rewrite changes what the tool
    changed and nothing else, so a field this release does not know (``--validate warn|ignore``) or a null
    the server would drop stays in the file. Fields the expansion itself removed stay removed."""
    if kept is read:
        return new
    if isinstance(read, dict) and isinstance(new, dict):
        kept_map = kept if isinstance(kept, dict) else {}
        out = new
        for key, value in read.items():
            if key not in kept_map:
                restored = new.get(key, value)
            elif key in new:
                restored = with_pruned(value, kept_map[key], new[key])
            else:
                continue
            if key not in new or restored is not new[key]:
                if out is new:
                    out = dict(new)
                out[key] = restored
        return out
    if (isinstance(read, list) and isinstance(kept, list) and isinstance(new, list)
            and len(read) == len(kept) == len(new)):
        items = [with_pruned(r, k, n) for r, k, n in zip(read, kept, new, strict=True)]
        return new if all(a is b for a, b in zip(items, new, strict=True)) else items
    return new
