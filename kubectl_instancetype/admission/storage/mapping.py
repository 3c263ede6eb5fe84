"""``validateVirtualMachineInstanceSpecVolumeDisks`` (vmi-create-admitter.go, VMI webhook only): every volume
is used by a disk or a filesystem (a memory dump volume by neither), and a container path volume only by a
filesystem, outside KubeVirt's own directories.

The field path ``spec.domain.volumes[i]`` is KubeVirt's, though the volumes sit at ``spec.volumes``.
"""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath
from .spec import Obj, disks, filesystems, is_set, mapping, text, volumes

RESERVED_PREFIXES = ("/var/run/kubevirt", "/var/run/libvirt")


def _container_path(at: FieldPath, volume: Obj, on_disk: bool, on_filesystem: bool) -> list[Cause]:
    name = text(volume.get("name"))
    causes = []
    if on_disk:
        causes.append(at.cause(f"ContainerPath volume '{name}' must be mapped to a filesystem, not a disk"))
    if not on_filesystem:
        causes.append(at.cause(f"ContainerPath volume '{name}' must have a matching filesystem defined in "
                               "spec.domain.devices.filesystems"))
    path = text(mapping(volume.get("containerPath")).get("path"))
    prefix = next((p for p in RESERVED_PREFIXES if path.startswith(p)), None)
    if prefix is not None:
        causes.append(at.child("containerPath", "path").cause(
            f"ContainerPath volume '{name}' uses reserved path prefix '{prefix}'"))
    return causes


def volume_disks(field: FieldPath, spec: Obj, cfg: ClusterConfig) -> list[Cause]:
    """Every volume's device, at ``field`` (``spec``)."""
    disk_names = {text(d.get("name")) for d in disks(spec)}
    fs_names = {text(f.get("name")) for f in filesystems(spec)}
    causes: list[Cause] = []
    for idx, volume in enumerate(volumes(spec)):
        if is_set(volume, "memoryDump"):
            continue
        name, at = text(volume.get("name")), field.child("domain", "volumes").index(idx)
        on_disk, on_filesystem = name in disk_names, name in fs_names
        if not on_disk and not on_filesystem:
            causes.append(at.child("name").cause(f"{at.child('name')} '{name}' not found."))
        if is_set(volume, "containerPath"):
            causes.extend(_container_path(at, volume, on_disk, on_filesystem))
    return causes
