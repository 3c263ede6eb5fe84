"""Defaults expansion adds around the appliers: default disks, the pod network, cluster defaults.

Sources: pkg/util/util.go (SetDefaultVolumeDisk), pkg/network/vmispec/defaults.go, and
pkg/defaults/defaults.go (SetDefaultVirtualMachineInstanceSpec) as configured by pkg/virt-config.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..config import ClusterConfig
from ..quantity import canonical, from_json

Spec = dict[str, Any]


def default_volume_disks(spec: Spec) -> None:
    """Give every volume without a disk or filesystem a bare disk of the same name."""
    volumes = spec.get("volumes") or []
    if not volumes:
        return
    devices = child(child(spec, "domain"), "devices")
    taken = {d.get("name") for d in devices.get("disks") or []}
    taken.update(f.get("name") for f in devices.get("filesystems") or [])
    added = [{"name": v.get("name")} for v in volumes if v.get("name") not in taken]
    if added:
        devices["disks"] = list(devices.get("disks") or []) + added


def default_pod_network(cfg: ClusterConfig, spec: Spec) -> str | None:
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
    spec["networks"] = [{"name": "default", "pod": {}}]
    return None


def cluster_defaults(cfg: ClusterConfig, spec: Spec) -> str | None:
    """KubeVirt's VMI spec defaults, in its order (pkg/defaults/defaults.go); the pod network's refusal."""
    if not spec.get("architecture"):
        spec["architecture"] = cfg.default_architecture
    domain = child(spec, "domain")
    machine = child(domain, "machine")
    if not machine.get("type"):
        machine["type"] = cfg.machine_type_for(spec["architecture"])
    _resource_requests(cfg, domain)
    _guest_memory(domain)
    _topology(domain)
    _image_pull_policy(spec)
    if spec.get("evictionStrategy") is None and cfg.eviction_strategy is not None:
        spec["evictionStrategy"] = cfg.eviction_strategy
    problem = default_pod_network(cfg, spec)
    if problem is not None:
        return problem
    default_volume_disks(spec)
    return None


def _quantity_nonzero(value: Any) -> bool:
    return value is not None and not from_json(value).is_zero()


def _resource_requests(cfg: ClusterConfig, domain: Spec) -> None:
    resources = domain.get("resources") or {}
    limits = resources.get("limits") or {}
    requests = resources.get("requests") or {}
    if _quantity_nonzero(limits.get("cpu")) and not _quantity_nonzero(requests.get("cpu")):
        child(child(domain, "resources"), "requests")["cpu"] = limits["cpu"]
    dedicated = (domain.get("cpu") or {}).get("dedicatedCpuPlacement") is True
    if canonical(cfg.cpu_request) != "100m" and not dedicated:
        requests = child(child(domain, "resources"), "requests")
        if "cpu" not in requests:
            requests["cpu"] = cfg.cpu_request


def _guest_memory(domain: Spec) -> None:
    memory = domain.get("memory")
    if isinstance(memory, dict) and memory.get("guest") is not None:
        return
    memory = child(domain, "memory")
    resources = domain.get("resources") or {}
    for source in (resources.get("requests") or {}, resources.get("limits") or {}):
        if _quantity_nonzero(source.get("memory")):
            memory["guest"] = source["memory"]
            return
    page_size = (memory.get("hugepages") or {}).get("pageSize")
    if page_size:
        memory["guest"] = page_size


def _topology(domain: Spec) -> None:
    cpu = domain.get("cpu")
    if isinstance(cpu, dict) and any(cpu.get(k) for k in ("cores", "sockets", "threads")):
        return
    cpu = child(domain, "cpu")
    resources = domain.get("resources") or {}
    sockets = 1
    for source in (resources.get("limits") or {}, resources.get("requests") or {}):
        if source.get("cpu") is not None:
            sockets = from_json(source["cpu"]).value()
            break
    cpu.update({"sockets": sockets, "cores": 1, "threads": 1})


def image_pull_policy(image: str) -> str:
    """``Always`` for ``:latest`` or untagged images, otherwise ``IfNotPresent``."""
    if image.endswith(":latest") or (":" not in image and "@" not in image):
        return "Always"
    return "IfNotPresent"


def _image_pull_policy(spec: Spec) -> None:
    for volume in spec.get("volumes") or []:
        disk = volume.get("containerDisk")
        if isinstance(disk, dict) and not disk.get("imagePullPolicy"):
            disk["imagePullPolicy"] = image_pull_policy(str(disk.get("image") or ""))
