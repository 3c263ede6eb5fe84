"""The disks half of ``validateBootOrder`` (vmi-create-admitter.go): each disk has its volume (a CD-ROM may
be empty under ``DeclarativeHotplugVolumes``), a LUN sits on a PVC or DataVolume, a downward metrics volume on
a virtio disk, and no two disks share a boot order.

KubeVirt checks the interfaces' boot orders next, against the same orders (:func:`disk_boot_orders`). The
"not found" message names ``….disks[i].Name`` with a capital N, the field ``….disks[i].name``: KubeVirt's.
"""

from __future__ import annotations

from ...config import ClusterConfig
from .. import gates
from ..cause import Cause, FieldPath
from .spec import Obj, disks, is_set, mapping, text, volumes_by_name


def disk_boot_orders(spec: Obj) -> set[int]:
    """Every boot order the disks set (0 included): the orders an interface may not repeat."""
    return {d["bootOrder"] for d in disks(spec) if isinstance(d.get("bootOrder"), int)}


def _volume(at: FieldPath, disk: Obj, volume: Obj | None, cfg: ClusterConfig) -> list[Cause]:
    name = text(disk.get("name"))
    if volume is None:
        if not is_set(disk, "cdrom"):
            return [at.child("name").cause(f"{at.child('Name')} '{name}' not found.")]
        if not gates.is_enabled(cfg, "DeclarativeHotplugVolumes"):
            return [at.child("name").cause(
                "DeclarativeHotplugVolumes feature gate not enabled, cannot define an empty CD-ROM disk")]
        return []
    causes = []
    if is_set(disk, "lun") and not is_set(volume, "persistentVolumeClaim") and not is_set(volume, "dataVolume"):
        causes.append(at.child("lun").cause(
            f"{at.child('lun')} can only be mapped to a DataVolume or PersistentVolumeClaim volume."))
    if is_set(volume, "downwardMetrics"):
        bus = text(mapping(disk.get("disk")).get("bus"))
        if not is_set(disk, "disk"):
            causes.append(at.child("disk").cause(
                f"DownwardMetrics volume must be mapped to a disk, but disk is not set on {at.child('disk')}."))
        elif bus not in ("virtio", ""):
            causes.append(at.child("disk", "bus").cause(
                f"DownwardMetrics volume must be mapped to virtio bus, but {at.child('disk', 'bus')} is set to {bus}"))
    return causes


def disk_volumes(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """The disk checks of ``validateBootOrder`` at ``field`` (``spec``), disk by disk."""
    by_name = volumes_by_name(spec)
    seen: set[int] = set()
    causes: list[Cause] = []
    for idx, disk in enumerate(disks(spec)):
        at = field.child("domain", "devices", "disks").index(idx)
        causes.extend(_volume(at, disk, by_name.get(text(disk.get("name"))), cfg))
        order = disk.get("bootOrder")
        if isinstance(order, int) and not isinstance(order, bool):
            if order in seen:
                causes.append(at.child("bootOrder").cause(
                    f"Boot order for {at.child('bootOrder')} already set for a different device."))
            seen.add(order)
    return causes
