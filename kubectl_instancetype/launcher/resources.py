"""The compute container's requests and limits: virt-controller's ``ResourceRenderer``.

``pkg/virt-controller/services/renderresources.go`` and ``VMIResourcePredicates`` in ``template.go``: the
VMI's own requests and limits, then each rule whose predicate holds, in KubeVirt's order. Requests and limits
a rule computes are kept apart from the VMI's: the VMI's win where both name a resource. Every value set
records why (``Resources.origins``), which ``render --pod --explain`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.labelselector import selector_matches
from ..config import ClusterConfig
from ..quantity import Quantity, QuantityError, parse_quantity
from ..records import dataclass
from . import settings, traits
from .arith import ZERO, add, must, one, scaled, sub, text
from .cluster import Cluster
from .overhead import Overhead
from .volumes import RenderError

Spec = dict[str, Any]
QList = dict[str, Quantity]
DEVICES = "devices.kubevirt.io/"
EPHEMERAL_OVERHEAD = "50M"
AUTO_MEMORY_RATIO_LABEL = "alpha.kubevirt.io/auto-memory-limits-ratio"
DEFAULT_LIMIT_RATIO = 2.0


@dataclass(frozen=True)
class Requirements:
    """The compute container's requests, limits and resource claims, each value with why it is there."""

    requests: dict[str, Quantity]
    limits: dict[str, Quantity]
    claims: tuple[dict[str, str], ...] = ()
    origins: tuple[tuple[str, str, str], ...] = ()  # (requests|limits, resource, why)

    def to_json(self) -> Spec:
        out: Spec = {}
        if self.limits:
            out["limits"] = {k: text(v) for k, v in sorted(self.limits.items())}
        if self.requests:
            out["requests"] = {k: text(v) for k, v in sorted(self.requests.items())}
        if self.claims:
            out["claims"] = [dict(c) for c in self.claims]
        return out


class _Renderer:
    """The Go renderer's four resource lists, and the origin of each entry."""

    def __init__(self, vmi: Spec) -> None:
        self.vm_limits: QList = traits.resource_list(vmi, "limits")
        self.vm_requests: QList = traits.resource_list(vmi, "requests")
        self.calc_limits: QList = {}
        self.calc_requests: QList = {}
        self.claims: list[dict[str, str]] = []
        self.why: dict[tuple[str, str], str] = {}
        for which, listed in (("limits", self.vm_limits), ("requests", self.vm_requests)):
            for name in listed:
                self.why[(which, name)] = f"the VMI's resources.{which}.{name}"

    def set(self, which: str, table: QList, name: str, value: Quantity, why: str) -> None:
        table[name] = value
        self.why[(which, name)] = why

    def limits(self) -> QList:
        return {**self.calc_limits, **self.vm_limits}

    def requests(self) -> QList:
        return {**self.calc_requests, **self.vm_requests}

    def bump(self, name: str, why: str) -> None:
        """``requestResource``: one more of ``name`` in both lists (what ``WithNetworkResources`` etc. do)."""
        limits, requests = self.limits(), self.requests()
        for which, merged, target in (("limits", limits, self.calc_limits), ("requests", requests, self.calc_requests)):
            merged[name] = add(merged[name], one()) if name in merged else one()
            target.update(merged)
            self.why[(which, name)] = why


def render_resources(vmi: Spec, cfg: ClusterConfig, cluster: Cluster, overhead: Overhead,
                     network_resources: dict[str, str] | None) -> Requirements:
    """The compute container's resources for ``vmi``; RenderError for a device the CR does not permit."""
    r = _Renderer(vmi)
    _ephemeral_storage(r)
    _virtualization_devices(r, vmi, cfg)
    _permitted_host_devices(vmi, cfg)
    requests = traits.resource_list(vmi, "requests")
    rules: list[tuple[bool, Callable[[], None]]] = [
        (requests.get("memory", ZERO).is_zero(), lambda: _memory_request(r, vmi, cfg)),
        (traits.is_cpu_dedicated(vmi), lambda: _cpu_pinning(r, vmi)),
        (not traits.is_cpu_dedicated(vmi), lambda: _shared_cpu(r, vmi, cfg, cluster)),
        (traits.has_hugepages(vmi), lambda: _hugepages(r, vmi, overhead)),
        (not traits.has_hugepages(vmi), lambda: _memory_overhead(r, vmi, overhead)),
        (_needs_auto_limits(vmi, cluster, "memory"), lambda: _auto_memory_limits(r, vmi, cluster)),
        (bool(network_resources), lambda: _network_resources(r, network_resources or {})),
        (_device_plugin_gpus(vmi), lambda: _devices(r, vmi, "gpus", "GPU")),
        (settings.gate(cfg, "GPUsWithDRA"), lambda: _dra_claims(r, vmi, "gpus")),
        (_device_plugin_hostdevs(vmi), lambda: _devices(r, vmi, "hostDevices", "host device")),
        (settings.gate(cfg, "HostDevicesWithDRA"), lambda: _dra_claims(r, vmi, "hostDevices")),
        (settings.gate(cfg, "NetworkDevicesWithDRA"), lambda: _dra_networks(r, vmi)),
        (traits.is_sev(vmi), lambda: r.bump(DEVICES + "sev", "SEV launch security")),
        (traits.is_tdx(vmi), lambda: r.bump(DEVICES + "tdx", "TDX launch security")),
        (_persistent_reservation(vmi), lambda: r.bump(DEVICES + "pr-helper", "a LUN with persistent reservation")),
        (settings.gate(cfg, "IOMMUFD"), lambda: r.bump(DEVICES + "iommufd", "feature gate IOMMUFD")),
    ]
    for applies, rule in rules:  # the predicates are read off the VMI before any rule runs, as in Go
        if applies:
            rule()
    limits, requests_out = r.limits(), r.requests()
    origins = tuple((which, name, r.why.get((which, name), ""))
                    for which, listed in (("requests", requests_out), ("limits", limits)) for name in sorted(listed))
    return Requirements(requests_out, limits, tuple(r.claims), origins)


def _ephemeral_storage(r: _Renderer) -> None:
    overhead = must(EPHEMERAL_OVERHEAD)
    requested = r.vm_requests.get("ephemeral-storage", ZERO)
    r.set("requests", r.vm_requests, "ephemeral-storage", add(requested, overhead),
          "50M for the container's writable layer" + (" + the VMI's request" if not requested.is_zero() else ""))
    if "ephemeral-storage" in r.vm_limits:
        r.set("limits", r.vm_limits, "ephemeral-storage", add(r.vm_limits["ephemeral-storage"], overhead),
              "the VMI's limit + 50M")


def _virtualization_devices(r: _Renderer, vmi: Spec, cfg: ClusterConfig) -> None:
    """``getRequiredResources``: tun for the pod network, vhost-net for virtio NICs, the hypervisor device."""
    emulation = settings.allow_emulation(cfg)
    if traits.requires_tun(vmi):
        r.set("limits", r.vm_limits, DEVICES + "tun", must("1"), "a network interface (tap device)")
    if traits.has_virtio_iface(vmi) and not emulation:
        r.set("limits", r.vm_limits, DEVICES + "vhost-net", must("1"), "a virtio network interface")
    if not emulation:
        device = settings.hypervisor(cfg)
        r.set("limits", r.vm_limits, DEVICES + device, must("1"), f"the hypervisor device ({device})")
    if traits.autoattach_vsock(vmi):
        r.set("limits", r.vm_limits, DEVICES + "vhost-vsock", must("1"), "autoattachVSOCK")


def _permitted_host_devices(vmi: Spec, cfg: ClusterConfig) -> None:
    permitted = settings.permitted_host_devices(cfg)
    if permitted is None:
        return
    names = {d.get("resourceName") for key in ("pciHostDevices", "mediatedDevices", "usb")
             for d in permitted.get(key) or () if isinstance(d, dict)}
    dra_gpus = settings.gate(cfg, "GPUsWithDRA")
    dra_hostdevs = settings.gate(cfg, "HostDevicesWithDRA")
    errors = []
    for key, label, dra in (("gpus", "GPU", dra_gpus), ("hostDevices", "HostDevice", dra_hostdevs)):
        for dev in traits.devices(vmi).get(key) or ():
            if not isinstance(dev, dict) or (dra and has_claim(dev)):
                continue
            if dev.get("deviceName", "") not in names:
                errors.append(f"{label} {dev.get('deviceName', '')} is not permitted in permittedHostDevices "
                              "configuration")
    if errors:
        raise RenderError(" ".join(errors))


def _memory_request(r: _Renderer, vmi: Spec, cfg: ClusterConfig) -> None:
    """``WithMemoryRequests``: the limit, else the guest memory (or one huge page) ÷ memoryOvercommit."""
    limit = r.vm_limits.get("memory")
    request = r.vm_requests.get("memory")
    if limit is not None and not limit.is_zero() and (request is None or request.is_zero()):
        r.set("requests", r.vm_requests, "memory", limit, "the VMI's memory limit")
    if "memory" in r.vm_requests:
        return
    mem = traits.memory(vmi) or {}
    memory, what = traits.quantity(mem.get("guest")), "guest memory"
    if memory is None and isinstance(mem.get("hugepages"), dict):
        try:
            memory, what = parse_quantity(str(mem["hugepages"].get("pageSize") or "")), "one huge page"
        except QuantityError:
            memory = None
    if memory is None or memory.value() <= 0:
        return
    overcommit = cfg.memory_overcommit
    if overcommit == 100:
        r.set("requests", r.vm_requests, "memory", memory, f"{what} {memory}")
    else:
        value = memory.value() * 100 // overcommit if overcommit > 0 else 0
        r.set("requests", r.vm_requests, "memory", Quantity(value, 0, memory.format),
              f"{what} {memory} × 100 ÷ memoryOvercommit {overcommit}")


def _io_threads(vmi: Spec) -> int:
    count = (traits.domain(vmi).get("ioThreads") or {}).get("supplementalPoolThreadCount")
    return int(count) if isinstance(count, int) else 0


def _cpu_pinning(r: _Renderer, vmi: Spec) -> None:
    """``WithCPUPinning``: as many whole CPUs as vCPUs (plus IOThreads and the emulator thread), limits = requests."""
    cpu = traits.cpu(vmi) or {}
    vcpus, io = traits.vcpus(cpu), _io_threads(vmi)
    if vcpus:
        total = Quantity(vcpus + io, 0, "BinarySI")
        why = f"dedicated CPUs: {vcpus} vCPUs" + (f" + {io} IOThreads" if io else "")
        r.set("limits", r.vm_limits, "cpu", total, why)
        r.set("requests", r.vm_requests, "cpu", total, why)
    else:
        threads = Quantity(io, 0, "BinarySI")
        for which, table in (("limits", r.vm_limits), ("requests", r.vm_requests)):
            if "cpu" in table:
                r.set(which, table, "cpu", add(table["cpu"], threads), f"the VMI's cpu {which} + {io} IOThreads")
    if cpu.get("isolateEmulatorThread"):
        limits = r.vm_limits.get("cpu", ZERO)
        extra = 1
        even = "alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity" in traits.vmi_annotations(vmi)
        supplemental = _supplemental_threads(vmi)
        if even and (limits.value() + supplemental) % 2 == 0:
            extra = 2
        r.set("limits", r.vm_limits, "cpu", add(limits, Quantity(extra, 0, "BinarySI")),
              f"dedicated CPUs + {extra} for the isolated emulator thread")
        if "cpu" in r.vm_requests:
            r.set("requests", r.vm_requests, "cpu", add(r.vm_requests["cpu"], Quantity(extra, 0, "BinarySI")),
                  f"dedicated CPUs + {extra} for the isolated emulator thread")
    if "memory" in r.vm_requests:
        r.set("limits", r.vm_limits, "memory", r.vm_requests["memory"], "dedicated CPUs: memory limit = request")


def _supplemental_threads(vmi: Spec) -> int:
    if traits.domain(vmi).get("ioThreadsPolicy") != "supplementalPool":
        return 0
    return _io_threads(vmi)


def go_g(value: float) -> str:
    """Go's ``fmt.Sprintf("%g", value)`` for the values a CPU request takes."""
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    return repr(value)


def _shared_cpu(r: _Renderer, vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> None:
    """``WithoutDedicatedCPU``: vCPUs ÷ cpuAllocationRatio requested; the vCPUs as a limit under a quota."""
    cpu = traits.cpu(vmi)
    vcpus = traits.vcpus(cpu) if cpu is not None else 1
    total = vcpus + _io_threads(vmi)
    ratio = settings.cpu_allocation_ratio(cfg)
    if total == 0 or ratio <= 0:
        return
    val = total / ratio
    text = go_g(val) if val >= 1 else go_g(val * 1000) + "m"
    r.set("requests", r.calc_requests, "cpu", parse_quantity(text), f"{total} vCPUs ÷ cpuAllocationRatio {ratio}")
    if _needs_auto_cpu_limits(vmi, cfg, cluster):
        r.set("limits", r.calc_limits, "cpu", parse_quantity(str(total)),
              f"{total} vCPUs: a ResourceQuota in the namespace sets limits.cpu (AutoResourceLimits)")


def _hugepages(r: _Renderer, vmi: Spec, overhead: Overhead) -> None:
    """``WithHugePages``: guest memory as hugepages-<size>; the container's memory is what is left + overhead."""
    mem = traits.memory(vmi) or {}
    name = "hugepages-" + str((mem.get("hugepages") or {}).get("pageSize") or "")
    guest = traits.quantity(mem.get("guest"))
    request = r.vm_requests.get("memory", Quantity(0, 0, "BinarySI"))
    pages = guest if guest is not None and request.value() > guest.value() else request
    r.set("requests", r.calc_requests, name, pages, "guest memory backed by huge pages")
    r.set("limits", r.calc_limits, name, pages, "guest memory backed by huge pages")
    req_diff, lim_diff = scaled(0, 3), scaled(0, 3)
    if guest is not None:
        limit = r.vm_limits.get("memory", Quantity(0, 0, "BinarySI"))
        if request.value() > guest.value():
            req_diff = sub(add(req_diff, request), guest)
        if limit.value() > guest.value():
            lim_diff = sub(add(lim_diff, limit), guest)
    r.set("requests", r.vm_requests, "memory", add(req_diff, overhead.total),
          "memory overhead" + (" + (request − guest)" if not req_diff.is_zero() else ""))
    if "memory" in r.vm_limits:
        r.set("limits", r.vm_limits, "memory", add(lim_diff, overhead.total),
              "memory overhead" + (" + (limit − guest)" if not lim_diff.is_zero() else ""))


def _memory_overhead(r: _Renderer, vmi: Spec, overhead: Overhead) -> None:
    """``WithMemoryOverhead``: the overhead on top of the memory request (unless overcommitGuestOverhead) and
    of a memory limit."""
    request = r.vm_requests.get("memory", ZERO)
    before = r.why.get(("requests", "memory"), "no memory request")
    if not (traits.domain(vmi).get("resources") or {}).get("overcommitGuestOverhead"):
        r.set("requests", r.vm_requests, "memory", add(request, overhead.total), f"{before} + memory overhead")
    else:
        r.set("requests", r.vm_requests, "memory", request, f"{before} (overcommitGuestOverhead: no overhead)")
    if "memory" in r.vm_limits:
        r.set("limits", r.vm_limits, "memory", add(r.vm_limits["memory"], overhead.total),
              f"{r.why.get(('limits', 'memory'))} + memory overhead")


def _quota_limits(vmi: Spec, cluster: Cluster, resource: str) -> bool:
    namespace = (vmi.get("metadata") or {}).get("namespace") or "default"
    for quota in cluster.all("ResourceQuota"):
        hard = (quota.get("spec") or {}).get("hard") or {}
        if f"limits.{resource}" in hard and ((quota.get("metadata") or {}).get("namespace") or "default") == namespace:
            return True
    return False


def _needs_auto_limits(vmi: Spec, cluster: Cluster, resource: str) -> bool:
    """``doesVMIRequireAutoResourceLimits``: no limit of its own, and a quota in its namespace sets one."""
    if resource in traits.resource_list(vmi, "limits"):
        return False
    return _quota_limits(vmi, cluster, resource)


def _needs_auto_cpu_limits(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> bool:
    if _needs_auto_limits(vmi, cluster, "cpu"):
        return True
    selector = settings.auto_cpu_limit_selector(cfg)
    if selector is None or "cpu" in traits.resource_list(vmi, "limits"):
        return False
    namespace = cluster.get("Namespace", "", (vmi.get("metadata") or {}).get("namespace") or "default")
    if namespace is None:
        return False
    return bool(selector_matches(selector, (namespace.get("metadata") or {}).get("labels") or {}))


def limits_ratio(vmi: Spec, cluster: Cluster) -> float:
    """``getMemoryLimitsRatio``: the namespace's auto-memory-limits-ratio label (at least 1), else 2."""
    namespace = cluster.get("Namespace", "", (vmi.get("metadata") or {}).get("namespace") or "default")
    value = ((namespace or {}).get("metadata") or {}).get("labels", {}).get(AUTO_MEMORY_RATIO_LABEL)
    if value is None:
        return DEFAULT_LIMIT_RATIO
    try:
        ratio = float(value)
    except ValueError:
        return DEFAULT_LIMIT_RATIO
    return ratio if ratio >= 1.0 else DEFAULT_LIMIT_RATIO


def _auto_memory_limits(r: _Renderer, vmi: Spec, cluster: Cluster) -> None:
    ratio = limits_ratio(vmi, cluster)
    request = r.vm_requests.get("memory", ZERO)
    value = int(float(request.value()) * ratio)
    r.set("limits", r.calc_limits, "memory", Quantity(value, 0, request.format),
          f"memory request × {ratio:g}: a ResourceQuota in the namespace sets limits.memory (AutoResourceLimits)")


def _network_resources(r: _Renderer, network_resources: dict[str, str]) -> None:
    for network, resource in network_resources.items():
        if resource:
            r.bump(resource, f"network {network}: its NetworkAttachmentDefinition's resourceName")


def _device_plugin_gpus(vmi: Spec) -> bool:
    return any(isinstance(g, dict) and g.get("deviceName") and not has_claim(g)
               for g in traits.devices(vmi).get("gpus") or ())


def _device_plugin_hostdevs(vmi: Spec) -> bool:
    return any(isinstance(h, dict) and h.get("deviceName") and not has_claim(h)
               for h in traits.devices(vmi).get("hostDevices") or ())


def _devices(r: _Renderer, vmi: Spec, key: str, what: str) -> None:
    for dev in traits.devices(vmi).get(key) or ():
        if isinstance(dev, dict) and dev.get("deviceName") and not has_claim(dev):
            r.bump(str(dev["deviceName"]), f"{what} {dev.get('name', '')}")


def _dra_claims(r: _Renderer, vmi: Spec, key: str) -> None:
    """``WithGPUsDRA``/``WithHostDevicesDRA``: a device by claim becomes a claim of the container."""
    for dev in traits.devices(vmi).get(key) or ():
        if isinstance(dev, dict) and not dev.get("deviceName") and has_claim(dev):
            r.claims.append(_claim(dev.get("claimName"), dev.get("requestName")))


def _dra_networks(r: _Renderer, vmi: Spec) -> None:
    for net in traits.networks(vmi):
        claim = net.get("resourceClaim")
        if isinstance(claim, dict):
            r.claims.append(_claim(claim.get("claimName"), claim.get("requestName")))


def has_claim(dev: Spec) -> bool:
    """A device's ``ClaimRequest`` (inlined: ``claimName``, ``requestName``) is set."""
    return dev.get("claimName") is not None or dev.get("requestName") is not None


def _claim(name: Any, request: Any) -> dict[str, str]:
    out = {"name": str(name or "")}
    if request:
        out["request"] = str(request)
    return out


def _persistent_reservation(vmi: Spec) -> bool:
    for disk in traits.devices(vmi).get("disks") or ():
        if isinstance(disk, dict) and isinstance(disk.get("lun"), dict) and disk["lun"].get("reservation"):
            return True
    return False
