"""``ValidateDisks`` and ``ValidateContainerDisks`` (pkg/storage/admitters/disks.go): each disk's checks, in
KubeVirt's order, and the container disk paths.

Several messages and fields spell their path oddly (``…disks.domain.devices.disks.disk[0].name``, ``Disk IO
mode for spec.domain.devices.disks …``): they are KubeVirt's, verbatim.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import cache

from ...api.releases import DEFAULT, Release
from ...schema.names import dns1123_label
from ..cause import Cause, FieldPath
from .spec import Obj, is_set, mapping, text

MAX_SERIAL_LEN = 256
MIN_CUSTOM_BLOCK_SIZE = 512
MAX_CUSTOM_BLOCK_SIZE = 2097152  # 2 MB
SUPPORTED_BUSES = "[virtio scsi sata usb]"
CACHE_MODES = ("none", "writethrough", "writeback")
IO_MODES = ("native", "threads")
ERROR_POLICIES = ("stop", "ignore", "report", "enospace")
TARGETS = ("disk", "lun", "cdrom")  # getDiskType's order


@cache
def _serial_re() -> re.Pattern[str]:
    """A disk serial's characters (compiled on first use)."""
    return re.compile(r"[A-Za-z0-9_.+-]+\Z")


@cache
def _pci_address_re() -> re.Pattern[str]:
    """A PCI address (compiled on first use)."""
    return re.compile(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])\Z")  # hwutil


# One check of the disk at an index: the field of the disks list, the disks, the index.
DiskRule = Callable[[FieldPath, list[Obj], int], list[Cause]]


def target(disk: Obj) -> str:
    """``getDiskType``: the first target set ("" for none)."""
    for kind in TARGETS:
        if disk.get(kind) is not None:
            return kind
    return ""


def bus(disk: Obj) -> str:
    """``getDiskBus``: the bus of the first target set."""
    kind = target(disk)
    return text(mapping(disk.get(kind)).get("bus")) if kind else ""


def _name(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    if idx == 0:
        return []  # no disk before the first
    own = text(disks[idx].get("name"))
    same = [other for other in range(idx) if text(disks[other].get("name")) == own]
    if not same:
        return []
    here = field.index(idx)
    return [here.child("name").cause(f"{here} and {field.index(other)} must not have the same Name.")
            for other in same]


def _device_target(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    # Setting no target is fine (a disk is the default); more than one is not.
    disk = disks[idx]
    if sum(disk.get(kind) is not None for kind in TARGETS) > 1:
        return [field.index(idx).cause(f"{field.index(idx)} can only have a single target type defined")]
    return []


def _pci_address(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    disk = disks[idx]
    address = text(mapping(disk.get("disk")).get("pciAddress"))
    if not is_set(disk, "disk") or not address:
        return []
    at = field.child("domain", "devices", "disks", "disk").index(idx)
    causes = []
    if text(mapping(disk.get("disk")).get("bus")) != "virtio":
        causes.append(at.child("pciAddress").cause(
            f"disk {at.child('name')} - setting a PCI address is only possible with bus type virtio."))
    if not _pci_address_re().match(address):
        causes.append(at.child("pciAddress").cause(f"disk {at.child('name')} has malformed PCI address ({address})."))
    return causes


def _boot_order_value(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    order = disks[idx].get("bootOrder")
    if isinstance(order, int) and not isinstance(order, bool) and order < 1:
        here = field.index(idx)
        return [here.child("bootOrder").cause(f"{here} must have a boot order > 0, if supplied")]
    return []


def _bus_support(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    disk = disks[idx]
    kind, value = target(disk), bus(disk)
    if not value:
        return []
    causes = []
    here = field.index(idx)
    if value == "ide":
        causes.append(here.child(kind, "bus").cause("IDE bus is not supported"))
    elif value == "virtio":
        # virtio is incompatible with CD-ROMs on q35 machine types
        if kind == "cdrom":
            causes.append(here.child("cdrom", "bus").cause(f"Bus type {value} is invalid for CD-ROM device"))
    elif value == "sata":
        # SATA hard disks (unlike SATA CD-ROMs) cannot be read-only
        if is_set(disk, "disk") and mapping(disk.get("disk")).get("readonly") is True:
            causes.append(here.child("disk", "bus").cause(f"{value} hard-disks do not support read-only."))
    elif value not in ("scsi", "usb"):
        causes.append(here.child(kind, "bus").cause(
            f"{here} is set with an unrecognized bus {value}, must be one of: {SUPPORTED_BUSES}"))
    # libvirt supports a dedicated IO thread only on virtio disks
    if disk.get("dedicatedIOThread") is True and value != "virtio":
        causes.append(field.child("domain", "devices", "disks").index(idx).cause(
            f"IOThreads are not supported for disks on a {value} bus"))
    return causes


def _serial_value(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    serial = text(disks[idx].get("serial"))
    if serial and not _serial_re().match(serial):
        return [field.index(idx).child("serial").cause(
            f"{field.index(idx)} must be made up of the following characters [A-Za-z0-9_.+-], if specified")]
    return []


def _serial_length(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    if len(text(disks[idx].get("serial"))) > MAX_SERIAL_LEN:
        return [field.index(idx).child("serial").cause(
            f"{field.index(idx)} must be less than or equal to {MAX_SERIAL_LEN} in length, if specified")]
    return []


def _cache_mode(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    cache = text(disks[idx].get("cache"))
    if cache and cache not in CACHE_MODES:
        at = field.index(idx).child("cache")
        return [at.cause(f"{at} has invalid value {cache}")]
    return []


def _io_mode(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    io = text(disks[idx].get("io"))
    if io and io not in IO_MODES:
        at = field.child("domain", "devices", "disks").index(idx).child("io")
        return [at.cause(f"Disk IO mode for {field} is not supported. Supported modes are: native, threads.")]
    return []


def _error_policy(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    disk = disks[idx]
    if not is_set(disk, "errorPolicy"):
        return []
    policy = text(disk.get("errorPolicy"))
    if policy not in ERROR_POLICIES:
        at = field.index(idx).child("errorPolicy")
        return [at.cause(f'{at} has invalid value "{policy}"')]
    return []


def _name_as_container_name(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    # A disk's name may become a container's name, which must be a DNS label or the pod never schedules.
    messages = dns1123_label(text(disks[idx].get("name")))
    if not messages:
        return []
    at = field.child("domain", "devices", "disks").index(idx).child("name")
    return [at.cause(message) for message in messages]


def _custom_size(field: FieldPath, idx: int, kind: str, size: int) -> list[Cause]:
    at = field.index(idx).child("blockSize", "custom", kind)
    low, high = MIN_CUSTOM_BLOCK_SIZE, MAX_CUSTOM_BLOCK_SIZE
    if size < low:
        return [at.cause(f"Provided size of {size} is less than the supported minimum size of {low}")]
    if size > high:
        return [at.cause(f"Provided size of {size} is greater than the supported maximum size of {high}")]
    if size & (size - 1):
        return [at.cause(f"Provided size of {size} is not a power of 2")]
    return []


def _uint(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _block_size(field: FieldPath, disks: list[Obj], idx: int, sata_and_discard: bool = True) -> list[Cause]:
    """``validateBlockSize``; before v1.7.0 (``release.checks_sata_block_size_and_discard``, vmi-create-admitter.go)
    without the SATA logical size and the discard granularity checks."""
    disk = disks[idx]
    block = mapping(disk.get("blockSize"))
    if not is_set(block, "custom"):
        return []
    here = field.index(idx).child("blockSize")
    if is_set(block, "matchVolume") and mapping(block.get("matchVolume")).get("enabled") is not False:
        return [here.cause("Block size matching can't be enabled together with a custom value")]
    custom = mapping(block.get("custom"))
    logical, physical = _uint(custom.get("logical")), _uint(custom.get("physical"))
    discard = custom.get("discardGranularity")
    if logical > physical:
        return [here.child("custom", "logical").cause(
            f"Logical size {logical} must be the same or less than the physical size of {physical}")]
    if not sata_and_discard:
        return [*_custom_size(field, idx, "logical", logical), *_custom_size(field, idx, "physical", physical)]
    if bus(disk) == "sata" and logical != MIN_CUSTOM_BLOCK_SIZE:
        # QEMU's emulated IDE and SATA controllers only support a logical size of 512 bytes.
        return [here.child("custom", "logical").cause(
            f"Logical size {logical} must be {MIN_CUSTOM_BLOCK_SIZE} for SATA devices")]
    if discard is not None and logical != 0 and _uint(discard) % logical:
        return [here.child("custom", "discardGranularity").cause(
            f"Discard granularity {_uint(discard)} must be multiples of logical size {logical}")]
    return [*_custom_size(field, idx, "logical", logical), *_custom_size(field, idx, "physical", physical)]


# ValidateDisks' checks of each disk, in its order.
DISK_RULES: tuple[DiskRule, ...] = (
    _name,
    _device_target,
    _pci_address,
    _boot_order_value,
    _bus_support,
    _serial_value,
    _serial_length,
    _cache_mode,
    _io_mode,
    _error_policy,
    _name_as_container_name,
    _block_size,
)
# The keys of the disk each check reads (None: it reads the name, which every disk has, even empty): a disk
# holding none of them passes the check. Most disks hold a name and a target only, so most checks are skipped.
_READS: dict[DiskRule, frozenset[str] | None] = {
    _name: None,
    _device_target: frozenset(TARGETS),
    _pci_address: frozenset(("disk",)),
    _boot_order_value: frozenset(("bootOrder",)),
    _bus_support: frozenset(TARGETS),  # no target, no bus
    _serial_value: frozenset(("serial",)),
    _serial_length: frozenset(("serial",)),
    _cache_mode: frozenset(("cache",)),
    _io_mode: frozenset(("io",)),
    _error_policy: frozenset(("errorPolicy",)),
    _name_as_container_name: None,
    _block_size: frozenset(("blockSize",)),
}


def _block_size_before_v1_7(field: FieldPath, disks: list[Obj], idx: int) -> list[Cause]:
    return _block_size(field, disks, idx, sata_and_discard=False)


_RULES_READING = tuple((rule, _READS[rule]) for rule in DISK_RULES)
_RULES_READING_BEFORE_V1_7 = (*_RULES_READING[:-1], (_block_size_before_v1_7, _READS[_block_size]))


def validate_disks(field: FieldPath, disks: list[Obj], release: Release = DEFAULT) -> list[Cause]:
    """``ValidateDisks``: every check of every disk, disk by disk, as ``release`` has them."""
    rules = _RULES_READING if release.checks_sata_block_size_and_discard else _RULES_READING_BEFORE_V1_7
    causes = []
    for idx, disk in enumerate(disks):
        for rule, reads in rules:
            if reads is None or not reads.isdisjoint(disk):
                causes.extend(rule(field, disks, idx))
    return causes


def validate_path(field: FieldPath, path: str) -> list[Cause]:
    """``ValidatePath``: an absolute path without relative components, not the root."""
    if path == "/":
        return [field.cause(f"{field} must not point to root")]
    # filepath.Join("/", path) cleans like Go (one leading slash, where POSIX normpath keeps two);
    # strings.TrimSuffix drops a single trailing slash.
    cleaned = "/" + posixpath.normpath("/" + path).lstrip("/")
    if cleaned != (path[:-1] if path.endswith("/") else path):
        return [field.cause(f"{field} must be an absolute path to a file without relative components")]
    return []


def container_disks(field: FieldPath, volumes: list[Obj]) -> list[Cause]:
    """``ValidateContainerDisks``: the path of every container disk that names one."""
    causes = []
    for idx, volume in enumerate(volumes):
        if not is_set(volume, "containerDisk"):
            continue
        path = text(mapping(volume.get("containerDisk")).get("path"))
        if path:
            causes.extend(validate_path(field.child("volumes").index(idx).child("containerDisk"), path))
    return causes
