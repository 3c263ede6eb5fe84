"""NVIDIA Grace GPU passthrough (pkg/virt-api/webhooks/validating-webhook/admitters/grace_io_virtualization.go,
pkg/util/hardware/grace.go).

A GPU or host device is a Grace request when the cluster's ``permittedHostDevices.pciHostDevices`` give its
resource an exact NVIDIA Grace selector (vendor 10DE, device 2342, 2348 or 2941), ambiguous when the selector
is ``10DE:*``. Grace requests need the GraceIOVirtualization gate, arm64, a ``virt`` machine, dedicated CPUs,
the PCINUMAAwareTopology and IOMMUFD gates, and neither root-complex placement nor a disabled 64-bit hole.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..schema.fielderror import go_quote
from . import gates
from .cause import Cause, FieldPath, Spec

NVIDIA = "10DE"
GRACE_DEVICES = frozenset(("2342", "2348", "2941"))
HEX = frozenset("0123456789ABCDEF")
_SPEC = FieldPath.of("spec")  # a path is an immutable value: one will do
ROOT_COMPLEX = "kubevirt.io/placePCIDevicesOnRootComplex"
DISABLE_HOLE64 = "kubevirt.io/disablePCIHole64"


def _pci_id(text: str) -> str:
    """``NormalizePCIID``: trimmed, without a 0x prefix, upper case."""
    text = text.strip().upper()
    return text[2:] if text.startswith("0X") else text


def _selector(text: str) -> tuple[str, str] | None:
    """``ParsePCIVendorSelector``: ``vendor:device`` of four hex digits each (the device may be ``*``)."""
    parts = text.split(":")
    if len(parts) != 2:
        return None
    vendor, device = _pci_id(parts[0]), _pci_id(parts[1])
    if not _hex(vendor) or (device != "*" and not _hex(device)):
        return None
    return vendor, device


def _hex(text: str) -> bool:
    return len(text) == 4 and all(c in HEX for c in text)


def _requests(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> tuple[list[tuple[FieldPath, str]], ...]:
    """``gracePCIDeviceRequests``: the Grace requests and the ambiguous NVIDIA ones, GPUs first."""
    permitted = (cfg.raw.get("permittedHostDevices") or {}).get("pciHostDevices") or []
    selectors = {d["resourceName"]: d["pciVendorSelector"] for d in permitted
                 if isinstance(d, dict) and d.get("resourceName") and d.get("pciVendorSelector")}
    graces: list[tuple[FieldPath, str]] = []
    ambiguous: list[tuple[FieldPath, str]] = []
    if not selectors:
        return graces, ambiguous
    devices = (spec.get("domain") or {}).get("devices") or {}
    at = field.child("domain", "devices")
    for kind in ("gpus", "hostDevices"):
        for idx, device in enumerate(devices.get(kind) or []):
            name = (device or {}).get("deviceName") or ""
            parsed = _selector(selectors[name]) if name in selectors else None
            if parsed is None:
                continue
            request = (at.child(kind).index(idx).child("deviceName"), name)
            if parsed[0] == NVIDIA and parsed[1] in GRACE_DEVICES:
                graces.append(request)
            elif parsed[0] == NVIDIA and parsed[1] == "*":
                ambiguous.append(request)
    return graces, ambiguous


def _machine_type(spec: Spec, cfg: ClusterConfig, arch: str) -> str:
    """``effectiveGraceMachineType``: the spec's, else ``GetMachineType`` (unknown architectures as amd64)."""
    own = ((spec.get("domain") or {}).get("machine") or {}).get("type")
    if own:
        return str(own)
    return cfg.machine_type or cfg.arch_machine_types.get(arch if arch in ("arm64", "s390x") else "amd64", "")


def validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateGraceIOVirtualization``."""
    graces, ambiguous = _requests(field, spec, cfg)
    enabled = gates.is_enabled(cfg, "GraceIOVirtualization")
    causes = []
    if enabled:
        causes = [at.cause(f"GraceIOVirtualization requires an exact pciVendorSelector for NVIDIA PCI host device "
                           f"resource {go_quote(name)}") for at, name in ambiguous]
    if not graces:
        return causes
    if not enabled:
        return [*causes, *(at.cause(f"GraceIOVirtualization feature gate must be enabled for NVIDIA Grace GPU "
                                    f"passthrough resource {go_quote(name)}") for at, name in graces)]
    arch = spec.get("architecture") or cfg.default_architecture
    if arch != "arm64":
        causes.append(field.child("architecture").cause("GraceIOVirtualization requires arm64 architecture"))
    if not _machine_type(spec, cfg, arch).startswith("virt"):
        causes.append(field.child("domain", "machine", "type").cause(
            'GraceIOVirtualization requires "virt" machine type'))
    if not ((spec.get("domain") or {}).get("cpu") or {}).get("dedicatedCpuPlacement"):
        causes.append(field.child("domain", "cpu", "dedicatedCpuPlacement").cause(
            "GraceIOVirtualization requires dedicated CPU placement"))
    for gate in ("PCINUMAAwareTopology", "IOMMUFD"):
        if not gates.is_enabled(cfg, gate):
            causes.append(field.child("domain", "devices").cause(
                f"{gate} feature gate must be enabled when GraceIOVirtualization is used"))
    return causes


def annotation_causes(field: FieldPath, spec: Spec, notes: dict[str, Any], cfg: ClusterConfig) -> list[Cause]:
    """``validateGraceIOVirtualizationAnnotations``: Grace requests keep the PCI devices off the root complex
    and the 64-bit PCI hole on."""
    graces, _ = _requests(_SPEC, spec, cfg)
    if not graces:
        return []
    causes = []
    if notes.get(ROOT_COMPLEX) == "true":
        causes.append(field.child("annotations").key(ROOT_COMPLEX).cause(
            "GraceIOVirtualization is not compatible with placing PCI devices on the root complex"))
    if notes.get(DISABLE_HOLE64) == "true":
        causes.append(field.child("annotations").key(DISABLE_HOLE64).cause(
            "GraceIOVirtualization requires the 64-bit PCI hole"))
    return causes
