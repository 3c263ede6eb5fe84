"""The VMI webhook's checks per architecture (``ValidateVirtualMachineInstancePerArch`` in
pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go; the settings in
pkg/virt-api/webhooks/{amd64,arm64,s390x}.go): watchdog and video models, and on arm64 the firmware, CPU
model, disk buses and sound. Each architecture's checks are listed in KubeVirt's order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.releases import DEFAULT, Release
from .cause import Cause, FieldPath, Spec
from .resources import cpu, domain, section

ArchCheck = Callable[[FieldPath, Spec], list[Cause]]
HOST_PASSTHROUGH = "host-passthrough"
ARM64_BUSES = ("", "virtio", "scsi")
ARM64_BUS = "Arm64 not support this disk bus type, please use virtio or scsi"


def _devices(spec: Spec) -> dict[str, Any]:
    return section(domain(spec), "devices") or {}


def _video(models: tuple[str, ...], arch: str) -> ArchCheck:
    """``validateVideoType<Arch>``: a video device's type is one the architecture offers."""
    def check(field: FieldPath, spec: Spec) -> list[Cause]:
        video = section(_devices(spec), "video")
        if video is None:
            return []
        kind = video.get("type") or ""
        if kind in models:
            return []
        at = field.child("domain", "devices", "video").child("type")
        return [at.cause(f"video model '{kind}' is not supported on {arch} architecture")]
    return check


def _watchdog(wanted: str, other: str, message: str) -> ArchCheck:
    """``validateWatchdog<Arch>``: a watchdog is only the architecture's device."""
    def check(field: FieldPath, spec: Spec) -> list[Cause]:
        watchdog = section(_devices(spec), "watchdog")
        if watchdog is None or (watchdog.get(wanted) is not None and watchdog.get(other) is None):
            return []
        return [field.child("domain", "devices", "watchdog").cause(message)]
    return check


def _arm64_bios(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateBootOptions``."""
    bootloader = section(section(domain(spec), "firmware") or {}, "bootloader") or {}
    if bootloader.get("bios") is None:
        return []
    at = field.child("domain", "firmware", "bootloader", "bios")
    return [at.cause("Arm64 does not support bios boot, please change to uefi boot")]


def _arm64_cpu_model(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateCPUModel``."""
    model = (cpu(spec) or {}).get("model") or ""
    if model in ("", HOST_PASSTHROUGH):
        return []
    at = field.child("domain", "cpu", "model")
    return [at.cause(f"currently, {HOST_PASSTHROUGH} is the only model supported on Arm64")]


def _arm64_disk_bus(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateDiskBus``: disks, CD-ROMs and LUNs on virtio or SCSI."""
    causes = []
    for i, disk in enumerate(_devices(spec).get("disks") or []):
        disk = disk if isinstance(disk, dict) else {}
        for kind in ("disk", "cdrom", "lun"):
            target = disk.get(kind)
            if isinstance(target, dict) and (target.get("bus") or "") not in ARM64_BUSES:
                causes.append(field.child("domain", "devices", "disks").index(i).child(kind, "bus").cause(ARM64_BUS))
    return causes


def _arm64_watchdog(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateWatchdog``: no watchdog at all."""
    if section(_devices(spec), "watchdog") is None:
        return []
    return [field.child("domain", "devices", "watchdog").cause("Arm64 not support Watchdog device")]


def _arm64_sound(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateSoundDevice``."""
    if section(_devices(spec), "sound") is None:
        return []
    return [field.child("domain", "devices", "sound").cause("Arm64 not support sound device")]


CHECKS: dict[str, tuple[ArchCheck, ...]] = {
    "amd64": (
        _watchdog("i6300esb", "diag288", "amd64 only supports I6300ESB watchdog device"),
        _video(("vga", "cirrus", "virtio", "ramfb", "bochs"), "amd64"),
    ),
    "s390x": (
        _watchdog("diag288", "i6300esb", "s390x only supports Diag288 watchdog device"),
        _video(("virtio",), "s390x"),
    ),
    "arm64": (
        _arm64_bios,
        _arm64_cpu_model,
        _arm64_disk_bus,
        _arm64_watchdog,
        _arm64_sound,
        _video(("virtio", "ramfb"), "arm64"),
    ),
}


def _arm64_secure_boot(field: FieldPath, spec: Spec) -> list[Cause]:
    """``validateBootOptions`` up to v1.8.2 (``release.arm64_refuses_efi_secure_boot``): an EFI boot loader whose
    secureBoot is unset or true is refused."""
    bootloader = section(section(domain(spec), "firmware") or {}, "bootloader") or {}
    efi = bootloader.get("efi")
    if not isinstance(efi, dict) or efi.get("secureBoot") is False:
        return []
    at = field.child("domain", "firmware", "bootloader", "efi", "secureboot")
    return [at.cause("UEFI secure boot is currently not supported on aarch64 Arch")]


def validate(field: FieldPath, spec: Spec, release: Release = DEFAULT) -> list[Cause]:
    """The checks of the spec's architecture (as ``release`` makes them); any other architecture is refused."""
    arch = spec.get("architecture") or ""
    checks = CHECKS.get(arch) if isinstance(arch, str) else None
    if checks is None:
        return [field.child("architecture").cause(f"unsupported architecture: {arch}")]
    if arch == "arm64" and release.arm64_refuses_efi_secure_boot:
        at = checks.index(_arm64_bios) + 1
        checks = (*checks[:at], _arm64_secure_boot, *checks[at:])
    return [cause for check in checks for cause in check(field, spec)]
