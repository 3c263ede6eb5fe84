"""Preference appliers (pkg/instancetype/preference/apply/*.go): fill what the VM left unset.

Preferences never conflict. The listed exceptions overwrite the VM: ``preferredAcpi`` and
``preferredDisableHotplug``; ``firmware``/``features``/``clock`` preferences create empty structures even
when nothing else applies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.golang import child, clone_json
from ..api.origin import NO_TRACE, Trace
from .devices import devices

Spec = dict[str, Any]
PreferenceApplier = Callable[[Spec, Spec, Spec, Trace], None]


def cpu_features(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = (pref.get("cpu") or {}).get("preferredCPUFeatures") or []
    if not wanted:
        return
    # KubeVirt dereferences domain.cpu here and panics when it is nil (no instance type, no VM cpu);
    # we create it instead, which is what the cluster default step would do next anyway.
    fresh = trace.absent(spec, ("domain", "cpu"))
    vm_cpu = child(child(spec, "domain"), "cpu")
    if fresh:
        trace.by_preference(fresh, "spec.cpu.preferredCPUFeatures")
    features = vm_cpu.get("features") or []
    present = {f.get("name") for f in features if isinstance(f, dict)}
    added = [clone_json(f) for f in wanted if f.get("name") not in present]
    if added:
        vm_cpu["features"] = list(features) + added
        for index in range(len(features), len(features) + len(added)):
            trace.by_preference(("domain", "cpu", "features", index), "spec.cpu.preferredCPUFeatures")


_HYPERV = (
    "evmcs", "frequencies", "ipi", "reenlightenment", "relaxed", "reset", "runtime",
    "spinlocks", "synic", "synictimer", "tlbflush", "vapic", "vpindex", "vendorid",
)


def features(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("features")
    if wanted is None:
        return
    fresh = trace.absent(spec, ("domain", "features", "hyperv" if wanted.get("preferredHyperv") else "acpi"))
    vm = child(child(spec, "domain"), "features")
    if fresh:
        trace.by_preference(fresh, "spec.features")
    if "acpi" not in vm:  # a non-pointer struct: Go prints it whenever features exists
        vm["acpi"] = {}
        trace.by_preference(("domain", "features", "acpi"), "spec.features")
    if wanted.get("preferredAcpi") is not None:
        if vm["acpi"] != wanted["preferredAcpi"]:  # the same value kept is the VM's own
            trace.by_preference(("domain", "features", "acpi"), "spec.features.preferredAcpi")
        vm["acpi"] = clone_json(wanted["preferredAcpi"])  # always overwritten
    for src, dst in (("preferredApic", "apic"), ("preferredKvm", "kvm"),
                     ("preferredPvspinlock", "pvspinlock"), ("preferredSmm", "smm")):
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = clone_json(wanted[src])
            if trace.on:
                trace.by_preference(("domain", "features", dst), f"spec.features.{src}")
    hyperv = wanted.get("preferredHyperv")
    if hyperv is not None:
        vm_hyperv = child(vm, "hyperv")
        for key in _HYPERV:
            if hyperv.get(key) is not None and vm_hyperv.get(key) is None:
                vm_hyperv[key] = clone_json(hyperv[key])
                trace.by_preference(("domain", "features", "hyperv", key), f"spec.features.preferredHyperv.{key}")


def firmware(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("firmware")
    if wanted is None:
        return
    fresh = trace.absent(spec, ("domain", "firmware", "bootloader"))
    loader = child(child(child(spec, "domain"), "firmware"), "bootloader")
    if fresh:
        trace.by_preference(fresh, "spec.firmware")
    at = trace.at("domain", "firmware", "bootloader")
    # ``loader.get(key) is None``: the loader has no such firmware (spelled out: this runs twice a VM)
    if wanted.get("preferredUseBios") is True and loader.get("bios") is None and loader.get("efi") is None:
        loader["bios"] = {}
        at.by_preference(("bios",), "spec.firmware.preferredUseBios")
    if (wanted.get("preferredUseBiosSerial") is not None and loader.get("bios") is not None
            and loader["bios"].get("useSerial") is None):
        loader["bios"]["useSerial"] = wanted["preferredUseBiosSerial"]
        at.by_preference(("bios", "useSerial"), "spec.firmware.preferredUseBiosSerial")
    if loader.get("efi") is None and loader.get("bios") is None and wanted.get("preferredEfi") is not None:
        loader["efi"] = clone_json(wanted["preferredEfi"])
        at.by_preference(("efi",), "spec.firmware.preferredEfi")
        return  # the deprecated fields are ignored once preferredEfi applied
    if wanted.get("preferredUseEfi") is True and loader.get("efi") is None and loader.get("bios") is None:
        loader["efi"] = {}
        at.by_preference(("efi",), "spec.firmware.preferredUseEfi")
    if (wanted.get("preferredUseSecureBoot") is not None and loader.get("efi") is not None
            and loader["efi"].get("secureBoot") is None):
        loader["efi"]["secureBoot"] = wanted["preferredUseSecureBoot"]
        at.by_preference(("efi", "secureBoot"), "spec.firmware.preferredUseSecureBoot")


def machine(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = (pref.get("machine") or {}).get("preferredMachineType")
    if wanted:
        vm = child(child(spec, "domain"), "machine")
        if not vm.get("type"):
            vm["type"] = wanted
            trace.by_preference(("domain", "machine", "type"), "spec.machine.preferredMachineType")


def clock(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("clock")
    if wanted is None:
        return
    fresh = trace.absent(spec, ("domain", "clock"))
    vm = child(child(spec, "domain"), "clock")
    if fresh:
        trace.by_preference(fresh, "spec.clock")
    offset = wanted.get("preferredClockOffset")
    if offset is not None and vm.get("utc") is None and vm.get("timezone") is None:
        for key in ("utc", "timezone"):
            if offset.get(key) is not None:
                vm[key] = clone_json(offset[key])
                trace.by_preference(("domain", "clock", key), "spec.clock.preferredClockOffset")
    if wanted.get("preferredTimer") is not None and vm.get("timer") is None:
        vm["timer"] = clone_json(wanted["preferredTimer"])
        trace.by_preference(("domain", "clock", "timer"), "spec.clock.preferredTimer")


def subdomain(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    if pref.get("preferredSubdomain") is not None and not spec.get("subdomain"):
        spec["subdomain"] = pref["preferredSubdomain"]
        trace.by_preference(("subdomain",), "spec.preferredSubdomain")


def termination_grace(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("preferredTerminationGracePeriodSeconds")
    if wanted is not None and spec.get("terminationGracePeriodSeconds") is None:
        spec["terminationGracePeriodSeconds"] = wanted
        trace.by_preference(("terminationGracePeriodSeconds",), "spec.preferredTerminationGracePeriodSeconds")


def architecture(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    if pref.get("preferredArchitecture") and not spec.get("architecture"):
        spec["architecture"] = pref["preferredArchitecture"]
        trace.by_preference(("architecture",), "spec.preferredArchitecture")


def template_annotations(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("annotations") or {}
    if wanted:
        present = child(meta, "annotations")
        for key, value in wanted.items():
            if key not in present:
                present[key] = value
                if trace.on:
                    trace.metadata().by_preference(("annotations", key), "spec.annotations")


def launch_security(pref: Spec, spec: Spec, meta: Spec, trace: Trace = NO_TRACE) -> None:
    wanted = pref.get("preferredLaunchSecurity")
    if wanted is not None:
        domain = child(spec, "domain")
        if domain.get("launchSecurity") is None:
            domain["launchSecurity"] = clone_json(wanted)
            trace.by_preference(("domain", "launchSecurity"), "spec.preferredLaunchSecurity")


# KubeVirt's order (pkg/instancetype/preference/apply/vmi.go).
APPLIERS: tuple[PreferenceApplier, ...] = (
    cpu_features,
    devices,
    features,
    firmware,
    machine,
    clock,
    subdomain,
    termination_grace,
    template_annotations,
    architecture,
    launch_security,
)
