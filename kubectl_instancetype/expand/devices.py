"""The device preference applier (pkg/instancetype/preference/apply/device.go, disk.go, interface.go)."""

from __future__ import annotations

from typing import Any

from ..api.golang import child, clone_json
from ..api.origin import NO_TRACE, Trace

Spec = dict[str, Any]

_FILL_IF_NULL = (
    ("preferredUseVirtioTransitional", "useVirtioTransitional"),
    ("preferredBlockMultiQueue", "blockMultiQueue"),
    ("preferredNetworkInterfaceMultiQueue", "networkInterfaceMultiqueue"),
)
_AUTOATTACH = (
    ("preferredAutoattachGraphicsDevice", "autoattachGraphicsDevice"),
    ("preferredAutoattachMemBalloon", "autoattachMemBalloon"),
    ("preferredAutoattachPodInterface", "autoattachPodInterface"),
    ("preferredAutoattachSerialConsole", "autoattachSerialConsole"),
    ("preferredAutoattachInputDevice", "autoattachInputDevice"),
)
# The preference fields each table reads: a preference naming none of them skips the table's loop.
_FILL_FIELDS = frozenset(src for src, _ in _FILL_IF_NULL)
_AUTOATTACH_FIELDS = frozenset(src for src, _ in _AUTOATTACH)
_BINDINGS = ("bridge", "slirp", "masquerade", "sriov", "macvtap", "passt", "binding", "deprecatedPasst")


def devices(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("devices")
    if wanted is None:
        return
    fresh = trace.absent(spec, ("domain", "devices"))
    vm = child(child(spec, "domain"), "devices")
    if fresh:
        trace.by_preference(fresh, "spec.devices")
    at = trace.at("domain", "devices")
    if not _FILL_FIELDS.isdisjoint(wanted):
        for src, dst in _FILL_IF_NULL:
            if wanted.get(src) is not None and vm.get(dst) is None:
                vm[dst] = wanted[src]
                at.by_preference((dst,), f"spec.devices.{src}")
    if wanted.get("preferredDisableHotplug") is not None:
        # A plain bool in the VM: always overwritten, and Go omits it when false.
        if wanted["preferredDisableHotplug"]:
            if vm.get("disableHotplug") is not True:  # the same value kept is the VM's own
                at.by_preference(("disableHotplug",), "spec.devices.preferredDisableHotplug")
            vm["disableHotplug"] = True
        else:
            vm.pop("disableHotplug", None)
    _sound_rng_tpm_video(wanted, vm, at)
    _autoattach(wanted, vm, trace)  # autoattach's, on the devices found above
    for index, disk in enumerate(vm.get("disks") or []):
        _disk(wanted, disk, at.at("disks", index))
    for index, iface in enumerate(vm.get("interfaces") or []):
        _interface(wanted, iface, spec.get("networks") or [], at.at("interfaces", index))
    for index, device in enumerate(vm.get("inputs") or []):
        for src, dst in (("preferredInputBus", "bus"), ("preferredInputType", "type")):
            if wanted.get(src) and not device.get(dst):
                device[dst] = wanted[src]
                at.by_preference(("inputs", index, dst), f"spec.devices.{src}")
    _panic_devices(wanted, vm, at)


def autoattach(pref: Spec, spec: Spec, trace: Trace = NO_TRACE) -> None:
    """Copy the auto-attach preferences the VM leaves null (also run alone by VMI creation)."""
    wanted = pref.get("devices")
    if not wanted:
        return
    fresh = trace.absent(spec, ("domain", "devices"))
    vm = child(child(spec, "domain"), "devices")
    if fresh:
        trace.by_preference(fresh, "spec.devices")
    _autoattach(wanted, vm, trace)


def _autoattach(wanted: Spec, vm: Spec, trace: Trace) -> None:
    """:func:`autoattach` on the VM's devices ``vm`` (``trace`` at the VMI spec)."""
    if not wanted or _AUTOATTACH_FIELDS.isdisjoint(wanted):
        return
    for src, dst in _AUTOATTACH:
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = wanted[src]
            trace.by_preference(("domain", "devices", dst), f"spec.devices.{src}")


def _sound_rng_tpm_video(wanted: Spec, vm: Spec, trace: Trace) -> None:
    sound = vm.get("sound")
    if wanted.get("preferredSoundModel") and isinstance(sound, dict) and not sound.get("model"):
        sound["model"] = wanted["preferredSoundModel"]
        trace.by_preference(("sound", "model"), "spec.devices.preferredSoundModel")
    for src, dst in (("preferredRng", "rng"), ("preferredTPM", "tpm")):
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = clone_json(wanted[src])
            trace.by_preference((dst,), f"spec.devices.{src}")
    if wanted.get("preferredVideoType") is not None:
        fresh = trace.absent(vm, ("video",))  # a video device of its own: the preference made it
        video = child(vm, "video")
        if not video.get("type"):
            video["type"] = wanted["preferredVideoType"]
            trace.by_preference(fresh or ("video", "type"), "spec.devices.preferredVideoType")


def _disk(wanted: Spec, disk: Spec, trace: Trace) -> None:
    if disk.get("disk") is None and disk.get("cdrom") is None and disk.get("lun") is None:
        disk["disk"] = {}
        trace.by_preference(("disk",), "spec.devices")
    if disk.get("disk") is not None:
        target = disk["disk"]
        if wanted.get("preferredDiskBus") and not target.get("bus"):
            target["bus"] = wanted["preferredDiskBus"]
            trace.by_preference(("disk", "bus"), "spec.devices.preferredDiskBus")
        if wanted.get("preferredDiskBlockSize") is not None and disk.get("blockSize") is None:
            disk["blockSize"] = clone_json(wanted["preferredDiskBlockSize"])
            trace.by_preference(("blockSize",), "spec.devices.preferredDiskBlockSize")
        for src, dst in (("preferredDiskCache", "cache"), ("preferredDiskIO", "io")):
            if wanted.get(src) and not disk.get(dst):
                disk[dst] = wanted[src]
                trace.by_preference((dst,), f"spec.devices.{src}")
        dedicated = wanted.get("preferredDiskDedicatedIoThread")
        if dedicated is not None and disk.get("dedicatedIOThread") is None and target.get("bus") == "virtio":
            disk["dedicatedIOThread"] = dedicated
            trace.by_preference(("dedicatedIOThread",), "spec.devices.preferredDiskDedicatedIoThread")
    elif disk.get("cdrom") is not None:
        if wanted.get("preferredCdromBus") and not disk["cdrom"].get("bus"):
            disk["cdrom"]["bus"] = wanted["preferredCdromBus"]
            trace.by_preference(("cdrom", "bus"), "spec.devices.preferredCdromBus")
    elif wanted.get("preferredLunBus") and not disk["lun"].get("bus"):
        disk["lun"]["bus"] = wanted["preferredLunBus"]
        trace.by_preference(("lun", "bus"), "spec.devices.preferredLunBus")


def _interface(wanted: Spec, iface: Spec, networks: list[Spec], trace: Trace) -> None:
    if wanted.get("preferredInterfaceModel") and not iface.get("model"):
        iface["model"] = wanted["preferredInterfaceModel"]
        trace.by_preference(("model",), "spec.devices.preferredInterfaceModel")
    masquerade = wanted.get("preferredInterfaceMasquerade")
    if masquerade is None or any(iface.get(b) is not None for b in _BINDINGS):
        return
    name = iface.get("name")
    if any(n.get("name") == name and n.get("pod") is not None for n in networks):
        iface["masquerade"] = clone_json(masquerade)
        trace.by_preference(("masquerade",), "spec.devices.preferredInterfaceMasquerade")


def _panic_devices(wanted: Spec, vm: Spec, trace: Trace) -> None:
    model = wanted.get("preferredPanicDeviceModel")
    if model is None:
        return
    panic = vm.get("panicDevices")
    if not panic:
        vm["panicDevices"] = [{"model": model}]
        trace.by_preference(("panicDevices",), "spec.devices.preferredPanicDeviceModel")
        return
    for index, device in enumerate(panic):
        if device.get("model") is None:  # a set empty string is kept
            device["model"] = model
            trace.by_preference(("panicDevices", index, "model"), "spec.devices.preferredPanicDeviceModel")
