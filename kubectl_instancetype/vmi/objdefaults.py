"""The API defaulters KubeVirt runs on a new VMI, and the Hyper-V feature dependencies.

``SetObjectDefaults_VirtualMachineInstance`` (staging/src/kubevirt.io/api/core/v1/defaults.go and
zz_generated.defaults.go): feature and timer states default to enabled (``enabled: true``, for timers
``present: true``), disks without a target become disks, CD-ROMs are read-only with a closed tray,
inputs default to a USB tablet, probes get Kubernetes' numbers, watchdogs a ``reset`` action.
Then ``SetHypervFeatureDependencies`` (pkg/defaults/hyperv.go) turns on what enabled Hyper-V
enlightenments need.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child

Spec = dict[str, Any]

_TIMERS = ("hpet", "kvm", "pit", "rtc", "hyperv")
_HYPERV_STATES = (
    "relaxed",
    "vapic",
    "vpindex",
    "runtime",
    "synic",
    "reset",
    "frequencies",
    "reenlightenment",
    "tlbflush",
    "ipi",
    "evmcs",
)
_PROBE_MINIMA = (
    ("timeoutSeconds", 1),
    ("periodSeconds", 10),
    ("successThreshold", 1),
    ("failureThreshold", 3),
)
# Hyper-V enlightenments and the one each requires, leaves first (pkg/defaults/hyperv.go).
HYPERV_REQUIREMENTS = (
    ("evmcs", "vapic"),
    ("ipi", "vpindex"),
    ("tlbflush", "vpindex"),
    ("synictimer", "synic"),
    ("synic", "vpindex"),
)


def enable(state: Any) -> None:
    """Default a present feature state to enabled (``SetDefaults_FeatureState``); absent stays absent."""
    if isinstance(state, dict) and state.get("enabled") is None:
        state["enabled"] = True


def set_object_defaults(spec: Spec, host_arch: str) -> None:
    """The generated API defaults for a VMI spec; ``host_arch`` is virt-api's own architecture."""
    domain = child(spec, "domain")
    child(domain, "firmware")
    features = child(domain, "features")
    devices = child(domain, "devices")
    for disk in devices.get("disks") or []:
        _disk(disk)
    for device in devices.get("inputs") or []:
        if not device.get("bus"):
            device["bus"] = "usb"
        if not device.get("type"):
            device["type"] = "tablet"
    for probe in (spec.get("readinessProbe"), spec.get("livenessProbe")):
        if isinstance(probe, dict):
            for key, minimum in _PROBE_MINIMA:
                if not isinstance(probe.get(key), int) or probe[key] < 1:
                    probe[key] = minimum
    _clock((domain.get("clock") or {}).get("timer"))
    _features(features)
    _watchdog(devices.get("watchdog"), host_arch)
    for gpu in devices.get("gpus") or []:
        ramfb = ((gpu.get("virtualGPUOptions") or {}).get("display") or {}).get("ramFB")
        enable(ramfb)


def _disk(disk: Spec) -> None:
    if not any(disk.get(k) is not None for k in ("disk", "cdrom", "lun")):
        disk["disk"] = {}
    cdrom = disk.get("cdrom")
    if isinstance(cdrom, dict):
        if cdrom.get("readonly") is None:
            cdrom["readonly"] = True
        if not cdrom.get("tray"):
            cdrom["tray"] = "closed"
    enable((disk.get("blockSize") or {}).get("matchVolume"))


def _clock(timer: Any) -> None:
    if isinstance(timer, dict):
        for name in _TIMERS:
            state = timer.get(name)
            if isinstance(state, dict) and state.get("present") is None:
                state["present"] = True


def _features(features: Spec) -> None:
    enable(child(features, "acpi"))
    for name in ("apic", "smm", "pvspinlock"):
        enable(features.get(name))
    hyperv = features.get("hyperv")
    if not isinstance(hyperv, dict):
        return
    for name in (*_HYPERV_STATES, "vendorid"):
        enable(hyperv.get(name))
    spinlocks = hyperv.get("spinlocks")
    if isinstance(spinlocks, dict):
        enable(spinlocks)
        if spinlocks["enabled"] is True and spinlocks.get("spinlocks") is None:
            spinlocks["spinlocks"] = 4096
    for name, parts in (("synictimer", ("direct",)), ("tlbflush", ("direct", "extended"))):
        state = hyperv.get(name)
        if isinstance(state, dict):
            enable(state)
            for part in parts:
                enable(state.get(part))


def _watchdog(watchdog: Any, host_arch: str) -> None:
    if not isinstance(watchdog, dict):
        return
    if host_arch == "s390x" and watchdog.get("diag288") is None:
        watchdog["diag288"] = {}
    elif watchdog.get("i6300esb") is None:
        watchdog["i6300esb"] = {}
    device = watchdog.get("i6300esb")
    if isinstance(device, dict) and not device.get("action"):
        device["action"] = "reset"


def set_hyperv_dependencies(spec: Spec) -> None:
    """Enable the enlightenments that enabled ones require, unless the user disabled them.

    KubeVirt stops at the first requirement the user switched off and leaves the rest to the
    validating webhook; an enabled ``evmcs`` also requires the ``vmx`` CPU feature.
    """
    hyperv = ((spec.get("domain") or {}).get("features") or {}).get("hyperv")
    if not isinstance(hyperv, dict):
        return
    for feature, required in HYPERV_REQUIREMENTS:
        if not _enabled(hyperv.get(feature)):
            continue
        state = hyperv.get(required)
        if not isinstance(state, dict) or state.get("enabled") is None:
            hyperv[required] = {**(state or {}), "enabled": True}
        elif state.get("enabled") is not True:
            return
    evmcs = hyperv.get("evmcs")
    if isinstance(evmcs, dict) and evmcs.get("enabled") in (None, True):
        _require_vmx(child(spec["domain"], "cpu"))


def _enabled(state: Any) -> bool:
    return isinstance(state, dict) and state.get("enabled") is True


def _require_vmx(cpu: Spec) -> None:
    features = cpu.get("features") or []
    for feature in features:
        if feature.get("name") == "vmx":
            feature["policy"] = "require"
            return
    cpu["features"] = [*features, {"name": "vmx", "policy": "require"}]
