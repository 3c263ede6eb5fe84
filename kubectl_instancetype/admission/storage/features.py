"""The storage features a cluster must switch on before a VMI may use them (vmi-create-admitter.go):
SCSI persistent reservation, the downward metrics device, virtiofs on storage volumes."""

from __future__ import annotations

from ...config import ClusterConfig
from .. import gates
from ..cause import Cause, FieldPath
from .spec import Obj, devices, disks, filesystems, is_set, mapping, text, volumes_by_name

PERSISTENT_RESERVATION = "PersistentReservation"


def persistent_reservation_enabled(cfg: ClusterConfig) -> bool:
    """``PersistentReservationEnabled``: ``persistentReservationConfiguration.enabled`` when set, else the gate
    named in the configuration (named, not merely GA: KubeVirt reads the list itself). Before v1.9.0 the gate
    alone (``isFeatureGateEnabled``)."""
    if not cfg.release.persistent_reservation_configuration:
        return gates.is_enabled(cfg, PERSISTENT_RESERVATION)
    enabled = mapping(cfg.raw.get("persistentReservationConfiguration")).get("enabled")
    if isinstance(enabled, bool):
        return enabled
    return PERSISTENT_RESERVATION in (mapping(cfg.raw.get("developerConfiguration")).get("featureGates") or ())


def persistent_reservation(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """``validatePersistentReservation``: a LUN asking for a reservation needs the feature."""
    wanted = False
    for disk in disks(spec):
        if is_set(disk, "lun") and mapping(disk.get("lun")).get("reservation") is True:
            wanted = True
            break
    if wanted and not persistent_reservation_enabled(cfg):
        at = field.child("domain", "devices", "disks", "luns", "reservation")
        if not cfg.release.persistent_reservation_configuration:
            return [at.cause(f"{PERSISTENT_RESERVATION} feature gate is not enabled in kubevirt-config")]
        return [at.cause("persistent reservation is not enabled in kubevirt config")]
    return []


def persistent_state(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """``validatePersistentState`` (v1.5 only: ``release.persistent_state_needs_gate``; VMPersistentState is GA
    from v1.6.0): a persistent TPM or EFI needs the VMPersistentState gate, one cause for each."""
    if not cfg.release.persistent_state_needs_gate or gates.is_enabled(cfg, "VMPersistentState"):
        return []
    tpm = devices(spec).get("tpm")
    tpm_persistent = tpm is not None and mapping(tpm).get("enabled") is not False and mapping(tpm).get(
        "persistent") is True
    efi = mapping(mapping(mapping(spec.get("domain")).get("firmware")).get("bootloader")).get("efi")
    message = "VMPersistentState feature gate is not enabled in kubevirt-config"
    causes = []
    if tpm_persistent:
        causes.append(field.child("domain", "devices", "tpm", "persistent").cause(message))
    if efi is not None and mapping(efi).get("persistent") is True:
        causes.append(field.child("domain", "firmware", "bootloader", "efi", "persistent").cause(message))
    return causes


def downward_metrics(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """``validateDownwardMetrics``: the downward metrics virtio serial device needs its gate."""
    if is_set(devices(spec), "downwardMetrics") and not gates.is_enabled(cfg, "DownwardMetrics"):
        at = field.child("domain", "devices", "downwardMetrics")
        return [at.cause("downwardMetrics virtio serial is not allowed: DownwardMetrics feature gate is not enabled")]
    return []


def virtiofs_filesystems(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """``validateFilesystemsWithVirtIOFSEnabled``: a filesystem on a PVC or DataVolume needs the gate (one
    cause per such filesystem, all naming the list)."""
    if not is_set(devices(spec), "filesystems"):
        return []
    by_name = volumes_by_name(spec)
    causes = []
    for fs in filesystems(spec):
        volume = by_name.get(text(fs.get("name")))
        if volume is None:
            continue
        storage = is_set(volume, "persistentVolumeClaim") or is_set(volume, "dataVolume")
        if not cfg.release.virtiofs_config_volumes_need_gate:
            if storage and not gates.is_enabled(cfg, "EnableVirtioFsStorageVolumes"):
                causes.append(field.child("domain", "devices", "filesystems").cause(
                    "virtiofs is not allowed: virtiofs feature gate is not enabled for PVC"))
            continue
        # before v1.8.0: config volumes need their gate too, and the old ExperimentalVirtiofsSupport opens both
        old = gates.is_enabled(cfg, "ExperimentalVirtiofsSupport")
        config = any(is_set(volume, k) for k in ("configMap", "secret", "serviceAccount", "downwardAPI"))
        if config and not gates.is_enabled(cfg, "EnableVirtioFsConfigVolumes") and not old:
            causes.append(field.child("domain", "devices", "filesystems").cause(
                "virtiofs is not allowed: virtiofs feature gate is not enabled for config volumes"))
        elif storage and not gates.is_enabled(cfg, "EnableVirtioFsStorageVolumes") and not old:
            causes.append(field.child("domain", "devices", "filesystems").cause(
                "virtiofs is not allowed: virtiofs feature gate is not enabled for PVC"))
    return causes
