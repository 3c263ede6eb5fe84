"""Instance type appliers (pkg/instancetype/apply/*.go), each returning the conflicts it found.

Every applier takes the conflict base path (``spec.template.spec`` for a VM, ``spec`` for a VMI), the
instance type spec, the preference spec (only the CPU topology reads it) and the template spec and
metadata it edits in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.golang import child, clone_json, is_set, nonzero
from ..api.origin import NO_TRACE, Trace
from ..catalog.spread import CORES_THREADS, SOCKETS_CORES, SOCKETS_CORES_THREADS, preferred_topology, spread_options
from ..quantity import from_json, overcommit_request

Spec = dict[str, Any]
Applier = Callable[[str, Spec, "Spec | None", Spec, Spec, Trace], list[str]]


def node_selector(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
    if it.get("nodeSelector") is None:
        return []
    if spec.get("nodeSelector") is not None:  # even an identical or empty map conflicts
        return [f"{base}.nodeSelector"]
    spec["nodeSelector"] = dict(it["nodeSelector"])
    trace.by_instancetype(("nodeSelector",), "spec.nodeSelector")
    return []


def scheduler_name(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec,
                   trace: Trace = NO_TRACE) -> list[str]:
    if not it.get("schedulerName"):
        return []
    if spec.get("schedulerName"):
        return [f"{base}.schedulerName"]
    spec["schedulerName"] = it["schedulerName"]
    trace.by_instancetype(("schedulerName",), "spec.schedulerName")
    return []


def _cpu_conflicts(base: str, it_cpu: Spec, domain: Spec, cpu: Spec) -> list[str]:
    resources = domain.get("resources") or {}
    if not cpu and not resources:
        return []  # nothing of the VM's own to conflict with (most VMs: the checks below would all miss)
    prefix = f"{base}.domain"
    checks = (
        ("cpu" in (resources.get("requests") or {}), "resources.requests.cpu"),
        ("cpu" in (resources.get("limits") or {}), "resources.limits.cpu"),
        (nonzero(cpu.get("sockets")), "cpu.sockets"),
        (nonzero(cpu.get("cores")), "cpu.cores"),
        (nonzero(cpu.get("threads")), "cpu.threads"),
        (nonzero(cpu.get("model")) and is_set(it_cpu.get("model")), "cpu.model"),
        # KubeVirt spells this path with "CPU" although the VMI JSON key is dedicatedCpuPlacement.
        (cpu.get("dedicatedCpuPlacement") is True and is_set(it_cpu.get("dedicatedCPUPlacement")),
         "cpu.dedicatedCPUPlacement"),
        (cpu.get("isolateEmulatorThread") is True and is_set(it_cpu.get("isolateEmulatorThread")),
         "cpu.isolateEmulatorThread"),
        (is_set(cpu.get("numa")) and is_set(it_cpu.get("numa")), "cpu.numa"),
        (is_set(cpu.get("realtime")) and is_set(it_cpu.get("realtime")), "cpu.realtime"),
    )
    return [f"{prefix}.{path}" for hit, path in checks if hit]


_CPU_COPIES = (
    ("model", "model"),
    ("dedicatedCPUPlacement", "dedicatedCpuPlacement"),
    ("isolateEmulatorThread", "isolateEmulatorThread"),
    ("numa", "numa"),
    ("realtime", "realtime"),
    ("maxSockets", "maxSockets"),  # never a conflict: the instance type simply wins
)
_CPU_COPIED = frozenset(src for src, _ in _CPU_COPIES)


def cpu(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
    domain = child(spec, "domain")
    vm_cpu = child(domain, "cpu")
    it_cpu = it.get("cpu") or {}
    conflicts = _cpu_conflicts(base, it_cpu, domain, vm_cpu)
    if conflicts:
        return conflicts
    if not _CPU_COPIED.isdisjoint(it_cpu):  # most instancetypes give the vCPUs alone
        for src, dst in _CPU_COPIES:
            value = it_cpu.get(src)
            if value is not None:
                vm_cpu[dst] = clone_json(value)
                if trace.on:
                    trace.by_instancetype(("domain", "cpu", dst), f"spec.cpu.{src}")
    guest = int(it_cpu.get("guest") or 0)
    _set_topology(vm_cpu, *topology(guest, pref))
    if trace.on:
        _trace_topology(trace, guest, pref)
    return []


def _set_topology(vm_cpu: Spec, sockets: int, cores: int, threads: int) -> None:
    # A zero count is Go's omitted field (a non-divisible spread can yield sockets 0).
    if sockets and cores and threads:  # the usual case, without the loop
        vm_cpu["sockets"], vm_cpu["cores"], vm_cpu["threads"] = sockets, cores, threads
        return
    for key, value in (("sockets", sockets), ("cores", cores), ("threads", threads)):
        if value:
            vm_cpu[key] = value
        else:
            vm_cpu.pop(key, None)


def _trace_topology(trace: Trace, guest: int, pref: Spec | None) -> None:
    """The counts come from the instancetype's vCPUs, spread as the preference's topology says (if it does)."""
    if not trace.on:
        return
    wanted = ((pref or {}).get("cpu") or {}).get("preferredCPUTopology")
    for key in ("sockets", "cores", "threads"):
        if guest != 1 and wanted is not None and trace.instancetype is not None:
            detail = f"{wanted} over {guest} vCPUs of instancetype {trace.instancetype.name}"
            trace.by_preference(("domain", "cpu", key), "spec.cpu.preferredCPUTopology", detail)
        else:
            trace.by_instancetype(("domain", "cpu", key), "spec.cpu.guest")


def topology(guest: int, pref: Spec | None) -> tuple[int, int, int]:
    """(sockets, cores, threads) for ``guest`` vCPUs under the preference's preferred topology."""
    if guest == 1:
        return 1, 1, 1
    preferred = preferred_topology(pref)
    if preferred in ("sockets", "any"):
        return guest, 1, 1
    if preferred == "cores":
        return 1, guest, 1
    if preferred == "threads":
        return 1, 1, guest
    if preferred != "spread":
        return 1, 1, 1
    ratio, across = spread_options(pref)
    if ratio == 0:
        # KubeVirt divides by zero here and panics; we keep the default 1/1/1 (admission refuses it first).
        return 1, 1, 1
    if across == SOCKETS_CORES:
        return guest // ratio, ratio, 1
    if across == CORES_THREADS:
        return 1, guest // ratio, ratio
    if across == SOCKETS_CORES_THREADS:
        return (guest // 2) // ratio, ratio, 2
    return 1, 1, 1


def _memory_conflict(base: str, it_mem: Spec, domain: Spec, mem: Spec) -> str | None:
    resources = domain.get("resources") or {}
    if not mem and not resources:
        return None  # nothing of the VM's own to conflict with (most VMs: the checks below would all miss)
    checks = (
        (is_set(mem.get("guest")), "memory.guest"),
        (is_set(mem.get("hugepages")) and is_set(it_mem.get("hugepages")), "memory.hugepages"),
        (is_set(mem.get("maxGuest")) and is_set(it_mem.get("maxGuest")), "memory.maxGuest"),
        ("memory" in (resources.get("requests") or {}), "resources.requests.memory"),
        ("memory" in (resources.get("limits") or {}), "resources.limits.memory"),
    )
    # Only the first memory conflict is reported (pkg/instancetype/apply/memory.go).
    return next((f"{base}.domain.{path}" for hit, path in checks if hit), None)


def memory(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
    domain = child(spec, "domain")
    mem = child(domain, "memory")
    it_mem = it.get("memory") or {}
    conflict = _memory_conflict(base, it_mem, domain, mem)
    if conflict:
        return [conflict]
    # memory.guest is a plain Quantity in the instancetype spec: one a ControllerRevision stores without it
    # decodes as zero and is applied as "0" (pkg/instancetype/apply/memory.go).
    guest = it_mem.get("guest")
    mem["guest"] = guest = "0" if guest is None else guest
    if trace.on:
        trace.by_instancetype(("domain", "memory", "guest"), "spec.memory.guest")
    percent = int(it_mem.get("overcommitPercent") or 0)
    if percent > 0:
        requests = child(child(domain, "resources"), "requests")
        requests["memory"] = str(overcommit_request(from_json(guest), percent))
        trace.by_instancetype(("domain", "resources", "requests", "memory"), "spec.memory.overcommitPercent",
                              f"{percent}% overcommit of spec.memory.guest")
    for key in ("hugepages", "maxGuest"):
        value = it_mem.get(key)
        if value is not None:
            mem[key] = clone_json(value)
            if trace.on:
                trace.by_instancetype(("domain", "memory", key), f"spec.memory.{key}")
    return []


def io_threads(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
    count = (it.get("ioThreads") or {}).get("supplementalPoolThreadCount")
    if count is None:
        return []
    domain = child(spec, "domain")
    if (domain.get("ioThreads") or {}).get("supplementalPoolThreadCount") is not None:
        return [f"{base}.domain.ioThreads.supplementalPoolThreadCount"]
    child(domain, "ioThreads")["supplementalPoolThreadCount"] = count
    trace.by_instancetype(("domain", "ioThreads", "supplementalPoolThreadCount"),
                          "spec.ioThreads.supplementalPoolThreadCount")
    return []


def _domain_field(key: str) -> Applier:
    def apply(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
        if it.get(key) is None:
            return []
        domain = child(spec, "domain")
        if domain.get(key) is not None:
            return [f"{base}.domain.{key}"]
        domain[key] = clone_json(it[key])
        trace.by_instancetype(("domain", key), f"spec.{key}")
        return []

    apply.__name__ = key
    return apply


def _device_list(key: str) -> Applier:
    def apply(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> list[str]:
        if not it.get(key):
            return []
        devices = child(child(spec, "domain"), "devices")
        if devices.get(key):
            return [f"{base}.domain.devices.{key}"]
        devices[key] = clone_json(it[key])
        trace.by_instancetype(("domain", "devices", key), f"spec.{key}")
        return []

    apply.__name__ = key
    return apply


def template_annotations(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec,
                         trace: Trace = NO_TRACE) -> list[str]:
    wanted = it.get("annotations") or {}
    present = child(meta, "annotations") if wanted else meta.get("annotations") or {}
    conflicts = []
    for key, value in wanted.items():
        if key not in present:
            present[key] = value
            trace.metadata().by_instancetype(("annotations", key), "spec.annotations")
        elif present[key] != value:
            # No base prefix on this path in KubeVirt (pkg/instancetype/apply/annotations.go).
            conflicts.append(f"annotations.{key}")
    return conflicts


def memory_any_conflicts(base: str, it: Spec, pref: Spec | None, spec: Spec, meta: Spec,
                         trace: Trace = NO_TRACE) -> list[str]:
    """:func:`memory` as KubeVirt before v1.7.0 applies it (#14685): any ``domain.memory`` of the VM conflicts."""
    if (spec.get("domain") or {}).get("memory") is not None:
        return [f"{base}.domain.memory"]
    return memory(base, it, pref, spec, meta, trace)


# KubeVirt's order (pkg/instancetype/apply/vmi.go); every applier runs even after a conflict.
APPLIERS: tuple[Applier, ...] = (
    node_selector,
    scheduler_name,
    cpu,
    memory,
    io_threads,
    _domain_field("ioThreadsPolicy"),
    _domain_field("launchSecurity"),
    _device_list("gpus"),
    _device_list("hostDevices"),
    template_annotations,
)
