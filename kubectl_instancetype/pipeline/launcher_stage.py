"""The stage after the VMI controller: the virt-launcher Pod virt-controller renders for the VMI
(:mod:`kubectl_instancetype.launcher`), as a renderer of VMs like ``render_vmi``.

A Pod virt-controller cannot render is KubeVirt's error at the VM (stage ``pod``): a missing claim or
NetworkAttachmentDefinition, an unconfigured network binding, no StorageClass for backend storage.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..api.origin import Origins, named
from ..catalog.find import Lookup
from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..launcher import Cluster, PodResult, render_pod, with_vm_datavolumes
from ..launcher.settings import vm_state_storage_class
from ..launcher.volumes import BINDING, CLAIM, NETWORK, OTHER, STORAGE_CLASS
from ..records import dataclass
from .stages import render_vmi

Spec = dict[str, Any]
STAGE = "pod"
class PodRenderer(Protocol):
    """A renderer of VMs (the same call as ``render.VMRenderer``) whose output is the launcher Pod."""

    def __call__(self, vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
                 warnings: list[str] | None = None) -> Spec: ...


def pod_result(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, cluster: Cluster, image: str,
               warnings: list[str] | None = None, vmi_book: Origins | None = None, summary: bool = True
               ) -> PodResult:
    """The launcher Pod of ``vm`` (KubeVirtError when KubeVirt refuses the VM before its VMI exists);
    ``vmi_book`` gets the origins of the VMI's values."""
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    vmi = render_vmi(vm, namespace, catalog, cfg, vmi_book, warnings)
    return render_pod(vmi, with_vm_datavolumes(cluster, vm, namespace), cfg, image, summary=summary)


COMPUTE = ("spec", "containers", 0, "resources")
GUEST = ("spec", "domain", "memory", "guest")
CPU = ("spec", "domain", "cpu")


def record_origins(book: Origins, result: PodResult, vmi_book: Origins) -> None:
    """Where each request and limit of the compute container comes from (``render --pod --explain``): the
    rule of virt-controller's resource renderer, the VMI value it starts from and who set that (instancetype,
    preference, default), the memory overhead's parts."""
    if result.resources is None:
        return
    overhead = ""
    if result.overhead is not None:
        parts = ", ".join(f"{name} {value}" for name, value in result.overhead.parts)
        overhead = f"memory overhead {result.overhead.total.value()} bytes ({parts})"
        book.record(("metadata", "annotations", "kubevirt.io/memory-overhead-bytes"), named(overhead))
    guest, cpu = vmi_book.find(GUEST), vmi_book.find((*CPU, "cores")) or vmi_book.find((*CPU, "sockets"))
    for which, name, why in result.resources.origins:
        text = why.replace("memory overhead", overhead) if overhead else why
        if guest is not None and "guest memory" in text:
            text += f"; the guest memory: {guest.text()}"
        if cpu is not None and name == "cpu" and "vCPUs" in text:
            text += f"; the vCPUs: {cpu.text()}"
        book.record((*COMPUTE, which, name), named(text))


def pod_renderer(cluster: Cluster, image: str) -> PodRenderer:
    """A VM renderer (``render --pod``) whose output is the Pod; KubeVirtError for a Pod it cannot render."""

    def render(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
               warnings: list[str] | None = None) -> Spec:
        vmi_book = None if book is None else Origins()
        result = pod_result(vm, namespace, catalog, cfg, cluster, image, warnings, vmi_book, summary=False)
        if result.error is not None or result.pod is None:
            raise KubeVirtError(result.error or "no Pod", STAGE)
        if book is not None and vmi_book is not None:
            record_origins(book, result, vmi_book)
        return result.pod

    return render


@dataclass(frozen=True)
class Decidable:
    """Which of virt-controller's render errors the inputs can decide (``validate``): a missing claim only when
    the files hold PVCs or DataVolumes, a missing NetworkAttachmentDefinition only when they hold some, an
    unconfigured network binding only with a KubeVirt CR, no StorageClass for backend storage only when they
    hold StorageClasses or the CR names vmStateStorageClass; ``validate --pod`` decides them all."""

    reasons: frozenset[str]

    @staticmethod
    def of(cluster: Cluster, has_cr: bool, cfg: ClusterConfig, everything: bool = False) -> Decidable:
        if everything:
            return Decidable(frozenset((CLAIM, NETWORK, BINDING, STORAGE_CLASS, OTHER)))
        reasons = {OTHER}
        if cluster.has("PersistentVolumeClaim") or cluster.has("DataVolume"):
            reasons.add(CLAIM)
        if cluster.has("NetworkAttachmentDefinition"):
            reasons.add(NETWORK)
        if has_cr:
            reasons.add(BINDING)
        if cluster.has("StorageClass") or vm_state_storage_class(cfg):
            reasons.add(STORAGE_CLASS)
        return Decidable(frozenset(reasons))


def may_fail(vm: Spec, reasons: frozenset[str]) -> bool:
    """Whether ``vm`` could meet one of the render errors of ``reasons``, read off its template (so that
    ``validate`` renders the Pods of the VMs that name claims, Multus networks, bindings, persistent state or
    devices, not every VM's): a missing claim needs a claim, a missing NetworkAttachmentDefinition a Multus
    network, an unconfigured binding a binding, backend storage a persistent TPM or EFI (or a preference,
    which may ask for one); the other errors need devices, hooks or sysprep."""
    spec = ((vm.get("spec") or {}).get("template") or {}).get("spec") or {}
    if not isinstance(spec, dict):
        return False
    volumes = [v for v in spec.get("volumes") or () if isinstance(v, dict)]
    domain: Spec = spec["domain"] if isinstance(spec.get("domain"), dict) else {}
    devices: Spec = domain["devices"] if isinstance(domain.get("devices"), dict) else {}
    checks = {
        CLAIM: any(k in v for v in volumes for k in ("persistentVolumeClaim", "dataVolume", "ephemeral")),
        NETWORK: any(isinstance(n, dict) and "multus" in n for n in spec.get("networks") or ()),
        BINDING: any(isinstance(i, dict) and "binding" in i for i in devices.get("interfaces") or ()),
        STORAGE_CLASS: "preference" in (vm.get("spec") or {}) or "tpm" in devices
        or "persistent" in str(domain.get("firmware") or ""),
        OTHER: bool(devices.get("gpus") or devices.get("hostDevices")) or any("sysprep" in v for v in volumes)
        or "hooks.kubevirt.io/hookSidecars" in str((((vm.get("spec") or {}).get("template") or {})
                                                     .get("metadata") or {}).get("annotations") or ""),
    }
    return any(checks[reason] for reason in reasons if reason in checks)


def pod_checker(base: PodRenderer, cluster: Cluster, image: str, decidable: Decidable) -> PodRenderer:
    """``base`` (the VM or VMI renderer of ``validate``), and then the Pod: KubeVirtError when virt-controller
    could not render it and the inputs decide it. A VM its VMI webhooks refuse is ``validate --vmi``'s
    finding, not this one's."""

    def render(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
               warnings: list[str] | None = None) -> Spec:
        out = base(vm, namespace, catalog, cfg, book, warnings)
        if not may_fail(vm, decidable.reasons):
            return out
        try:
            result = pod_result(vm, namespace, catalog, cfg, cluster, image, summary=False)
        except KubeVirtError:
            return out
        if result.error is not None and result.reason in decidable.reasons:
            raise KubeVirtError(result.error, STAGE)
        return out

    return render
