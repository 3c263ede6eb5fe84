"""The per-VM model of ``kubectl instancetype diff``: each VirtualMachine at two revisions, and how it changed.

A VM is known by namespace and name, so a file that moves does not look like a removal and an addition. Its
state at a revision is its stored expansion (kubectl-style YAML, so the diff shows meaning, not layout) or
the error KubeVirt would give; whether its own document changed tells a VM edit from a catalog change. The
render's origins say, for each changed field, which instancetype, preference or default set it on each side.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..api.names import VIRTUAL_MACHINE
from ..api.origin import Origin, Path
from ..errors import ToolError
from ..records import dataclass, field, replace
from ..render import Item, shown_name, vm_label
from ..yamlio.emit import dump_yaml
from .fields import FieldChange, field_changes
from .node_resources import NodeResources
from .stored import stored_form
from .udiff import unified

_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True)
class VMState:
    """One VirtualMachine at one revision."""

    source: str
    instancetype: str
    preference: str
    vcpus: int | None
    memory: str | None
    text: str  # the stored expansion as YAML; "" when it failed
    error: str  # KubeVirt's message when it failed
    input_key: str  # the VM's own document, canonically: equal keys mean only the catalog can have moved it
    rendered: Any = None  # the stored expansion; None when it failed
    origins: Mapping[Path, Origin] = field(default_factory=dict)  # by path in ``rendered`` (rendered explained)
    drift: tuple[str, ...] = ()  # JSON pointers the cluster will write into the applied file (when asked)
    node: NodeResources | None = None  # its launcher Pod's requests and limits, when the Pod renders


@dataclass(frozen=True)
class VMChange:
    """One VirtualMachine compared between the base revision and the working tree."""

    namespace: str
    name: str
    before: VMState | None
    after: VMState | None
    status: str  # added, removed, changed, unchanged, failing, fixed
    cause: str  # "vm" (its document changed), "catalog" (only what it references did) or "kubevirt" (the
    # release: the upgrade preview); "" if unchanged
    diff: str
    fields: tuple[FieldChange, ...] = ()  # each changed value with its origins, when both sides rendered


def _matcher(spec: Any, key: str, origins: Mapping[Any, Any] | None = None) -> str:
    """The name the matcher ``key`` selects; for ``inferFromVolume``, the one the render inferred (from the
    origins of the values it set), else ``inferred from volume NAME``."""
    value = spec.get(key) if isinstance(spec, dict) else None
    if not isinstance(value, dict):
        return ""
    if value.get("name") or not value.get("inferFromVolume"):
        return str(value.get("name", ""))
    found = sorted({o.name for o in (origins or {}).values() if getattr(o, "source", "") == key})
    return ", ".join(found) if found else f"inferred from volume {value['inferFromVolume']}"


def _domain(rendered: Any) -> dict[str, Any]:
    for key in ("spec", "template", "spec", "domain"):
        rendered = rendered.get(key) if isinstance(rendered, dict) else None
    return rendered if isinstance(rendered, dict) else {}


def _vcpus(domain: dict[str, Any]) -> int | None:
    cpu = domain.get("cpu")
    if not isinstance(cpu, dict):
        return None
    count = 1
    for key in ("sockets", "cores", "threads"):
        value = cpu.get(key, 1)
        count *= value if isinstance(value, int) else 1
    return count


def _memory(domain: dict[str, Any]) -> str | None:
    guest = (domain.get("memory") or {}).get("guest")
    requests = ((domain.get("resources") or {}).get("requests") or {}).get("memory")
    value = guest if guest is not None else requests
    return None if value is None else str(value)


def vm_state(item: Item, error: str) -> VMState:
    """The state of the VM of ``item`` (``error``: the message it failed with, if it did)."""
    vm = item.document.data
    spec = vm.get("spec")
    rendered = stored_form(vm, item.rendered) if item.rendered is not None else None
    domain = _domain(rendered)
    return VMState(
        item.document.source, _matcher(spec, "instancetype", item.origins), _matcher(spec, "preference", item.origins),
        _vcpus(domain), _memory(domain), dump_yaml(rendered) if rendered is not None else "", error,
        json.dumps(vm, sort_keys=True, default=str), rendered, item.origins or {},
    )


def vm_states(items: Iterable[Item], problems: Iterable[ToolError], namespace: str,
              drift: Mapping[tuple[str, str], tuple[str, ...]] | None = None) -> dict[tuple[str, str], VMState]:
    """Every VM of a render by (namespace, name), with the errors of those that failed (and, given ``drift``,
    the fields the cluster will write into each)."""
    messages = [p.message for p in problems]
    out: dict[tuple[str, str], VMState] = {}
    for item in items:
        if not item.is_vm or item.document.data.get("kind") != VIRTUAL_MACHINE:
            continue  # VirtualMachinePools are rendered, not compared (yet)
        meta = item.document.data.get("metadata") or {}
        label = vm_label(item.document.data, namespace)
        error = next((m[len(label) + 2:] for m in messages if m.startswith(f"{label}: ")), "")
        key = (meta.get("namespace") or namespace, shown_name(meta))  # generateName only: matched by its prefix
        out[key] = vm_state(item, error)
        if drift and drift.get(key):
            out[key] = replace(out[key], drift=drift[key])
    return out


def _status(before: VMState | None, after: VMState | None) -> str:
    if before is None or after is None:
        return "added" if before is None else "removed"
    if after.error:
        return "failing"
    if before.error:
        return "fixed"
    return "unchanged" if before.text == after.text else "changed"


def natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers inside names by value: web-2 before web-10."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in _DIGITS.split(text) if part)


def compare(before: Mapping[tuple[str, str], VMState], after: Mapping[tuple[str, str], VMState],
            base: str) -> list[VMChange]:
    """Every VM of either side, sorted by namespace and name, numbers in them by value (web-2, web-10)."""
    out: list[VMChange] = []
    for key in sorted(set(before) | set(after), key=lambda k: (natural(k[0]), natural(k[1]))):
        old, new = before.get(key), after.get(key)
        status = _status(old, new)
        cause = "" if status == "unchanged" else "catalog" if old and new and old.input_key == new.input_key else "vm"
        diff = unified(old.text if old else None, new.text if new else None,
                       f"{base}:{old.source}" if old else "", new.source if new else "")
        fields = () if status != "changed" or old is None or new is None else tuple(
            field_changes(old.rendered, new.rendered, old.origins, new.origins))
        out.append(VMChange(key[0], key[1], old, new, status, cause, diff, fields))
    return out
