"""Questions about a VMI that several of the Pod's renderers ask (``pkg/vmitrait``, ``pkg/util``,
``pkg/network/vmispec``, ``IsCPUDedicated`` and ``WantsToHaveQOSGuaranteed`` of the VMI type)."""

from __future__ import annotations

import functools
from typing import Any

from ..quantity import Quantity, QuantityError, from_json

Spec = dict[str, Any]
NON_ROOT_ANNOTATION = "kubevirt.io/nonroot"


def spec_of(vmi: Spec) -> Spec:
    return vmi.get("spec") or {}


def domain(vmi: Spec) -> Spec:
    return spec_of(vmi).get("domain") or {}


def devices(vmi: Spec) -> Spec:
    return domain(vmi).get("devices") or {}


def cpu(vmi: Spec) -> Spec | None:
    value = domain(vmi).get("cpu")
    return value if isinstance(value, dict) else None


def memory(vmi: Spec) -> Spec | None:
    value = domain(vmi).get("memory")
    return value if isinstance(value, dict) else None


def vmi_annotations(vmi: Spec) -> dict[str, str]:
    return (vmi.get("metadata") or {}).get("annotations") or {}


def labels(vmi: Spec) -> dict[str, str]:
    return (vmi.get("metadata") or {}).get("labels") or {}


def quantity(value: Any) -> Quantity | None:
    if value is None:
        return None
    try:
        return from_json(value)
    except QuantityError:
        return None


def resource_list(vmi: Spec, which: str) -> dict[str, Quantity]:
    """``spec.domain.resources.requests`` or ``limits`` as quantities (unparsable entries left out)."""
    raw = (domain(vmi).get("resources") or {}).get(which) or {}
    if not raw:
        return {}
    try:
        return dict(_parsed(tuple(raw.items())))
    except TypeError:  # a value that is no scalar
        return dict(_parse(raw.items()))


@functools.lru_cache(maxsize=4096)
def _parsed(items: tuple[tuple[Any, Any], ...]) -> tuple[tuple[str, Quantity], ...]:
    """The resource lists of a render's VMIs repeat: each is parsed once."""
    return tuple(_parse(items))


def _parse(items: Any) -> list[tuple[str, Quantity]]:
    out = []
    for name, value in items:
        q = quantity(value)
        if q is not None:
            out.append((str(name), q))
    return out


def vcpus(cpu_spec: Spec) -> int:
    """``hardware.GetNumberOfVCPUs``: cores × sockets × threads, each counted when set."""
    count = int(cpu_spec.get("cores") or 0)
    for key in ("sockets", "threads"):
        n = int(cpu_spec.get(key) or 0)
        if n:
            count = n if count == 0 else count * n
    return count


def is_cpu_dedicated(vmi: Spec) -> bool:
    return bool((cpu(vmi) or {}).get("dedicatedCpuPlacement"))


def wants_guaranteed_qos(vmi: Spec) -> bool:
    requests, limits = resource_list(vmi, "requests"), resource_list(vmi, "limits")
    zero = Quantity(0)
    mem_req, mem_lim = requests.get("memory", zero), limits.get("memory", zero)
    cpu_req, cpu_lim = requests.get("cpu", zero), limits.get("cpu", zero)
    return (not mem_req.is_zero() and mem_req.cmp(mem_lim) == 0
            and not cpu_req.is_zero() and cpu_req.cmp(cpu_lim) == 0)


def is_non_root(vmi: Spec) -> bool:
    """``vmitrait.IsNonRoot``: the deprecated annotation, or a non-zero runtime user in the status."""
    return NON_ROOT_ANNOTATION in vmi_annotations(vmi) or bool((vmi.get("status") or {}).get("runtimeUser"))


def has_vfio(vmi: Spec) -> bool:
    dev = devices(vmi)
    return bool(dev.get("hostDevices")) or bool(dev.get("gpus")) or any(
        isinstance(i, dict) and i.get("sriov") is not None for i in dev.get("interfaces") or ())


def launch_security(vmi: Spec) -> Spec | None:
    value = domain(vmi).get("launchSecurity")
    return value if isinstance(value, dict) else None


def is_sev(vmi: Spec) -> bool:
    ls = launch_security(vmi)
    return ls is not None and (ls.get("sev") is not None or ls.get("snp") is not None)


def is_sev_es(vmi: Spec) -> bool:
    ls = launch_security(vmi) or {}
    return ((ls.get("sev") or {}).get("policy") or {}).get("encryptedState") is True


def is_sev_snp(vmi: Spec) -> bool:
    ls = launch_security(vmi)
    return ls is not None and ls.get("snp") is not None


def is_tdx(vmi: Spec) -> bool:
    ls = launch_security(vmi)
    return ls is not None and ls.get("tdx") is not None


def is_secure_execution(vmi: Spec) -> bool:
    return launch_security(vmi) is not None and spec_of(vmi).get("architecture") == "s390x"


def has_tpm(vmi: Spec) -> bool:
    tpm = devices(vmi).get("tpm")
    return isinstance(tpm, dict) and tpm.get("enabled") is not False


def has_downward_metrics_disk(vmi: Spec) -> bool:
    return any(isinstance(v, dict) and v.get("downwardMetrics") is not None for v in spec_of(vmi).get("volumes") or ())


def has_hugepages(vmi: Spec) -> bool:
    return isinstance((memory(vmi) or {}).get("hugepages"), dict)


def interfaces(vmi: Spec) -> list[Spec]:
    return [i for i in devices(vmi).get("interfaces") or () if isinstance(i, dict)]


def networks(vmi: Spec) -> list[Spec]:
    return [n for n in spec_of(vmi).get("networks") or () if isinstance(n, dict)]


def volumes(vmi: Spec) -> list[Spec]:
    return [v for v in spec_of(vmi).get("volumes") or () if isinstance(v, dict)]


def requires_tun(vmi: Spec) -> bool:
    dev = devices(vmi)
    return bool(dev.get("interfaces")) or dev.get("autoattachPodInterface") is not False


def has_virtio_iface(vmi: Spec) -> bool:
    return any(i.get("model") in (None, "", "virtio") for i in interfaces(vmi))


def has_passt_binding(vmi: Spec) -> bool:
    return any(i.get("passtBinding") is not None for i in interfaces(vmi))


def autoattach_vsock(vmi: Spec) -> bool:
    return devices(vmi).get("autoattachVSOCK") is True


def has_virtiofs(vmi: Spec) -> bool:
    return any(isinstance(f, dict) and f.get("virtiofs") is not None for f in devices(vmi).get("filesystems") or ())


def kernel_boot_container(vmi: Spec) -> Spec | None:
    firmware = domain(vmi).get("firmware") or {}
    container = (firmware.get("kernelBoot") or {}).get("container")
    return container if isinstance(container, dict) else None
