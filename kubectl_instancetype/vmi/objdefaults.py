"""The API defaulters KubeVirt runs on a new VMI, and the Hyper-V feature dependencies.

``SetObjectDefaults_VirtualMachineInstance`` (staging/src/kubevirt.io/api/core/v1/defaults.go and
zz_generated.defaults.go): feature and timer states default to enabled (``enabled: true``, for timers
``present: true``), disks without a target become disks, CD-ROMs are read-only with a closed tray,
inputs default to a USB tablet, probes get Kubernetes' numbers. Watchdogs
get nothing here: only the architecture defaults (:mod:`.arch`) give one its device and action.
Then ``SetHypervFeatureDependencies`` (pkg/defaults/hyperv.go) turns on what enabled Hyper-V
enlightenments need.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Path, Trace, named

Spec = dict[str, Any]

STRUCTURE = named("KubeVirt default (an always-present structure)")
DISK = named("KubeVirt default disk target")
CDROM = named("KubeVirt default CD-ROM (read-only, tray closed)")
INPUT = named("KubeVirt default input device (usb tablet)")
PROBE = named("Kubernetes default probe timing")
TIMER = named("KubeVirt default timer (present)")
SPINLOCKS = named("KubeVirt default Hyper-V spinlocks (4096)")
ENABLED = named("KubeVirt default feature state (enabled)")
VMX = named("Hyper-V evmcs requires the vmx CPU feature (KubeVirt default)")

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


def enable(state: Any, trace: Trace = NO_TRACE, keys: Path = ()) -> None:
    """Default a present feature state (at ``keys`` below the trace's root) to enabled
    (``SetDefaults_FeatureState``); absent stays absent."""
    if isinstance(state, dict) and state.get("enabled") is None:
        state["enabled"] = True
        trace.set((*keys, "enabled"), ENABLED)


def set_object_defaults(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """The generated API defaults for a VMI spec."""
    domain = child(spec, "domain")
    for key in ("firmware", "features", "devices"):
        if trace.on and not isinstance(domain.get(key), dict):
            trace.set(("domain", key), STRUCTURE)
        child(domain, key)
    features, devices = domain["features"], domain["devices"]
    at = trace.at("domain", "devices")
    for index, disk in enumerate(devices.get("disks") or []):
        _disk(disk, at.at("disks", index))
    for index, device in enumerate(devices.get("inputs") or []):
        for key, default in (("bus", "usb"), ("type", "tablet")):
            if not device.get(key):
                device[key] = default
                at.set(("inputs", index, key), INPUT)
    for name in ("readinessProbe", "livenessProbe"):
        probe = spec.get(name)
        if isinstance(probe, dict):
            for key, minimum in _PROBE_MINIMA:
                if not isinstance(probe.get(key), int) or probe[key] < 1:
                    probe[key] = minimum
                    trace.set((name, key), PROBE)
    _clock((domain.get("clock") or {}).get("timer"), trace.at("domain", "clock", "timer"))
    _features(features, trace.at("domain", "features"))
    for index, gpu in enumerate(devices.get("gpus") or []):
        ramfb = ((gpu.get("virtualGPUOptions") or {}).get("display") or {}).get("ramFB")
        enable(ramfb, at, ("gpus", index, "virtualGPUOptions", "display", "ramFB"))


def _disk(disk: Spec, trace: Trace) -> None:
    if not any(disk.get(k) is not None for k in ("disk", "cdrom", "lun")):
        disk["disk"] = {}
        trace.set(("disk",), DISK)
    cdrom = disk.get("cdrom")
    if isinstance(cdrom, dict):
        if cdrom.get("readonly") is None:
            cdrom["readonly"] = True
            trace.set(("cdrom", "readonly"), CDROM)
        if not cdrom.get("tray"):
            cdrom["tray"] = "closed"
            trace.set(("cdrom", "tray"), CDROM)
    enable((disk.get("blockSize") or {}).get("matchVolume"), trace, ("blockSize", "matchVolume"))


def _clock(timer: Any, trace: Trace) -> None:
    if isinstance(timer, dict):
        for name in _TIMERS:
            state = timer.get(name)
            if isinstance(state, dict) and state.get("present") is None:
                state["present"] = True
                trace.set((name, "present"), TIMER)


def _features(features: Spec, trace: Trace) -> None:
    if trace.on and not isinstance(features.get("acpi"), dict):
        trace.set(("acpi",), STRUCTURE)
    enable(child(features, "acpi"), trace, ("acpi",))
    for name in ("apic", "smm", "pvspinlock"):
        enable(features.get(name), trace, (name,))
    hyperv = features.get("hyperv")
    if not isinstance(hyperv, dict):
        return
    for name in (*_HYPERV_STATES, "vendorid"):
        enable(hyperv.get(name), trace, ("hyperv", name))
    spinlocks = hyperv.get("spinlocks")
    if isinstance(spinlocks, dict):
        enable(spinlocks, trace, ("hyperv", "spinlocks"))
        if spinlocks["enabled"] is True and spinlocks.get("spinlocks") is None:
            spinlocks["spinlocks"] = 4096
            trace.set(("hyperv", "spinlocks", "spinlocks"), SPINLOCKS)
    for name, parts in (("synictimer", ("direct",)), ("tlbflush", ("direct", "extended"))):
        state = hyperv.get(name)
        if isinstance(state, dict):
            enable(state, trace, ("hyperv", name))
            for part in parts:
                enable(state.get(part), trace, ("hyperv", name, part))


def set_hyperv_dependencies(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """Enable the enlightenments that enabled ones require, unless the user disabled them.

    KubeVirt stops at the first requirement the user switched off and leaves the rest to the
    validating webhook; an enabled ``evmcs`` also requires the ``vmx`` CPU feature.
    """
    hyperv = ((spec.get("domain") or {}).get("features") or {}).get("hyperv")
    if not isinstance(hyperv, dict):
        return
    at = trace.at("domain", "features", "hyperv")
    for feature, required in HYPERV_REQUIREMENTS:
        if not _enabled(hyperv.get(feature)):
            continue
        state = hyperv.get(required)
        if not isinstance(state, dict) or state.get("enabled") is None:
            hyperv[required] = {**(state or {}), "enabled": True}
            if trace.on:
                at.set((required, "enabled"), named(f"Hyper-V {feature} requires {required} (KubeVirt default)"))
        elif state.get("enabled") is not True:
            return
    evmcs = hyperv.get("evmcs")
    if isinstance(evmcs, dict) and evmcs.get("enabled") in (None, True):
        if trace.on and not isinstance(spec["domain"].get("cpu"), dict):
            trace.set(("domain", "cpu"), VMX)
        _require_vmx(child(spec["domain"], "cpu"), trace.at("domain", "cpu"))


def _enabled(state: Any) -> bool:
    return isinstance(state, dict) and state.get("enabled") is True


def _require_vmx(cpu: Spec, trace: Trace) -> None:
    features = cpu.get("features") or []
    for index, feature in enumerate(features):
        if feature.get("name") == "vmx":
            if feature.get("policy") != "require":
                feature["policy"] = "require"
                trace.set(("features", index, "policy"), VMX)
            return
    cpu["features"] = [*features, {"name": "vmx", "policy": "require"}]
    trace.set(("features", len(features)), VMX)
