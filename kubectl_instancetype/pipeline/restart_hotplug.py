"""virt-controller's live-update handlers of a running VM, in its order (pkg/virt-controller/watch/vm/vm.go):
``handleCPUChangeRequest``, ``handleAffinityChangeRequest`` and ``handleTolerationsChangeRequest``,
``handleMemoryHotplugRequest`` (with pkg/liveupdate/memory), the declarative volume hot-plug, and what the
workload updater does with a pending hot-plug (pkg/virt-controller/watch/workload-updater).

Each handler compares the expanded template with the VMI, patches the VMI (a copy the caller owns) or answers the
``RestartRequired`` message; a message already there is kept (``UpdateCondition`` keeps it).
"""

from __future__ import annotations

from typing import Any

from ..admission import gates
from ..api.golang import clone_json
from ..config import ClusterConfig
from ..quantity import canonical, from_json
from ..vmi.hotplug import memory_hotplug_problem
from . import restart_check

Spec = dict[str, Any]
LIVE_MIGRATE, EVICT = "LiveMigrate", "Evict"
DECLARATIVE_HOTPLUG, HOTPLUG_VOLUMES = "DeclarativeHotplugVolumes", "HotplugVolumes"
SOCKETS_BEYOND = "CPU sockets updated in template spec to a value higher than what's available"
SOCKETS_DOWN = "Reduction of CPU socket count requires a restart"
ARM_CPU = "ARM doesn't support CPU hotplug"
MEMORY_NOT_MIGRATABLE = "memory updated in template spec. Memory-hotplug is only available for migratable VMs"
MEMORY_UNAVAILABLE = "memory updated in template spec. Memory-hotplug is not available for this VM configuration"
MEMORY_LOWER = "memory updated in template spec to a value lower than what the VM started with"
MEMORY_BEYOND = "memory updated in template spec to a value higher than what's available"
CPU_MESSAGES = (SOCKETS_BEYOND, SOCKETS_DOWN, ARM_CPU)


def declarative_volumes(cfg: ClusterConfig) -> bool:
    """``handleDeclarativeVolumeHotplug`` runs: DeclarativeHotplugVolumes on and the older HotplugVolumes off."""
    return gates.is_enabled(cfg, DECLARATIVE_HOTPLUG) and not gates.is_enabled(cfg, HOTPLUG_VOLUMES)


def cpu(current: Spec, vmi: Spec, message: str) -> tuple[str, tuple[str, str] | None]:
    """``handleCPUChangeRequest``."""
    want, have = (current.get("domain") or {}).get("cpu"), (vmi.get("domain") or {}).get("cpu")
    if not isinstance(want, dict) or not isinstance(have, dict):
        return message, None
    # Literally as vm.go compares them: a template CPU without sockets is 0 against the VMI's defaulted 1, so
    # any reconcile of such a running VM reads "Reduction of CPU socket count requires a restart".
    sockets, running = int(want.get("sockets") or 0), int(have.get("sockets") or 0)
    if sockets == running:
        return message, None
    if sockets > int(have.get("maxSockets") or 0):
        return message or SOCKETS_BEYOND, None
    if sockets < running:
        return message or SOCKETS_DOWN, None
    if current.get("architecture") == "arm64":
        return message or ARM_CPU, None
    have["sockets"] = sockets
    return message, (str(running), str(sockets))


def placement(current: Spec, vmi: Spec) -> bool:
    """``handleAffinityChangeRequest`` and ``handleTolerationsChangeRequest``: patch what differs."""
    patched = False
    for key in ("nodeSelector", "affinity", "tolerations"):
        if not restart_check.go_equal(current.get(key), vmi.get(key), (key,)):
            if current.get(key) is None:
                vmi.pop(key, None)
            else:
                vmi[key] = clone_json(current[key])
            patched = True
    return patched


def memory(current: Spec, vmi: Spec, at_boot: Any, message: str,
           migratable: bool) -> tuple[str, tuple[str, str] | None]:
    """``handleMemoryHotplugRequest``."""
    want = ((current.get("domain") or {}).get("memory") or {}).get("guest")
    memory = (vmi.get("domain") or {}).get("memory") or {}
    have = memory.get("guest")
    if want is None or have is None:
        return message, None
    guest, running = from_json(want), from_json(have)
    if guest.cmp(running) == 0:
        return message, None
    if not migratable:
        return message or MEMORY_NOT_MIGRATABLE, None
    if memory.get("maxGuest") is None:
        return message or MEMORY_UNAVAILABLE, None
    max_guest = from_json(memory["maxGuest"])
    problem = memory_hotplug_problem(current, max_guest)
    if problem is not None:
        return message or f"memory hotplug not supported, {problem}", None
    if at_boot is not None and guest.cmp(from_json(at_boot)) < 0:
        return message or MEMORY_LOWER, None
    if guest.cmp(max_guest) > 0:
        return message or MEMORY_BEYOND, None
    memory["guest"] = canonical(want)
    return message, (canonical(have), canonical(want))


def actuation(conditions: tuple[str, ...], cfg: ClusterConfig, migratable: bool) -> str:
    """The workload updater: a pending hot-plug migrates the VMI (``LiveMigrate``, migratable), else evicts it
    (``Evict``), else waits for a migration someone else starts (``none``)."""
    if not conditions:
        return ""
    methods = workload_update_methods(cfg)
    if LIVE_MIGRATE in methods and migratable:
        return "migrate"
    return "evict" if EVICT in methods else "none"


def workload_update_methods(cfg: ClusterConfig) -> tuple[str, ...]:
    """``spec.workloadUpdateStrategy.workloadUpdateMethods`` of the KubeVirt CR (empty by default)."""
    return cfg.workload_update_methods
