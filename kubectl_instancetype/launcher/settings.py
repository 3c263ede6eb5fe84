"""What virt-controller's TemplateService reads of the cluster configuration (``pkg/virt-config``).

The KubeVirt CR is read once by :mod:`kubectl_instancetype.config` (its ``spec.configuration`` merged over
KubeVirt's defaults, kept in ``ClusterConfig.raw``); this module answers the questions the launcher Pod's
render asks of it, with virt-config's defaults where the CR is silent.
"""

from __future__ import annotations

from typing import Any

from ..admission.gates import is_enabled
from ..config import ClusterConfig
from ..quantity import Quantity, QuantityError, from_json

DEFAULT_CPU_ALLOCATION_RATIO = 10
DEFAULT_DISK_MEMORY_LIMIT = 2000 * 1024 * 1024  # DefaultDiskVerificationMemoryLimitBytes
DEFAULT_OVMF = {"amd64": "/usr/share/OVMF", "arm64": "/usr/share/AAVMF", "s390x": ""}
DEFAULT_LAUNCHER_VERBOSITY = 2


def _section(conf: dict[str, Any], *path: str) -> dict[str, Any]:
    node: Any = conf
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def developer(cfg: ClusterConfig) -> dict[str, Any]:
    return _section(cfg.raw, "developerConfiguration")


def gate(cfg: ClusterConfig, name: str) -> bool:
    """Whether feature gate ``name`` is on (its state at the configured release)."""
    return is_enabled(cfg, name)


def cpu_allocation_ratio(cfg: ClusterConfig) -> int:
    value = developer(cfg).get("cpuAllocationRatio", DEFAULT_CPU_ALLOCATION_RATIO)
    return int(value) if isinstance(value, int) else DEFAULT_CPU_ALLOCATION_RATIO


def overhead_ratio(cfg: ClusterConfig) -> str | None:
    """``additionalGuestMemoryOverheadRatio`` as written (a decimal string)."""
    value = cfg.raw.get("additionalGuestMemoryOverheadRatio")
    return value if isinstance(value, str) else None


def allow_emulation(cfg: ClusterConfig) -> bool:
    return developer(cfg).get("useEmulation") is True


def node_selectors(cfg: ClusterConfig) -> dict[str, str]:
    value = developer(cfg).get("nodeSelectors")
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def minimum_tsc_frequency(cfg: ClusterConfig) -> int | None:
    value = developer(cfg).get("minimumClusterTSCFrequency")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def disk_memory_limit(cfg: ClusterConfig) -> int:
    limit = _section(developer(cfg), "diskVerification").get("memoryLimit")
    if limit is None:
        return DEFAULT_DISK_MEMORY_LIMIT
    try:
        return from_json(limit).value()
    except QuantityError:
        return DEFAULT_DISK_MEMORY_LIMIT


def ovmf_path(cfg: ClusterConfig, arch: str) -> str:
    """``GetOVMFPath``: the deprecated global path, else the architecture's (amd64's for any other)."""
    old = cfg.raw.get("ovmfPath")
    if isinstance(old, str) and old:
        return old
    arch = arch if arch in ("arm64", "s390x") else "amd64"
    value = _section(cfg.raw, "architectureConfiguration", arch).get("ovmfPath")
    return value if isinstance(value, str) else DEFAULT_OVMF[arch]


def hypervisor(cfg: ClusterConfig) -> str:
    value = _section(cfg.raw, "hypervisorConfiguration").get("name") or _section(cfg.raw, "hypervisor").get("name")
    return value if isinstance(value, str) and value else "kvm"


def launcher_verbosity(cfg: ClusterConfig) -> int:
    value = _section(cfg.raw, "developerConfiguration", "logVerbosity").get("virtLauncher")
    return value if isinstance(value, int) and value > 0 else DEFAULT_LAUNCHER_VERBOSITY


def image_pull_policy(cfg: ClusterConfig) -> str:
    return cfg.image_pull_policy or "IfNotPresent"


def default_runtime_class(cfg: ClusterConfig) -> str:
    value = cfg.raw.get("defaultRuntimeClass")
    return value if isinstance(value, str) else ""


def selinux_launcher_type(cfg: ClusterConfig) -> str:
    value = cfg.raw.get("selinuxLauncherType")
    return value if isinstance(value, str) else ""


def vm_state_storage_class(cfg: ClusterConfig) -> str:
    value = cfg.raw.get("vmStateStorageClass")
    return value if isinstance(value, str) else ""


def network_bindings(cfg: ClusterConfig) -> dict[str, dict[str, Any]]:
    """``network.binding``: the registered network binding plugins by name."""
    value = _section(cfg.raw, "network").get("binding")
    return {str(k): v for k, v in value.items() if isinstance(v, dict)} if isinstance(value, dict) else {}


def support_container(cfg: ClusterConfig, kind: str, which: str, resource: str) -> Quantity | None:
    """``GetSupportContainerRequest``/``Limit``: the first non-zero quantity configured for ``kind``."""
    for entry in cfg.raw.get("supportContainerResources") or ():
        if not isinstance(entry, dict) or entry.get("type") != kind:
            continue
        value = _section(entry, "resources", which).get(resource)
        if value is None:
            continue
        try:
            quantity = from_json(value)
        except QuantityError:
            continue
        if not quantity.is_zero():
            return quantity
    return None


def seccomp_profile(cfg: ClusterConfig) -> dict[str, Any] | None:
    """The Pod's seccomp profile from ``seccompConfiguration.virtualMachineInstanceProfile.customProfile``."""
    custom = _section(cfg.raw, "seccompConfiguration", "virtualMachineInstanceProfile", "customProfile")
    if not custom:
        return None
    if custom.get("localhostProfile") is not None:
        return {"type": "Localhost", "localhostProfile": custom["localhostProfile"]}
    if custom.get("runtimeDefaultProfile") is True:
        return {"type": "RuntimeDefault"}
    return None


def permitted_host_devices(cfg: ClusterConfig) -> dict[str, Any] | None:
    value = cfg.raw.get("permittedHostDevices")
    return value if isinstance(value, dict) else None


def auto_cpu_limit_selector(cfg: ClusterConfig) -> dict[str, Any] | None:
    value = cfg.raw.get("autoCPULimitNamespaceLabelSelector")
    return value if isinstance(value, dict) else None
