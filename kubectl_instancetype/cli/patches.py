"""``render -o patch``: per VirtualMachine, the RFC 6902 patch from the VM to its expansion, as kustomize
``patches:`` entries.

The output is a YAML list; each item is one entry of a kustomization's ``patches:`` (``target`` names the
VM, ``patch`` holds the operations as JSON, one per line), preceded by a comment naming the input. The
patch leads to the VM's stored form (:mod:`..gitops.stored`): like ``--write``, it does not add the
``metadata.namespace`` that ``-n`` fills in for display, so a kustomize ``namespace:`` still applies.
VMs that fail are left out (their errors are on stderr), and so are VMs with nothing to change. Each patch
is applied with ``jsonpatch`` before it is printed; one that would not give the expansion is refused.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..errors import ToolError
from ..gitops.stored import stored_form
from ..patch import PatchError, checked_patch
from ..render import Item, vm_label
from ..yamlio.emit import dump_yaml


def patch_text(ops: list[dict[str, Any]]) -> str:
    """The operations as a JSON array, one compact operation per line (valid JSON and YAML)."""
    if not ops:
        return "[]\n"
    lines = ",\n".join("  " + json.dumps(op, ensure_ascii=False, allow_nan=False) for op in ops)
    return f"[\n{lines}\n]\n"


def kustomize_entry(vm: dict[str, Any], ops: list[dict[str, Any]]) -> dict[str, Any]:
    """One kustomize ``patches:`` entry applying ``ops`` to ``vm`` (its namespace only when it names one)."""
    group, _, version = str(vm.get("apiVersion", "kubevirt.io/v1")).rpartition("/")
    meta = vm.get("metadata") or {}
    target = {"group": group, "version": version, "kind": vm.get("kind"), "name": meta.get("name")}
    if meta.get("namespace"):
        target["namespace"] = meta["namespace"]
    return {"target": target, "patch": patch_text(ops)}


def print_patches(items: list[Item], namespace: str) -> list[ToolError]:
    """Print the kustomize patch entries of every VM that rendered and changes (``[]`` when there are none);
    the problems of patches refused because they would not give the expansion."""
    out: list[str] = []
    problems: list[ToolError] = []
    for item in items:
        if not item.is_vm or item.rendered is None:
            continue
        vm = item.document.data
        try:
            ops = checked_patch(vm, stored_form(vm, item.rendered))
        except PatchError as exc:
            problems.append(PatchError(f"{vm_label(vm, namespace)}: {exc.message}; not printed")
                            .with_location(item.document.location))
            continue
        if ops:
            out.append(f"# {item.document.location}\n{dump_yaml([kustomize_entry(vm, ops)])}")
    sys.stdout.write("".join(out) if out else "[]\n")
    return problems
