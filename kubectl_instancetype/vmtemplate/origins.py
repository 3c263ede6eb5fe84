"""Which template parameters a field of a processed VM came from, for the notes beside a refusal.

A processed VM is a document nested in its template's (``spec.virtualMachine`` or ``objects[0]``), so its
problems already point into the template file; when the value at fault was written as ``${X}`` (or lies under
a field that holds references), a note names each parameter, at its declaration.
"""

from __future__ import annotations

from typing import Any

from ..api.templatekinds import is_template
from ..errors import Notice
from ..yamlio.load import Document, load_stream
from .document import read_template
from .parameters import references_in
from .source import LoadedTemplate, parameter_location

ORIGINS = (("spec", "virtualMachine"), ("objects", 0))


def _names(value: Any) -> list[str]:
    found: set[str] = set()
    if isinstance(value, str):
        found |= references_in(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= references_in(key) if isinstance(key, str) else set()
            found.update(_names(item))
    elif isinstance(value, list):
        for item in value:
            found.update(_names(item))
    return sorted(found)


def parameter_notes(doc: Document, path: tuple[str | int, ...]) -> tuple[Notice, ...]:
    """Notes naming the parameters the value at ``path`` of ``doc``'s VM came from (none for a plain VM)."""
    if doc.prefix not in ORIGINS or not doc.text:
        return ()
    try:
        template_doc = next(d for d in load_stream(doc.text, doc.source) if d.index == doc.index)
    except Exception:  # the file is read again only for the note; without it there is no note
        return ()
    if not is_template(template_doc.data):
        return ()
    value: Any = template_doc.data
    for step in (*doc.prefix, *path):
        if (isinstance(value, dict) and step in value) or (
                isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)):
            value = value[step]
        else:
            break
    names = _names(value)
    if not names:
        return ()
    try:
        loaded = LoadedTemplate(template_doc, read_template(template_doc.data))
    except ValueError:
        return ()
    return tuple(Notice(f"the value comes from template parameter {name}", parameter_location(loaded, name), "note")
                 for name in names)


def parameter_paths(doc: Document) -> dict[tuple[str | int, ...], list[str]]:
    """For a template's processed VM (``doc``), each field of the VM written with parameter references (``${X}``)
    and the parameters in it, by path in the VM; none for a plain VM."""
    if doc.prefix not in ORIGINS or not doc.text:
        return {}
    try:
        template_doc = next(d for d in load_stream(doc.text, doc.source) if d.index == doc.index)
    except Exception:  # the file is read again only for the explanation; without it there is none
        return {}
    if not is_template(template_doc.data):
        return {}
    vm: Any = template_doc.data
    for step in doc.prefix:
        vm = vm.get(step) if isinstance(vm, dict) else vm[step] if isinstance(vm, list) and isinstance(step, int) \
            and 0 <= step < len(vm) else None
    out: dict[tuple[str | int, ...], list[str]] = {}
    _walk(vm, (), out)
    return out


def _walk(value: Any, path: tuple[str | int, ...], out: dict[tuple[str | int, ...], list[str]]) -> None:
    if isinstance(value, str):
        names = sorted(references_in(value))
        if names:
            out[path] = names
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, (*path, key), out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, (*path, i), out)
