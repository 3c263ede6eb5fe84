"""The VMI spec's devices (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go:
``validateBootOrder`` with ``validateInterfaceBootOrder``, ``validateInputDevices``, ``validateIOThreadsPolicy``,
``validateMDEVRamFB``, ``validateHostDevicesWithPassthroughEnabled``, ``validateSoundDevices``, ``validateVSOCK``,
``validateVideoConfig``, ``validatePanicDevices``; grace_io_virtualization.go).

Several of KubeVirt's field paths are not where the field is: ``spec.GPUs``, ``spec.HostDevices``,
``spec.Sound``, ``spec.video`` (children of the spec, not of its devices), a disk's ``Name`` in the message
but ``name`` in the field, and an interface's bad boot order as ``spec[0]`` in its message. The causes keep
KubeVirt's spelling and are located at the field meant.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from . import gates, grace
from .cause import Cause, FieldPath, Spec

IO_THREADS_POLICIES = ("shared", "auto", "supplementalPool")
PANIC_DEVICE_MODELS = ("hyperv", "isa", "pvpanic")
SOUND_MODELS = ("", "ich9", "ac97")


def _devices(spec: Spec) -> dict[str, Any]:
    return (spec.get("domain") or {}).get("devices") or {}


def _quirk(field: FieldPath, name: str, *keys: str) -> FieldPath:
    """KubeVirt's ``field.Child(name)`` on the spec, located at the spec's ``keys``."""
    return FieldPath((*field.keys, *keys), field.child(name).text)


def boot_order(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateBootOrder``: each disk has a volume (an empty CD-ROM only with DeclarativeHotplugVolumes),
    LUNs sit on PVCs or DataVolumes, DownwardMetrics on a virtio disk; boot orders are unique across disks
    and interfaces, and an interface's is at least 1."""
    volumes: dict[str, dict[str, Any]] = {}
    for volume in spec.get("volumes") or []:
        volumes[(volume or {}).get("name") or ""] = volume or {}
    at_disks = field.child("domain", "devices", "disks")
    seen: set[int] = set()
    causes: list[Cause] = []
    for idx, disk in enumerate(_devices(spec).get("disks") or []):
        disk = disk or {}
        name = disk.get("name") or ""
        volume = volumes.get(name)
        # the disk's path is made for a cause only (a clean disk has none)
        if volume is None:
            if disk.get("cdrom") is None or not cfg.release.admits_empty_cdrom:
                here = at_disks.index(idx)
                causes.append(here.child("name").cause(f"{here.child('Name')} '{name}' not found."))
            elif not gates.is_enabled(cfg, "DeclarativeHotplugVolumes"):
                causes.append(at_disks.index(idx).child("name").cause(
                    "DeclarativeHotplugVolumes feature gate not enabled, cannot define an empty CD-ROM disk"))
        if disk.get("lun") is not None and volume is not None and volume.get("persistentVolumeClaim") is None \
                and volume.get("dataVolume") is None:
            lun = at_disks.index(idx).child("lun")
            causes.append(lun.cause(f"{lun} can only be mapped to a DataVolume or PersistentVolumeClaim volume."))
        if volume is not None and volume.get("downwardMetrics") is not None:
            causes.extend(_downward_metrics_disk(at_disks.index(idx), disk))
        order = disk.get("bootOrder")
        if order is not None:
            if order in seen:
                causes.append(_duplicate(at_disks.index(idx).child("bootOrder")))
            seen.add(order)
    return causes + _interface_boot_order(field, spec, seen)


def _downward_metrics_disk(here: FieldPath, disk: dict[str, Any]) -> list[Cause]:
    target = disk.get("disk")
    if target is None:
        at = here.child("disk")
        return [at.cause(f"DownwardMetrics volume must be mapped to a disk, but disk is not set on {at}.")]
    bus = target.get("bus") or ""
    if bus not in ("virtio", ""):
        at = here.child("disk", "bus")
        return [at.cause(f"DownwardMetrics volume must be mapped to virtio bus, but {at} is set to {bus}")]
    return []


def _duplicate(at: FieldPath) -> Cause:
    return at.cause(f"Boot order for {at} already set for a different device.")


def _interface_boot_order(field: FieldPath, spec: Spec, seen: set[int]) -> list[Cause]:
    causes = []
    for idx, iface in enumerate(_devices(spec).get("interfaces") or []):
        order = (iface or {}).get("bootOrder")
        if order is None:
            continue
        here = field.child("domain", "devices", "interfaces").index(idx)
        if order < 1:
            # KubeVirt indexes the spec itself here: "spec[0] must have a boot order > 0, if supplied"
            quirk = FieldPath(here.child("bootOrder").keys, field.index(idx).child("bootOrder").text)
            causes.append(quirk.cause(f"{field.index(idx)} must have a boot order > 0, if supplied"))
            continue
        if order in seen:
            causes.append(_duplicate(here.child("bootOrder")))
        seen.add(order)
    return causes


def input_devices(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateInputDevices``: tablets on the virtio or USB bus."""
    causes = []
    for idx, device in enumerate(_devices(spec).get("inputs") or []):
        device = device or {}
        here = field.child("domain", "devices", "inputs").index(idx)
        if (device.get("bus") or "") not in ("virtio", "usb", ""):
            causes.append(here.child("bus").cause("Input device can have only virtio or usb bus."))
        if device.get("type") != "tablet":
            causes.append(here.child("type").cause("Input device can have only tablet type."))
    return causes


def io_threads_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateIOThreadsPolicy``: a known policy; ``supplementalPool`` with a positive thread count."""
    dom = spec.get("domain") or {}
    policy = dom.get("ioThreadsPolicy")
    if policy is None:
        return []
    causes = []
    if policy not in IO_THREADS_POLICIES:
        causes.append(field.child("domain", "ioThreadsPolicy").cause(f"Invalid IOThreadsPolicy ({policy})"))
    count = (dom.get("ioThreads") or {}).get("supplementalPoolThreadCount")
    if policy == "supplementalPool" and (count is None or count < 1):
        causes.append(field.child("domain", "ioThreads", "count").cause(
            "the number of iothreads needs to be set and positive for the dedicated policy"))
    return causes


def _ramfb_display(gpu: Any, cfg: ClusterConfig) -> bool:
    """``countConfiguredMDEVRamFBs``: a display whose ``enabled`` and ``ramFB.enabled`` are unset or true
    (up to v1.9.0 a ``ramFB`` that is given counts only with ``enabled: true``:
    ``release.ramfb_unset_counts_enabled``)."""
    display = ((gpu or {}).get("virtualGPUOptions") or {}).get("display")
    if display is None:
        return False
    ramfb = display.get("ramFB")
    if ramfb is None:
        ramfb_on = True
    elif cfg.release.ramfb_unset_counts_enabled:
        ramfb_on = (ramfb or {}).get("enabled") in (None, True)
    else:
        ramfb_on = (ramfb or {}).get("enabled") is True
    return display.get("enabled") in (None, True) and ramfb_on


def mdev_ramfb(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateMDEVRamFB``: at most one GPU display with ramfb."""
    gpus = _devices(spec).get("gpus")
    if gpus and sum(_ramfb_display(gpu, cfg) for gpu in gpus) > 1:
        at = _quirk(field, "GPUs", "domain", "devices", "gpus")
        return [at.cause("configuring multiple displays with ramfb is not valid ")]
    return []


def host_devices_passthrough(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateHostDevicesWithPassthroughEnabled``: host devices need HostDevices. KubeVirt asks for a
    non-nil list, but an empty one never reaches it: the VM mutating webhook and virt-controller both write
    the spec back with Go's encoding, which omits it."""
    if _devices(spec).get("hostDevices") and not gates.is_enabled(cfg, "HostDevices"):
        at = _quirk(field, "HostDevices", "domain", "devices", "hostDevices")
        return [at.cause("Host Devices feature gate is not enabled in kubevirt-config")]
    return []


def grace_io_virtualization(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateGraceIOVirtualization`` (:mod:`.grace`), from v1.9.0."""
    if not cfg.release.validates_grace_io_virtualization:
        return []
    return grace.validate(field, spec, cfg)


def sound(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateSoundDevices``: a named ich9 or ac97 device."""
    device = _devices(spec).get("sound")
    if device is None:
        return []
    at = _quirk(field, "Sound", "domain", "devices", "sound")
    causes = []
    if (device.get("model") or "") not in SOUND_MODELS:
        causes.append(at.cause("Sound device type is not supported. Options: 'ich9' or 'ac97'"))
    if not device.get("name"):
        causes.append(at.cause("Sound device requires a name field."))
    return causes


def vsock(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateVSOCK``: ``autoattachVSOCK: true`` needs the VSOCK gate."""
    if _devices(spec).get("autoattachVSOCK") is True and not gates.is_enabled(cfg, "VSOCK"):
        at = field.child("domain", "devices", "autoattachVSOCK")
        return [at.cause("VSOCK feature gate is not enabled in kubevirt-config")]
    return []


def video_config(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateVideoConfig``: no video settings for a VM without a graphics device."""
    devices = _devices(spec)
    if devices.get("video") is None:
        return []
    if cfg.release.video_config_needs_gate and not gates.is_enabled(cfg, "VideoConfig"):
        at = _quirk(field, "video", "domain", "devices", "video")
        return [at.cause("Video configuration is specified but the VideoConfig feature gate is not enabled")]
    if devices.get("autoattachGraphicsDevice") is False:
        at = _quirk(field, "video", "domain", "devices", "video")
        return [at.cause("Video configuration is not allowed when autoattachGraphicsDevice is set to false")]
    return []


def panic_devices(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validatePanicDevices``: none on s390x; each model hyperv, isa or pvpanic."""
    devices = _devices(spec).get("panicDevices") or []
    if not devices:
        return []
    at = field.child("domain", "devices", "panicDevices")
    if cfg.release.panic_devices_need_gate and not gates.is_enabled(cfg, "PanicDevices"):
        return [at.cause("Panic Devices feature gate is not enabled in kubevirt-config")]
    arch = spec.get("architecture") or cfg.default_architecture
    causes = []
    if arch == "s390x":
        causes.append(at.cause(f"custom panic devices are not supported on {arch} architecture"))
    for idx, device in enumerate(devices):
        model = (device or {}).get("model")
        if model is not None and model not in PANIC_DEVICE_MODELS:
            causes.append(at.index(idx).child("model").cause(f"invalid PanicDeviceModel({model})"))
    return causes
