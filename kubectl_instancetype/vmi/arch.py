"""Architecture-specific VMI defaults (pkg/defaults/{amd64,arm64,s390x}.go).

amd64 (and any architecture KubeVirt does not special-case): SATA disks, a cluster or ``host-model``
CPU model, an i6300esb watchdog. arm64: virtio disks, ``host-passthrough``, UEFI without Secure Boot unless
the EFI boot loader says. s390x: virtio disks, ACPI off, a diag288 watchdog.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Origin, Trace, named
from ..config import ClusterConfig

Spec = dict[str, Any]

DEFAULT_CPU_MODEL = "host-model"
ARM64_CPU_MODEL = "host-passthrough"
_DISK_BUS = {"arm64": "virtio", "s390x": "virtio"}
_WATCHDOG = {"s390x": "diag288", "arm64": ""}


def set_arch_features(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """s390x has no ACPI: switch it off unless the VM says otherwise (runs before the API defaults)."""
    if spec.get("architecture") != "s390x":
        return
    acpi = child(child(child(spec, "domain"), "features"), "acpi")
    if acpi.get("enabled") is None:
        acpi["enabled"] = False
        trace.set(("domain", "features", "acpi", "enabled"), named("KubeVirt default for s390x (no ACPI)"))


def set_arch_defaults(spec: Spec, cfg: ClusterConfig, trace: Trace = NO_TRACE) -> None:
    """Disk buses, the CPU model, the arm64 boot loader and the watchdog action for the architecture."""
    arch = str(spec.get("architecture") or "")
    domain = child(spec, "domain")
    bus = _DISK_BUS.get(arch, "sata")
    for index, disk in enumerate(child(domain, "devices").get("disks") or []):
        for target in ("disk", "cdrom", "lun"):
            device = disk.get(target)
            if isinstance(device, dict) and not device.get("bus"):
                device["bus"] = bus
                if trace.on:
                    trace.set(("domain", "devices", "disks", index, target, "bus"),
                              named(f"VMI default disk bus ({arch or 'amd64'})"))
    cpu = child(domain, "cpu")
    if not cpu.get("model"):
        cpu["model"] = ARM64_CPU_MODEL if arch == "arm64" else cfg.cpu_model or DEFAULT_CPU_MODEL
        if trace.on:
            trace.set(("domain", "cpu", "model"), _cpu_model_origin(arch, cfg))
    if arch == "arm64":
        _uefi_boot(domain, trace, cfg.release.arm64_efi_secure_boot_off)
    _watchdog_action(domain, _WATCHDOG.get(arch, "i6300esb"), trace)


def _cpu_model_origin(arch: str, cfg: ClusterConfig) -> Origin:
    if arch == "arm64":
        return named("VMI default CPU model (arm64)")
    if cfg.cpu_model:
        return named("cluster CPU model", "cpuModel")
    return named("VMI default CPU model")


def _uefi_boot(domain: Spec, trace: Trace, efi_secure_boot_off: bool = True) -> None:
    """UEFI without Secure Boot when no boot loader is chosen; from v1.8.3 and v1.9.0 an EFI boot loader that
    does not say gets ``secureBoot: false`` too (pkg/defaults/arm64.go ``setDefaultArm64Bootloader``). A BIOS
    one stays."""
    firmware = child(domain, "firmware")
    if firmware.get("bootloader") is None:
        firmware["bootloader"] = {"efi": {"secureBoot": False}}
        trace.set(("domain", "firmware", "bootloader"), named("VMI default boot loader (arm64: UEFI)"))
        return
    efi = firmware["bootloader"].get("efi")
    if efi_secure_boot_off and isinstance(efi, dict) and efi.get("secureBoot") is None:
        efi["secureBoot"] = False
        trace.set(("domain", "firmware", "bootloader", "efi", "secureBoot"),
                  named("VMI default Secure Boot (arm64: off)"))


def _watchdog_action(domain: Spec, model: str, trace: Trace) -> None:
    watchdog = (domain.get("devices") or {}).get("watchdog")
    if not model or not isinstance(watchdog, dict):
        return
    device = child(watchdog, model)  # created here with its action
    if not device.get("action"):
        device["action"] = "reset"
        trace.set(("domain", "devices", "watchdog", model, "action"), named("VMI default watchdog action (reset)"))
