"""CPU and memory hot-plug maxima a VMI gets under ``vmRolloutStrategy: LiveUpdate``.

pkg/defaults/arch/base.go (``setupHotplug``) and pkg/liveupdate/memory/memory.go
(``ValidateLiveUpdateMemory``): ``maxSockets`` is the cluster's ``maxCpuSockets`` or ``sockets`` times
``maxHotplugRatio`` (capped at 512 vCPUs); ``maxGuest`` is the cluster's ``maxGuest`` or the guest
memory times the ratio, but only for VMs memory hot-plug can work with. arm64 gets neither.
"""

from __future__ import annotations

from typing import Any

from ..api.origin import NO_TRACE, Trace, named
from ..config import ClusterConfig
from ..quantity import Quantity, from_json, new_quantity

Spec = dict[str, Any]

MAX_VCPUS = 512
BLOCK_ALIGNMENT = 2 * 1024**2  # 2Mi, a transparent huge page
HUGEPAGE_1G_ALIGNMENT = 1024**3
MIN_GUEST = 1024**3


MAX_SOCKETS = named("cluster CPU hot-plug maximum", "liveUpdateConfiguration.maxCpuSockets")
MAX_SOCKETS_RATIO = named("CPU hot-plug maximum (sockets × cluster maxHotplugRatio)",
                          "liveUpdateConfiguration.maxHotplugRatio")
MAX_GUEST = named("cluster memory hot-plug maximum", "liveUpdateConfiguration.maxGuest")
MAX_GUEST_RATIO = named("memory hot-plug maximum (guest memory × cluster maxHotplugRatio)",
                        "liveUpdateConfiguration.maxHotplugRatio")


def setup_hotplug(spec: Spec, cfg: ClusterConfig, trace: Trace = NO_TRACE) -> None:
    """Set ``cpu.maxSockets`` and ``memory.maxGuest`` when the cluster allows live updates."""
    if not cfg.live_update or spec.get("architecture") == "arm64":
        return
    domain = spec.get("domain") or {}
    if isinstance(domain.get("cpu"), dict):
        _cpu(domain["cpu"], cfg, trace)
    memory = domain.get("memory")
    if isinstance(memory, dict) and memory.get("maxGuest") is None:
        max_guest = _max_guest(memory, cfg)
        if memory_hotplug_problem(spec, max_guest) is None:
            memory["maxGuest"] = str(max_guest)
            trace.set(("domain", "memory", "maxGuest"), MAX_GUEST if cfg.max_guest is not None else MAX_GUEST_RATIO)


def _cpu(cpu: Spec, cfg: ClusterConfig, trace: Trace) -> None:
    sockets, cores, threads = (int(cpu.get(k) or 0) for k in ("sockets", "cores", "threads"))
    if not cpu.get("maxSockets"):
        maximum = cfg.max_cpu_sockets
        if maximum and sockets > maximum:
            maximum = sockets
        if maximum:
            cpu["maxSockets"] = maximum
            trace.set(("domain", "cpu", "maxSockets"), MAX_SOCKETS)
    if not cpu.get("maxSockets"):
        maximum = sockets * cfg.max_hotplug_ratio
        if maximum * cores * threads > MAX_VCPUS:
            maximum = max(MAX_VCPUS // (cores * threads), sockets)
        if maximum:
            cpu["maxSockets"] = maximum
            trace.set(("domain", "cpu", "maxSockets"), MAX_SOCKETS_RATIO)


def _max_guest(memory: Spec, cfg: ClusterConfig) -> Quantity | None:
    if cfg.max_guest is not None:
        return from_json(cfg.max_guest)
    if memory.get("guest") is not None:
        return new_quantity(from_json(memory["guest"]).value() * cfg.max_hotplug_ratio, "BinarySI")
    return None


def memory_hotplug_problem(spec: Spec, max_guest: Quantity | None) -> str | None:
    """Why memory hot-plug cannot work for ``spec`` with ``max_guest`` (KubeVirt's reason), or None."""
    domain = spec.get("domain") or {}
    cpu, memory = domain.get("cpu") or {}, domain.get("memory") or {}
    if cpu.get("realtime") is not None:
        return "Memory hotplug is not compatible with realtime VMs"
    if (cpu.get("numa") or {}).get("guestMappingPassthrough") is not None:
        return "Memory hotplug is not compatible with guest mapping passthrough"
    if domain.get("launchSecurity") is not None:
        return "Memory hotplug is not compatible with encrypted VMs"
    one_gi_pages = (memory.get("hugepages") or {}).get("pageSize") == "1Gi"
    alignment = HUGEPAGE_1G_ALIGNMENT if one_gi_pages else BLOCK_ALIGNMENT
    if memory.get("guest") is None:
        return "Guest memory must be configured when memory hotplug is enabled"
    if max_guest is None:
        return "Max guest memory must be configured when memory hotplug is enabled"
    guest = from_json(memory["guest"])
    if guest.cmp(max_guest) > 0:
        return "Guest memory is greater than the configured maxGuest memory"
    if guest.value() % alignment:
        return f"Guest memory must be {new_quantity(alignment, 'BinarySI')} aligned"
    if max_guest.value() % alignment:
        return f"MaxGuest must be {new_quantity(alignment, 'BinarySI')} aligned"
    if spec.get("architecture") not in ("amd64", "arm64"):
        return "Memory hotplug is only available for x86_64 and arm64 VMs"
    if guest.value() < MIN_GUEST:
        return "Memory hotplug is only available for VMs with at least 1Gi of guest memory"
    return None
