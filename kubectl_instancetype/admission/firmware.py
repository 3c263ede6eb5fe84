"""Firmware, boot and launch security (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go:
``validateFirmwareACPI``, ``validateDomainSpec`` with ``validateFirmware``, ``validateBootloader`` and
``validateKernelBoot``, ``validateLaunchSecurity``; pkg/virt-api/webhooks/amd64.go: ``ValidateLaunchSecurityAmd64``).

KubeVirt names the ACPI table checks' field ``spec.acpi`` (``field.Child("acpi")`` on the spec, not on the
firmware); the causes keep that spelling and are located at ``domain.firmware.acpi``.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ..config import ClusterConfig
from . import disks, gates
from .cause import Cause, FieldPath, Spec

PAUSED = "Paused"


def acpi(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateFirmwareACPI``: an ACPI section names a SLIC or MSDM table, each a Secret volume."""
    table = (_domain(spec).get("firmware") or {}).get("acpi")
    if table is None:
        return []
    where = (*field.keys, "domain", "firmware", "acpi")
    at = FieldPath(where, field.child("acpi").text)
    slic, msdm = table.get("slicNameRef") or "", table.get("msdmNameRef") or ""
    if not slic and not msdm:
        return [at.cause("ACPI was set but no SLIC nor MSDM volume reference was set")]
    volumes = spec.get("volumes") or []
    return [*_acpi_ref(at, slic, volumes, "slicNameRef"), *_acpi_ref(at, msdm, volumes, "msdmNameRef")]


def _acpi_ref(at: FieldPath, name: str, volumes: list[Any], key: str) -> list[Cause]:
    if not name:
        return []
    for volume in volumes:
        if (volume or {}).get("name") != name:
            continue
        if volume.get("secret") is not None:
            return []
        return [at.child(key).cause(f"{at} refers to Volume of unsupported type.")]
    return [at.child(key).cause(f"{at} does not have a matching Volume.")]


def domain(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateDomainSpec``: the disks (SIG-Storage's ``ValidateDisks``), the bootloader and kernel boot,
    and SecureBoot's need for SMM (not under TDX, whose firmware is stateless)."""
    at = field.child("domain")
    dom = _domain(spec)
    firmware = dom.get("firmware")
    causes = disks.validate_disks(at.child("devices", "disks"), list((dom.get("devices") or {}).get("disks") or []),
                                  cfg)
    if firmware is not None:
        causes.extend(_bootloader(at, firmware.get("bootloader")))
        kernel_boot = firmware.get("kernelBoot")
        if kernel_boot is not None:
            causes.extend(_kernel_boot(at.child("firmware", "kernelBoot"), kernel_boot))
    tdx = (dom.get("launchSecurity") or {}).get("tdx") is not None and cfg.release.tdx_secure_boot_needs_no_smm
    if secure_boot_enabled(firmware) and not smm_enabled(dom.get("features")) and not tdx:
        causes.append(at.cause(f"{at} has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently "
                               "disabled."))
    return causes


def efi(firmware: Any) -> dict[str, Any] | None:
    """The EFI bootloader of a firmware section, or None."""
    bootloader = (firmware or {}).get("bootloader") or {}
    return bootloader.get("efi")


def secure_boot_enabled(firmware: Any) -> bool:
    """``secureBootEnabled``: EFI boot whose ``secureBoot`` is unset or true."""
    loader = efi(firmware)
    return loader is not None and loader.get("secureBoot") in (None, True)


def smm_enabled(features: Any) -> bool:
    """``smmFeatureEnabled``: an SMM feature whose ``enabled`` is unset or true."""
    smm = (features or {}).get("smm")
    return smm is not None and smm.get("enabled") in (None, True)


def _bootloader(domain: FieldPath, bootloader: Any) -> list[Cause]:
    if bootloader is not None and bootloader.get("efi") is not None and bootloader.get("bios") is not None:
        at = domain.child("firmware", "bootloader")
        return [at.cause(f"{at} has both EFI and BIOS configured, but they are mutually exclusive.")]
    return []


def _kernel_boot(at: FieldPath, kernel_boot: Any) -> list[Cause]:
    """``validateKernelBoot``: kernel arguments need a container, which names an image and a kernel or
    initrd path, each absolute and clean."""
    if kernel_boot is None:
        return []
    container = kernel_boot.get("container")
    if container is None:
        if kernel_boot.get("kernelArgs"):
            return [at.child("kernelArgs").cause("kernel arguments cannot be provided without an external kernel")]
        return []
    here = at.child("container")
    causes = []
    if not container.get("image"):
        causes.append(here.child("image").cause(f"{here} must be defined with an image"))
    kernel, initrd = container.get("kernelPath") or "", container.get("initrdPath") or ""
    if not kernel and not initrd:
        causes.append(here.cause(f"{here} must be defined with at least one of the following: kernelPath, initrdPath"))
    if kernel:
        causes.extend(_path(here.child("kernelPath"), kernel))
    if initrd:
        causes.extend(_path(here.child("initrdPath"), initrd))
    return causes


def _path(at: FieldPath, path: str) -> list[Cause]:
    """SIG-Storage's ``ValidatePath`` (pkg/storage/admitters/disks.go): not the root, absolute and clean."""
    if path == "/":
        return [at.cause(f"{at} must not point to root")]
    cleaned = posixpath.normpath("/" + path)
    if cleaned.startswith("//"):  # Go's path.Clean keeps one leading slash; normpath keeps two
        cleaned = cleaned[1:]
    if cleaned != path.removesuffix("/"):  # TrimSuffix: one slash only
        return [at.cause(f"{at} must be an absolute path to a file without relative components")]
    return []


def launch_security(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateLaunchSecurity``: amd64's checks, none on s390x (Secure Execution), else refused."""
    if _domain(spec).get("launchSecurity") is None:
        return []
    if not cfg.release.launch_security_per_architecture:
        return _before_v1_7(field, spec, cfg)
    arch = spec.get("architecture") or ""
    if arch == "amd64":
        return _amd64(field, spec, cfg)
    if arch == "s390x":
        # ValidateLaunchSecurityS390x (v1.7-v1.8): the SecureExecution gate (Beta, off unless named there)
        if cfg.release.s390x_launch_security_needs_gate and not gates.is_enabled(cfg, "SecureExecution"):
            at = FieldPath((*field.keys, "domain", "launchSecurity"), field.child("launchSecurity").text)
            return [at.cause("SecureExecution feature gate is not enabled in kubevirt-config")]
        return []
    return [field.child("architecture").cause(f"No launchSecurity support for architecture: {arch}")]


def _before_v1_7(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateLaunchSecurity`` of v1.5 and v1.6: SEV only, whatever the architecture. v1.6 first refuses
    s390x without the SecureExecution gate, and asks the SEV gate only of SEV; v1.5 asks it of any
    launchSecurity (``release.launch_security_checks_secure_execution``)."""
    dom = _domain(spec)
    sev = dom["launchSecurity"].get("sev")
    at = FieldPath((*field.keys, "domain", "launchSecurity"), field.child("launchSecurity").text)
    causes = []
    if cfg.release.launch_security_checks_secure_execution:
        if spec.get("architecture") == "s390x" and not gates.is_enabled(cfg, "SecureExecution"):
            causes.append(at.cause("SecureExecution feature gate is not enabled in kubevirt-config"))
        gate_missing = sev is not None and not gates.is_enabled(cfg, "WorkloadEncryptionSEV")
    else:
        gate_missing = not gates.is_enabled(cfg, "WorkloadEncryptionSEV")
    if gate_missing:
        return [*causes, at.cause("WorkloadEncryptionSEV feature gate is not enabled in kubevirt-config")]
    if sev is None:
        return causes
    firmware = dom.get("firmware")
    if efi(firmware) is None:
        causes.append(at.cause("SEV requires OVMF (UEFI)"))
    elif secure_boot_enabled(firmware):
        causes.append(at.cause("SEV does not work along with SecureBoot"))
    if (sev or {}).get("attestation") is not None and spec.get("startStrategy") != "Paused":
        causes.append(at.cause("SEV attestation requires VMI StartStrategy 'Paused'"))
    for iface in ((dom.get("devices") or {}).get("interfaces") or []):
        if (iface or {}).get("bootOrder") is not None:
            causes.append(at.cause(f"SEV does not work with bootable NICs: {(iface or {}).get('name') or ''}"))
    return causes


def _amd64(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateLaunchSecurityAmd64``: one type, its gate, then its firmware, start and boot constraints."""
    dom = _domain(spec)
    security = dom["launchSecurity"]
    at = field.child("domain", "launchSecurity")
    at = FieldPath(at.keys, field.child("launchSecurity").text)  # KubeVirt's path skips the domain
    sev, snp, tdx = (security.get(k) is not None for k in ("sev", "snp", "tdx"))
    selected = [name for name, on in (("SEV", sev), ("SNP", snp), ("TDX", tdx)) if on]
    if len(selected) != 1:
        return [at.cause("One and only one launchSecurity type can be set")]
    kind = selected[0]
    gate = "WorkloadEncryptionTDX" if tdx else "WorkloadEncryptionSEV"
    if not gates.is_enabled(cfg, gate):
        return [at.cause(f"{gate} feature gate is not enabled in kubevirt-config")]
    causes = []
    if tdx and smm_enabled(dom.get("features")):
        causes.append(at.cause("TDX does not work along with SMM"))
    loader = efi(dom.get("firmware"))
    if loader is None:
        causes.append(at.cause(f"{kind} requires OVMF (UEFI)"))
    else:
        if (sev or snp) and loader.get("secureBoot") in (None, True):
            causes.append(at.cause(f"{kind} does not work along with SecureBoot"))
        if (snp or tdx) and loader.get("persistent") is True:
            causes.append(at.cause(f"{kind} does not work along with Persistent EFI variables"))
    if sev and spec.get("startStrategy") != PAUSED and security["sev"].get("attestation") is not None:
        causes.append(at.cause(f"SEV attestation requires VMI StartStrategy '{PAUSED}'"))
    for iface in (dom.get("devices") or {}).get("interfaces") or []:
        if iface.get("bootOrder") is not None:
            causes.append(at.cause(f"{kind} does not work with bootable NICs: {iface.get('name') or ''}"))
    return causes


def _domain(spec: Spec) -> dict[str, Any]:
    return spec.get("domain") or {}
