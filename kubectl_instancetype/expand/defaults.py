"""Defaults expansion adds around the appliers: default disks, the pod network, cluster defaults.

Sources: pkg/util/util.go (SetDefaultVolumeDisk), pkg/network/vmispec/defaults.go, and
pkg/defaults/defaults.go (SetDefaultVirtualMachineInstanceSpec) as configured by pkg/virt-config.
Each records, by name, the default behind every value it sets.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Origin, Trace, named
from ..config import ClusterConfig, configured_arch
from ..quantity import QuantityError, canonical, from_json, new_quantity, parse_quantity

Spec = dict[str, Any]


POD_NETWORK = named("default pod network")
ARCHITECTURE = named("cluster default architecture", "architectureConfiguration.defaultArchitecture")
EVICTION_STRATEGY = named("cluster eviction strategy", "evictionStrategy")
CPU_REQUEST = named("cluster CPU request", "cpuRequest")
CPU_REQUEST_FROM_LIMIT = named("KubeVirt default CPU request (the CPU limit)")
GUEST_FROM_REQUEST = named("KubeVirt default guest memory (the memory request)")
GUEST_FROM_LIMIT = named("KubeVirt default guest memory (the memory limit)")
GUEST_FROM_HUGEPAGES = named("KubeVirt default guest memory (the hugepage size)")
NO_GUEST = named("KubeVirt default memory (no guest memory)")
PULL_POLICY = named("KubeVirt default image pull policy (for the image's tag)")
MEMORY_REQUEST_FROM_LIMIT = named("KubeVirt default memory request (the memory limit; before v1.6.4 and v1.7.0)")
MEMORY_REQUEST_FROM_GUEST = named("KubeVirt default memory request (the guest memory and memoryOvercommit; "
                                  "before v1.6.4 and v1.7.0)", "developerConfiguration.memoryOvercommit")
MEMORY_REQUEST_FROM_HUGEPAGES = named("KubeVirt default memory request (the hugepage size; before v1.6.4 and "
                                      "v1.7.0)")


def default_volume_disks(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """Give every volume without a disk or filesystem a bare disk of the same name."""
    volumes = spec.get("volumes") or []
    if not volumes:
        return
    devices = child(child(spec, "domain"), "devices")
    taken = {d.get("name") for d in devices.get("disks") or []}
    filesystems = devices.get("filesystems")
    if filesystems:
        taken.update(f.get("name") for f in filesystems)
    added = [{"name": v.get("name")} for v in volumes if v.get("name") not in taken]
    if added:
        present = list(devices.get("disks") or [])
        devices["disks"] = present + added
        if trace.on:
            for index, disk in enumerate(added, len(present)):
                trace.set(("domain", "devices", "disks", index), named(f"default disk for volume {disk['name']}"))


def default_pod_network(cfg: ClusterConfig, spec: Spec, trace: Trace = NO_TRACE) -> str | None:
    """Add the ``default`` pod network and its interface when the VM has neither networks nor interfaces.

    KubeVirt's refusal when the cluster's default binding cannot be used (``spec`` is then unchanged).
    """
    devices = (spec.get("domain") or {}).get("devices") or {}
    if devices.get("autoattachPodInterface") is False:
        return None
    if spec.get("networks") or devices.get("interfaces"):
        return None
    binding = cfg.default_network_interface
    iface: Spec | None = None
    if binding == "bridge":
        if not cfg.permit_bridge_on_pod_network:
            return "bridge interface is not enabled in kubevirt-config"
        iface = {"name": "default", "bridge": {}}
    elif binding == "masquerade":
        iface = {"name": "default", "masquerade": {}}
    elif binding == "slirp":
        return "slirp interface is deprecated as of v1.3"
    if iface is not None:
        child(child(spec, "domain"), "devices")["interfaces"] = [iface]
        if trace.on:
            trace.set(("domain", "devices", "interfaces", 0),
                      named(f"default pod network interface ({binding}, cluster default network interface)",
                            "network.defaultNetworkInterface"))
    spec["networks"] = [{"name": "default", "pod": {}}]
    trace.set(("networks", 0), POD_NETWORK)
    return None


def cluster_defaults(cfg: ClusterConfig, spec: Spec, trace: Trace = NO_TRACE) -> str | None:
    """KubeVirt's VMI spec defaults, in its order (pkg/defaults/defaults.go); the pod network's refusal."""
    if not spec.get("architecture"):
        spec["architecture"] = cfg.default_architecture
        trace.set(("architecture",), ARCHITECTURE)
    domain = child(spec, "domain")
    machine = child(domain, "machine")
    if not machine.get("type"):
        arch = spec["architecture"]
        machine["type"] = cfg.machine_type_for(arch)
        if trace.on:
            trace.set(("domain", "machine", "type"), machine_type_origin(cfg, arch))
    at = trace.at("domain")
    _resource_requests(cfg, domain, at)
    _guest_memory(domain, at)
    _topology(domain, at)
    _image_pull_policy(spec, trace)
    if spec.get("evictionStrategy") is None and cfg.eviction_strategy is not None:
        spec["evictionStrategy"] = cfg.eviction_strategy
        trace.set(("evictionStrategy",), EVICTION_STRATEGY)
    problem = default_pod_network(cfg, spec, trace)
    if problem is not None:
        return problem
    default_volume_disks(spec, trace)
    return None


def machine_type_origin(cfg: ClusterConfig, arch: str) -> Origin:
    """The setting behind ``cfg.machine_type_for(arch)`` (also what the VM mutating webhook writes)."""
    if cfg.machine_type:
        return named("cluster machine type", "machineType")
    known = configured_arch(arch)  # others fall back to amd64's
    return named(f"cluster default machine type ({known})", f"architectureConfiguration.{known}.machineType")


def _quantity_nonzero(value: Any) -> bool:
    return value is not None and not from_json(value).is_zero()


def _resource_requests(cfg: ClusterConfig, domain: Spec, trace: Trace) -> None:
    resources = domain.get("resources") or {}
    limits = resources.get("limits") or {}
    requests = resources.get("requests") or {}
    if limits and _quantity_nonzero(limits.get("cpu")) and not _quantity_nonzero(requests.get("cpu")):
        child(child(domain, "resources"), "requests")["cpu"] = limits["cpu"]
        trace.set(("resources", "requests", "cpu"), CPU_REQUEST_FROM_LIMIT)
    if cfg.release.defaults_memory_request:
        _memory_request(cfg, domain, trace)
    dedicated = (domain.get("cpu") or {}).get("dedicatedCpuPlacement") is True
    if canonical(cfg.cpu_request) != "100m" and not dedicated:
        requests = child(child(domain, "resources"), "requests")
        if "cpu" not in requests:
            requests["cpu"] = cfg.cpu_request
            trace.set(("resources", "requests", "cpu"), CPU_REQUEST)


def _memory_request(cfg: ClusterConfig, domain: Spec, trace: Trace) -> None:
    """The memory request of releases before v1.6.4 and v1.7.0 (``setDefaultResourceRequests``): the memory
    limit, else the guest memory (else the hugepage size) x 100 / ``memoryOvercommit`` (v1.6.2: without it)."""
    resources = domain.get("resources") or {}
    limits, requests = resources.get("limits") or {}, resources.get("requests") or {}
    if _quantity_nonzero(limits.get("memory")) and not _quantity_nonzero(requests.get("memory")):
        child(child(domain, "resources"), "requests")["memory"] = limits["memory"]
        trace.set(("resources", "requests", "memory"), MEMORY_REQUEST_FROM_LIMIT)
        return
    if "memory" in requests:
        return
    found = domain.get("memory")
    memory: Spec = found if isinstance(found, dict) else {}
    value, origin = memory.get("guest"), MEMORY_REQUEST_FROM_GUEST
    if value is None:
        value, origin = (memory.get("hugepages") or {}).get("pageSize"), MEMORY_REQUEST_FROM_HUGEPAGES
    try:
        quantity = from_json(value) if value is not None else None
    except ValueError:  # a page size that is no quantity: KubeVirt ignores it here
        quantity = None
    if quantity is None or quantity.value() <= 0:
        return
    overcommit = cfg.memory_overcommit
    if overcommit != 100 and not cfg.release.memory_request_ignores_overcommit:
        quantity = new_quantity(quantity.value() * 100 // overcommit, quantity.format)
    child(child(domain, "resources"), "requests")["memory"] = str(quantity)
    trace.set(("resources", "requests", "memory"), origin)


def _guest_memory(domain: Spec, trace: Trace) -> None:
    memory = domain.get("memory")
    if isinstance(memory, dict) and memory.get("guest") is not None:
        return
    fresh = trace.absent(domain, ("memory",))
    memory = child(domain, "memory")
    resources = domain.get("resources") or {}
    for source, origin in ((resources.get("requests") or {}, GUEST_FROM_REQUEST),
                           (resources.get("limits") or {}, GUEST_FROM_LIMIT)):
        if _quantity_nonzero(source.get("memory")):
            memory["guest"] = source["memory"]
            trace.set(("memory", "guest"), origin)
            return
    page_size = _page_size(memory.get("hugepages"))
    if page_size is not None:
        memory["guest"] = page_size
        trace.set(("memory", "guest"), GUEST_FROM_HUGEPAGES)
    elif fresh:
        trace.set(fresh, NO_GUEST)


def _page_size(hugepages: Any) -> str | None:
    """The hugepages' page size as the quantity ``resource.ParseQuantity`` reads (None when it does not
    parse: KubeVirt then leaves the guest memory unset and the webhook refuses the page size)."""
    if not isinstance(hugepages, dict) or not isinstance(hugepages.get("pageSize"), str):
        return None
    try:
        return str(parse_quantity(hugepages["pageSize"]))
    except QuantityError:
        return None


def _topology(domain: Spec, trace: Trace) -> None:
    cpu = domain.get("cpu")
    if isinstance(cpu, dict) and (cpu.get("cores") or cpu.get("sockets") or cpu.get("threads")):
        return
    cpu = child(domain, "cpu")
    resources = domain.get("resources") or {}
    sockets, words = 1, "KubeVirt default CPU topology"
    for source, kind in ((resources.get("limits") or {}, "limit"), (resources.get("requests") or {}, "request")):
        if source.get("cpu") is not None:
            # uint32(quantity.Value()) in SetDefaultGuestCPUTopology (pkg/defaults/defaults.go): Go keeps the
            # low 32 bits, so a CPU limit of 4Gi gives 0 sockets.
            sockets = from_json(source["cpu"]).value() & 0xFFFFFFFF
            words = f"KubeVirt default CPU topology (sockets from the CPU {kind})"
            break
    cpu.update({"sockets": sockets, "cores": 1, "threads": 1})
    if trace.on:
        for key in ("sockets", "cores", "threads"):
            trace.set(("cpu", key), named(words))


def image_pull_policy(image: str) -> str:
    """``Always`` for ``:latest`` or untagged images, otherwise ``IfNotPresent``."""
    if image.endswith(":latest") or (":" not in image and "@" not in image):
        return "Always"
    return "IfNotPresent"


def _image_pull_policy(spec: Spec, trace: Trace) -> None:
    for index, volume in enumerate(spec.get("volumes") or []):
        disk = volume.get("containerDisk")
        if isinstance(disk, dict) and not disk.get("imagePullPolicy"):
            disk["imagePullPolicy"] = image_pull_policy(str(disk.get("image") or ""))
            trace.set(("volumes", index, "containerDisk", "imagePullPolicy"),
                      PULL_POLICY)
