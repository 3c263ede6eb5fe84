"""``validateVolumes`` (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go): each
volume's checks in KubeVirt's order, then the volume kinds a VMI may hold only once.
"""

from __future__ import annotations

from collections.abc import Callable

from ...config import ClusterConfig
from ...quantity import QuantityError, from_json
from .. import gates
from ..cause import Cause, FieldPath
from .cloudinit import SOURCES as CLOUD_INIT_SOURCES
from .cloudinit import cloud_init
from .spec import Obj, is_set, mapping, text

# Every volume source, in the order validateVolumes counts them.
SOURCES = (
    "persistentVolumeClaim", "sysprep", "cloudInitNoCloud", "cloudInitConfigDrive", "containerDisk", "ephemeral",
    "emptyDisk", "hostDisk", "dataVolume", "configMap", "secret", "downwardAPI", "serviceAccount",
    "downwardMetrics", "memoryDump", "containerPath",
)
HOST_DISK_TYPES = ("Disk", "DiskOrCreate")  # HostDiskExists, HostDiskExistsOrCreate
REQUIRED_FIELD = "{} is a required field"
# The sources a VMI may have one volume of at most, with the word KubeVirt's message uses.
AT_MOST_ONE = (("serviceAccount", "serviceAccount"), ("downwardMetrics", "downwardMetric"),
               ("memoryDump", "memory dump"))

# One check of the volume at a field (``spec.volumes[i]``).
VolumeRule = Callable[[FieldPath, Obj, ClusterConfig], list[Cause]]


def _sources(field: FieldPath, volume: Obj, cfg: ClusterConfig) -> list[Cause]:
    causes = []
    if is_set(volume, "dataVolume") and not text(mapping(volume.get("dataVolume")).get("name")):
        causes.append(field.child("name").cause("DataVolume 'name' must be set"))
    # the volume's own keys against the sources (a volume holds two or three keys; there are 16 sources)
    if sum(value is not None and key in _SOURCE_SET for key, value in volume.items()) != 1:
        causes.append(field.cause(f"{field} must have exactly one source type set"))
    return causes


_SOURCE_SET = frozenset(SOURCES)


def _downward_metrics(field: FieldPath, volume: Obj, cfg: ClusterConfig) -> list[Cause]:
    if is_set(volume, "downwardMetrics") and not gates.is_enabled(cfg, "DownwardMetrics"):
        return [field.cause("downwardMetrics disks are not allowed: DownwardMetrics feature gate is not enabled.")]
    return []


def _capacity_is_zero(value: object) -> bool:
    if value is None:
        return True
    try:
        return from_json(value).is_zero()  # type: ignore[arg-type]
    except QuantityError:  # not a quantity: refused when the object is decoded, before any webhook
        return True


def _host_disk(field: FieldPath, volume: Obj, cfg: ClusterConfig) -> list[Cause]:
    if not is_set(volume, "hostDisk"):
        return []
    host_disk, at = mapping(volume.get("hostDisk")), field.child("hostDisk")
    kind = text(host_disk.get("type"))
    causes = []
    if not gates.is_enabled(cfg, "HostDisk"):
        causes.append(field.cause("HostDisk feature gate is not enabled"))
    if not text(host_disk.get("path")):
        causes.append(at.child("path").cause(f"{at.child('path')} is required for hostDisk volume"))
    if kind not in HOST_DISK_TYPES:
        causes.append(at.child("type").cause(
            f"{at.child('type')} has invalid value '{kind}', allowed are 'Disk' or 'DiskOrCreate'"))
    # Capacity is pointless when the disk image must already exist.
    if kind == "Disk" and not _capacity_is_zero(host_disk.get("capacity")):
        causes.append(at.child("capacity").cause(
            f"{at.child('capacity')} is allowed to pass only with {at.child('type')} equal to 'DiskOrCreate'"))
    return causes


def _required(source: str, key: str) -> VolumeRule:
    def rule(field: FieldPath, volume: Obj, cfg: ClusterConfig) -> list[Cause]:
        if is_set(volume, source) and not text(mapping(volume.get(source)).get(key)):
            at = field.child(source, key)
            return [at.cause(REQUIRED_FIELD.format(at))]
        return []
    return rule


# validateVolumes' checks of each volume after its name, in its order, each with the volume's keys it reads
# (None: any): a volume holding none of them passes the check. A volume holds its name and one source, so
# the checks of the other sources are skipped.
VOLUME_RULES: tuple[tuple[VolumeRule, frozenset[str] | None], ...] = (
    (_sources, None),
    (cloud_init, frozenset(CLOUD_INIT_SOURCES)),
    (_downward_metrics, frozenset(("downwardMetrics",))),
    (_host_disk, frozenset(("hostDisk",))),
    (_required("configMap", "name"), frozenset(("configMap",))),
    (_required("secret", "secretName"), frozenset(("secret",))),
    (_required("serviceAccount", "serviceAccountName"), frozenset(("serviceAccount",))),
)


def validate_volumes(field: FieldPath, volumes: list[Obj], cfg: ClusterConfig) -> list[Cause]:
    """``validateVolumes`` at ``field`` (``spec.volumes``)."""
    causes: list[Cause] = []
    first: dict[str, int] = {}
    for idx, volume in enumerate(volumes):
        name, here = text(volume.get("name")), field.index(idx)
        if name in first:
            other = field.index(first[name])
            causes.append(here.child("name").cause(f"{here} and {other} must not have the same Name."))
        first.setdefault(name, idx)
        for rule, reads in VOLUME_RULES:
            if reads is None or not reads.isdisjoint(volume):
                causes.extend(rule(here, volume, cfg))
    for source, word in AT_MOST_ONE:
        if len(volumes) > 1 and sum(is_set(v, source) for v in volumes) > 1:
            causes.append(field.cause(f"{field} must have max one {word} volume set"))
    return causes
