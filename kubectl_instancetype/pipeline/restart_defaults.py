"""Values KubeVirt computes when it starts a VM, committed to the VM's template: ``cpu.maxSockets`` and
``memory.maxGuest`` (pkg/defaults ``setupHotplug``) and ``cpu.model`` (``setDefaultCPUModel``).

None of them is live-updatable: virt-controller's restart check (``syncRestartRequired``,
pkg/virt-controller/watch/vm/vm.go) compares the template the VM started from with the current one, so adding
one to a running VM — typically copied from the VMI, where KubeVirt wrote it — flags ``RestartRequired``
although the guest would not change (kubevirt#17610; the open kubevirt#19036 would neutralise ``maxGuest``
and ``cpu.model`` equal to the VMI's, never ``maxSockets``). Committed, ``maxSockets`` and ``maxGuest`` also
freeze the hot-plug headroom the cluster would otherwise compute at each start. :func:`committed_defaults` finds
the ones a VM commits *with the value KubeVirt would have computed* (render and validate warn at the field);
:func:`added` finds the ones a change adds to a running VM (the pull-request comment warns).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.golang import clone_json
from ..config import ClusterConfig
from ..quantity import from_json
from ..vmi.arch import ARM64_CPU_MODEL, DEFAULT_CPU_MODEL
from ..vmi.hotplug import setup_hotplug

Path = tuple[str, ...]
TEMPLATE: Path = ("spec", "template", "spec")
MAX_SOCKETS: Path = ("domain", "cpu", "maxSockets")
MAX_GUEST: Path = ("domain", "memory", "maxGuest")
CPU_MODEL: Path = ("domain", "cpu", "model")
FIELDS = (MAX_SOCKETS, MAX_GUEST, CPU_MODEL)


def _at(data: Any, path: Path) -> Any:
    for key in path:
        # a dict is tested first: the Mapping ABC's isinstance is slow, and this runs for every VM rendered
        data = data.get(key) if data.__class__ is dict or isinstance(data, Mapping) else None
    return data


def message(path: Path, value: Any) -> str:
    """The warning for the start-time value ``value`` at ``path``: one wording for render, validate and diff
    (whether it equals KubeVirt's own does not change what the reader must do)."""
    field = ".".join((*TEMPLATE, *path))
    return (f"{field}: {value} is a value KubeVirt computes when the VM starts; committed, it is pinned, and adding "
            "or changing it on a running VM flags RestartRequired although the guest does not change "
            "(kubevirt#17610)")


def _computed(spec: Mapping[str, Any], cfg: ClusterConfig) -> dict[Path, Any]:
    """What KubeVirt would put at each field for this template (only the fields it computes here)."""
    arch = str(spec.get("architecture") or cfg.default_architecture)
    out: dict[Path, Any] = {CPU_MODEL: ARM64_CPU_MODEL if arch == "arm64" else cfg.cpu_model or DEFAULT_CPU_MODEL}
    bare = clone_json(dict(spec))
    bare["architecture"] = arch
    domain = bare.get("domain") if isinstance(bare.get("domain"), dict) else {}
    for key, path in (("cpu", MAX_SOCKETS), ("memory", MAX_GUEST)):
        section = domain.get(key)
        if isinstance(section, dict):
            section.pop(path[-1], None)
    cpu = domain.get("cpu")
    if isinstance(cpu, dict):
        for topology in ("sockets", "cores", "threads"):
            cpu.setdefault(topology, 1)
    try:
        setup_hotplug(bare, cfg)
    except (TypeError, ValueError):
        return out
    for path in (MAX_SOCKETS, MAX_GUEST):
        if _at(bare, path) is not None:
            out[path] = _at(bare, path)
    return out


def _same(a: Any, b: Any) -> bool:
    if a == b:
        return True
    try:
        return from_json(a).cmp(from_json(b)) == 0
    except (TypeError, ValueError, AttributeError):
        return False


def committed_defaults(vm: Mapping[str, Any], cfg: ClusterConfig) -> list[tuple[Path, str]]:
    """The start-time values ``vm`` commits equal to what KubeVirt computes: (path in the VM, warning)."""
    spec = _at(vm, TEMPLATE)
    mapping = spec.__class__ is dict or isinstance(spec, Mapping)
    committed = {path: _at(spec, path) for path in FIELDS} if mapping else {}
    committed = {path: value for path, value in committed.items() if value is not None}
    if not committed:  # most VMs: nothing to compute (the hot path of every render)
        return []
    computed = _computed(spec, cfg)
    return [((*TEMPLATE, *path), message(path, value)) for path, value in committed.items()
            if path in computed and _same(value, computed[path])]


def added(head: Mapping[str, Any], base: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Warnings for the start-time values HEAD's VM adds or changes against BASE's (all, for a new VM)."""
    out = []
    for path in FIELDS:
        value = _at(head, (*TEMPLATE, *path))
        if value is not None and (base is None or _at(base, (*TEMPLATE, *path)) != value):
            out.append(message(path, value))
    return tuple(out)
