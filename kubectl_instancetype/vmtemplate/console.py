"""The OpenShift console's annotations of a template, kept true after its VirtualMachine is rewritten
(``suggest`` on a common-templates Template moves sizes into an instancetype).

``template.kubevirt.io/editable`` lists, one per line, the fields the console lets a user edit
(``/objects[0].spec.template.spec.domain.cpu.sockets``); the VM's ``vm.kubevirt.io/validations`` is a JSON list
of rules, each on a ``path`` of the VMI (``jsonpath::.spec.domain.memory.guest``). A field the rewrite removed
leaves the console pointing at nothing: its line, or its rule, goes with it.
"""

from __future__ import annotations

import json
import re
from typing import Any

EDITABLE = "template.kubevirt.io/editable"
VALIDATIONS = "vm.kubevirt.io/validations"
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    return [int(index) if index else name for name, index in _STEP.findall(path)]


def _exists(data: Any, steps: list[str | int]) -> bool:
    for step in steps:
        found = (isinstance(step, int) and isinstance(data, list) and step < len(data)) or \
            (isinstance(step, str) and isinstance(data, dict) and step in data)
        if not found:
            return False
        data = data[step]
    return True


def consistent(template: dict[str, Any], vm_path: tuple[str | int, ...]) -> dict[str, Any]:
    """``template`` (rewritten at ``vm_path``) with the editable lines and validation rules whose field is gone
    left out (the same object when nothing changes)."""
    meta = template.get("metadata")
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    editable = annotations.get(EDITABLE) if isinstance(annotations, dict) else None
    out = template
    if isinstance(editable, str):
        lines = editable.splitlines()
        kept = [line for line in lines if not line.strip() or _exists(template, _steps(line.strip().lstrip("/")))]
        if kept != lines:
            text = "\n".join(kept) + ("\n" if editable.endswith("\n") else "") if any(s.strip() for s in kept) else ""
            out = _with_annotation(out, ("metadata",), EDITABLE, text)
    vm: Any = template
    for step in vm_path:
        vm = vm[step] if _exists(vm, [step]) else None
    vm_meta = vm.get("metadata") if isinstance(vm, dict) else None
    rules_text = vm_meta.get("annotations", {}).get(VALIDATIONS) if isinstance(vm_meta, dict) and isinstance(
        vm_meta.get("annotations"), dict) else None
    if isinstance(rules_text, str):
        try:
            rules = json.loads(rules_text)
        except ValueError:
            return out
        vmi = vm.get("spec", {}).get("template") if isinstance(vm.get("spec"), dict) else None
        if isinstance(rules, list) and isinstance(vmi, dict):
            kept_rules = [r for r in rules if not (isinstance(r, dict) and isinstance(r.get("path"), str)
                                                   and r["path"].startswith("jsonpath::.")
                                                   and not _exists(vmi, _steps(r["path"][len("jsonpath::."):])))]
            if len(kept_rules) != len(rules):
                text = json.dumps(kept_rules, indent=2) + "\n" if kept_rules else ""
                out = _with_annotation(out, (*vm_path, "metadata"), VALIDATIONS, text)
    return out


def _with_annotation(data: dict[str, Any], meta_path: tuple[str | int, ...], key: str, value: str) -> dict[str, Any]:
    """A copy of ``data`` with the annotation at ``meta_path`` set (removed when ``value`` is empty)."""
    import copy

    out = copy.deepcopy(data)
    meta: Any = out
    for step in meta_path:
        meta = meta[step]
    if value:
        meta["annotations"][key] = value
    else:
        del meta["annotations"][key]
        if not meta["annotations"]:
            del meta["annotations"]
    return out
