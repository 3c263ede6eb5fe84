"""The device preference applier (pkg/instancetype/preference/apply/device.go, disk.go, interface.go)."""

from __future__ import annotations

from typing import Any

from ..api.golang import child, clone_json

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
_BINDINGS = ("bridge", "slirp", "masquerade", "sriov", "macvtap", "passt", "binding", "deprecatedPasst")


def devices(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("devices")
    if wanted is None:
        return
    vm = child(child(spec, "domain"), "devices")
    for src, dst in _FILL_IF_NULL:
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = wanted[src]
    if wanted.get("preferredDisableHotplug") is not None:
        # A plain bool in the VM: always overwritten, and Go omits it when false.
        if wanted["preferredDisableHotplug"]:
            vm["disableHotplug"] = True
        else:
            vm.pop("disableHotplug", None)
    _sound_rng_tpm_video(wanted, vm)
    autoattach(pref, spec)
    for disk in vm.get("disks") or []:
        _disk(wanted, disk)
    for iface in vm.get("interfaces") or []:
        _interface(wanted, iface, spec.get("networks") or [])
    for device in vm.get("inputs") or []:
        if wanted.get("preferredInputBus") and not device.get("bus"):
            device["bus"] = wanted["preferredInputBus"]
        if wanted.get("preferredInputType") and not device.get("type"):
            device["type"] = wanted["preferredInputType"]
    _panic_devices(wanted, vm)


def autoattach(pref: Spec, spec: Spec) -> None:
    """Copy the auto-attach preferences the VM leaves null (also run alone by VMI creation)."""
    wanted = pref.get("devices")
    if not wanted:
        return
    vm = child(child(spec, "domain"), "devices")
    for src, dst in _AUTOATTACH:
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = wanted[src]


def _sound_rng_tpm_video(wanted: Spec, vm: Spec) -> None:
    sound = vm.get("sound")
    if wanted.get("preferredSoundModel") and isinstance(sound, dict) and not sound.get("model"):
        sound["model"] = wanted["preferredSoundModel"]
    for src, dst in (("preferredRng", "rng"), ("preferredTPM", "tpm")):
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = clone_json(wanted[src])
    if wanted.get("preferredVideoType") is not None:
        video = child(vm, "video")
        if not video.get("type"):
            video["type"] = wanted["preferredVideoType"]


def _disk(wanted: Spec, disk: Spec) -> None:
    if disk.get("disk") is None and disk.get("cdrom") is None and disk.get("lun") is None:
        disk["disk"] = {}
    if disk.get("disk") is not None:
        target = disk["disk"]
        if wanted.get("preferredDiskBus") and not target.get("bus"):
            target["bus"] = wanted["preferredDiskBus"]
        if wanted.get("preferredDiskBlockSize") is not None and disk.get("blockSize") is None:
            disk["blockSize"] = clone_json(wanted["preferredDiskBlockSize"])
        if wanted.get("preferredDiskCache") and not disk.get("cache"):
            disk["cache"] = wanted["preferredDiskCache"]
        if wanted.get("preferredDiskIO") and not disk.get("io"):
            disk["io"] = wanted["preferredDiskIO"]
        dedicated = wanted.get("preferredDiskDedicatedIoThread")
        if dedicated is not None and disk.get("dedicatedIOThread") is None and target.get("bus") == "virtio":
            disk["dedicatedIOThread"] = dedicated
    elif disk.get("cdrom") is not None:
        if wanted.get("preferredCdromBus") and not disk["cdrom"].get("bus"):
            disk["cdrom"]["bus"] = wanted["preferredCdromBus"]
    elif wanted.get("preferredLunBus") and not disk["lun"].get("bus"):
        disk["lun"]["bus"] = wanted["preferredLunBus"]


def _interface(wanted: Spec, iface: Spec, networks: list[Spec]) -> None:
    if wanted.get("preferredInterfaceModel") and not iface.get("model"):
        iface["model"] = wanted["preferredInterfaceModel"]
    masquerade = wanted.get("preferredInterfaceMasquerade")
    if masquerade is None or any(iface.get(b) is not None for b in _BINDINGS):
        return
    name = iface.get("name")
    if any(n.get("name") == name and n.get("pod") is not None for n in networks):
        iface["masquerade"] = clone_json(masquerade)


def _panic_devices(wanted: Spec, vm: Spec) -> None:
    model = wanted.get("preferredPanicDeviceModel")
    if model is None:
        return
    panic = vm.get("panicDevices")
    if not panic:
        vm["panicDevices"] = [{"model": model}]
        return
    for device in panic:
        if device.get("model") is None:  # a set empty string is kept
            device["model"] = model
