"""The memory virt-launcher needs beside the guest's: ``CalculateMemoryOverhead``.

``pkg/hypervisor/kvm/hypervisorbackend.go`` ``GetMemoryOverhead`` (page tables, the launcher's processes,
per-vCPU memory, graphics, arm64, VFIO, probes, SEV, TPM, dedicated CPUs, a reserved overhead, then the
cluster's ``additionalGuestMemoryOverheadRatio``), plus the network's
(``pkg/network/resources/memory.go``: passt, and the binding plugins' ``computeResourceOverhead``).
Each addend is kept as a named part, so ``--explain`` can say what the overhead is made of.
"""

from __future__ import annotations

import functools
from typing import Any

from ..config import ClusterConfig
from ..quantity import Quantity
from ..records import dataclass
from . import settings, traits
from .arith import ZERO, add, must, scaled, with_value

Spec = dict[str, Any]


@dataclass(frozen=True)
class Overhead:
    """The overhead and its addends, in KubeVirt's order (name, quantity)."""

    total: Quantity
    parts: tuple[tuple[str, Quantity], ...]


def memory_overhead(vmi: Spec, cfg: ClusterConfig) -> Overhead:
    """``CalculateMemoryOverhead`` for ``vmi`` under ``cfg``."""
    parts: list[tuple[str, Quantity]] = []
    total = scaled(0, 3)

    def plus(name: str, q: Quantity) -> None:
        nonlocal total
        parts.append((name, q))
        total = add(total, q)

    request = traits.resource_list(vmi, "requests").get("memory", ZERO)
    pagetable = scaled(kilo_value(request), 3)
    plus("page tables (memory request / 512)", with_value(pagetable, pagetable.value() // 512))
    for name, q in _processes(cfg.release.qemu_overhead_50mi):
        plus(name, q)
    vcpus = _vcpus(vmi)
    plus(f"vCPUs ({vcpus} × 8Mi)", Quantity(8 * 1024 * 1024 * vcpus, 0, "BinarySI"))
    plus("IOThread and other QEMU overhead", must("8Mi"))
    release = cfg.release
    if traits.devices(vmi).get("autoattachGraphicsDevice") is not False:
        plus("graphics device", must("32Mi" if release.graphics_overhead_32mi else "16Mi"))
    arch = traits.spec_of(vmi).get("architecture") or cfg.default_architecture
    if arch == "arm64":
        plus("arm64 UEFI and page tables", must("128Mi"))
    if traits.has_vfio(vmi):
        plus("VFIO devices (host devices, GPUs, SR-IOV)", must("1Gi"))
    if traits.has_downward_metrics_disk(vmi):
        plus("downward metrics disk", must("1Mi"))
    _probes(vmi, plus)
    if traits.is_sev(vmi) or traits.is_sev_snp(vmi) or traits.is_sev_es(vmi):
        plus("SEV", must("256Mi"))
    tpm = traits.devices(vmi).get("tpm")
    if traits.has_tpm(vmi) or (tpm is not None and not release.tpm_overhead_needs_enabled):
        plus("TPM (swtpm)", must("53Mi"))
    dedicated = traits.is_cpu_dedicated(vmi) or traits.wants_guaranteed_qos(vmi)
    if dedicated and not release.dedicated_overhead_after_ratio:
        plus("dedicated CPUs or guaranteed QoS", must("100Mi"))
    reserved = ((traits.memory(vmi) or {}).get("reservedOverhead") or {}).get("addedOverhead")
    added = traits.quantity(reserved)
    if added is not None and release.reserved_overhead:
        plus("memory.reservedOverhead.addedOverhead", added)
    ratio_text = settings.overhead_ratio(cfg)
    if ratio_text:
        try:
            ratio = float(ratio_text)
        except ValueError:
            ratio = None
        if ratio is not None:
            addition = int(float(kilo_value(total)) * (ratio - 1.0))
            plus(f"additionalGuestMemoryOverheadRatio {ratio_text}", scaled(addition, 3))
    if dedicated and release.dedicated_overhead_after_ratio:
        plus("dedicated CPUs or guaranteed QoS", must("100Mi"))
    _network(vmi, cfg, plus)
    return Overhead(total, tuple(parts))


@functools.cache
def _processes(qemu_50mi: bool) -> tuple[tuple[str, Quantity], ...]:
    """The launcher's processes (the ``ps`` RSS KubeVirt measured for each)."""
    return (("virt-launcher-monitor", must("25Mi")), ("virt-launcher", must("100Mi")), ("virtlogd", must("25Mi")),
            ("virtqemud", must("40Mi")), ("qemu", must("50Mi" if qemu_50mi else "30Mi")))


def kilo_value(q: Quantity) -> int:
    """``ScaledValue(resource.Kilo)``: thousands, rounded away from zero."""
    if q.scale >= 3:
        return q.unscaled * 10 ** (q.scale - 3)
    quotient, remainder = divmod(abs(q.unscaled), 10 ** (3 - q.scale))
    return (1 if q.unscaled >= 0 else -1) * (quotient + (remainder != 0))


def _vcpus(vmi: Spec) -> int:
    cpu_spec = traits.cpu(vmi)
    if cpu_spec is not None:
        count = traits.vcpus(cpu_spec)
    else:
        limits, requests = traits.resource_list(vmi, "limits"), traits.resource_list(vmi, "requests")
        chosen = limits.get("cpu") or requests.get("cpu")
        count = chosen.value() if chosen is not None else 0
    return max(count, 1)


def _probes(vmi: Spec, plus: Any) -> None:
    spec = traits.spec_of(vmi)
    liveness = isinstance(spec.get("livenessProbe"), dict) and spec["livenessProbe"].get("exec") is not None
    readiness = isinstance(spec.get("readinessProbe"), dict) and spec["readinessProbe"].get("exec") is not None
    if liveness:
        plus("liveness probe (virt-probe)", must("10Mi"))
    if readiness:
        plus("readiness probe (virt-probe)", must("10Mi"))
    if liveness or readiness:
        plus("exec probes", must("100Mi"))


def _network(vmi: Spec, cfg: ClusterConfig, plus: Any) -> None:
    """``netresources.MemoryCalculator``: passt, then each distinct registered binding plugin once."""
    net = ZERO
    if traits.has_passt_binding(vmi):
        net = add(net, must("250Mi"))
    plugins = settings.network_bindings(cfg)
    seen: set[str] = set()
    for iface in traits.interfaces(vmi):
        name = (iface.get("binding") or {}).get("name") if isinstance(iface.get("binding"), dict) else None
        if name is None or name in seen or name not in plugins:
            continue
        seen.add(name)
        requests = (plugins[name].get("computeResourceOverhead") or {}).get("requests") or {}
        q = traits.quantity(requests.get("memory"))
        net = add(net, q if q is not None else ZERO)
    if not net.is_zero():  # a zero Quantity added changes nothing
        plus("network binding (passt, plugins' computeResourceOverhead)", net)
