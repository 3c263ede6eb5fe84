"""Values KubeVirt computes when it starts a VM, committed to the repository: ``cpu.maxSockets``,
``memory.maxGuest`` (pkg/defaults ``setupHotplug``) and ``cpu.model`` (``setDefaultCPUModel``).

virt-controller's restart check (``syncRestartRequired``, pkg/virt-controller/watch/vm/vm.go) compares the
template the VM was started from with the current one; none of these three is live-updatable. Adding one to
a running VM — typically copied from the VMI, where KubeVirt wrote it — flags ``RestartRequired`` although the
guest would not change (kubevirt#17610; the open kubevirt#19036 would ignore ``maxGuest`` and ``cpu.model``
equal to the VMI's, not ``maxSockets``). Committed, ``maxSockets`` and ``maxGuest`` also freeze the hot-plug
headroom: a later resize beyond them is refused or needs a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FIELDS: tuple[tuple[str, ...], ...] = (
    ("domain", "cpu", "maxSockets"),
    ("domain", "memory", "maxGuest"),
    ("domain", "cpu", "model"),
)
TEMPLATE = ("spec", "template", "spec")


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        data = data.get(key) if isinstance(data, Mapping) else None
    return data


def committed(vm: Mapping[str, Any]) -> list[tuple[tuple[str, ...], Any]]:
    """The start-time values ``vm``'s template commits, with their paths in the VM."""
    return [((*TEMPLATE, *f), value) for f in FIELDS if (value := _at(vm, (*TEMPLATE, *f))) is not None]


def message(path: tuple[str, ...], value: Any) -> str:
    """The warning for one committed value."""
    field = ".".join(path)
    return (f"{field}: {value} is a value KubeVirt computes when the VM starts; added to a running VM it flags "
            "RestartRequired ('a non-live-updatable field was changed in the template spec') although the guest does "
            "not change (kubevirt#17610), and committed it freezes the hot-plug headroom; leave it out unless "
            "you mean to pin it")


def permanent_restart_fields(head: Mapping[str, Any], base: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Warnings for the start-time values HEAD's VM adds or changes (all of them for a VM new in HEAD)."""
    before = dict(committed(base)) if base is not None else {}
    return tuple(message(path, value) for path, value in committed(head)
                 if base is None or before.get(path) != value)
