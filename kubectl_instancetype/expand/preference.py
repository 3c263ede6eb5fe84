"""Preference appliers (pkg/instancetype/preference/apply/*.go): fill what the VM left unset.

Preferences never conflict. The listed exceptions overwrite the VM: ``preferredAcpi`` and
``preferredDisableHotplug``; ``firmware``/``features``/``clock`` preferences create empty structures even
when nothing else applies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.golang import child, clone_json
from .devices import devices

Spec = dict[str, Any]
PreferenceApplier = Callable[[Spec, Spec, Spec], None]


def cpu_features(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = (pref.get("cpu") or {}).get("preferredCPUFeatures") or []
    if not wanted:
        return
    # KubeVirt dereferences domain.cpu here and panics when it is nil (no instance type, no VM cpu);
    # we create it instead, which is what the cluster default step would do next anyway.
    vm_cpu = child(child(spec, "domain"), "cpu")
    features = vm_cpu.get("features") or []
    present = {f.get("name") for f in features if isinstance(f, dict)}
    added = [clone_json(f) for f in wanted if f.get("name") not in present]
    if added:
        vm_cpu["features"] = list(features) + added


_HYPERV = (
    "evmcs", "frequencies", "ipi", "reenlightenment", "relaxed", "reset", "runtime",
    "spinlocks", "synic", "synictimer", "tlbflush", "vapic", "vpindex", "vendorid",
)


def features(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("features")
    if wanted is None:
        return
    vm = child(child(spec, "domain"), "features")
    vm.setdefault("acpi", {})  # a non-pointer struct: Go prints it whenever features exists
    if wanted.get("preferredAcpi") is not None:
        vm["acpi"] = clone_json(wanted["preferredAcpi"])  # always overwritten
    for src, dst in (("preferredApic", "apic"), ("preferredKvm", "kvm"),
                     ("preferredPvspinlock", "pvspinlock"), ("preferredSmm", "smm")):
        if wanted.get(src) is not None and vm.get(dst) is None:
            vm[dst] = clone_json(wanted[src])
    hyperv = wanted.get("preferredHyperv")
    if hyperv is not None:
        vm_hyperv = child(vm, "hyperv")
        for key in _HYPERV:
            if hyperv.get(key) is not None and vm_hyperv.get(key) is None:
                vm_hyperv[key] = clone_json(hyperv[key])


def firmware(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("firmware")
    if wanted is None:
        return
    loader = child(child(child(spec, "domain"), "firmware"), "bootloader")

    def has(key: str) -> bool:
        return loader.get(key) is not None

    if wanted.get("preferredUseBios") is True and not has("bios") and not has("efi"):
        loader["bios"] = {}
    if wanted.get("preferredUseBiosSerial") is not None and has("bios") and loader["bios"].get("useSerial") is None:
        loader["bios"]["useSerial"] = wanted["preferredUseBiosSerial"]
    if not has("efi") and not has("bios") and wanted.get("preferredEfi") is not None:
        loader["efi"] = clone_json(wanted["preferredEfi"])
        return  # the deprecated fields are ignored once preferredEfi applied
    if wanted.get("preferredUseEfi") is True and not has("efi") and not has("bios"):
        loader["efi"] = {}
    if wanted.get("preferredUseSecureBoot") is not None and has("efi") and loader["efi"].get("secureBoot") is None:
        loader["efi"]["secureBoot"] = wanted["preferredUseSecureBoot"]


def machine(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = (pref.get("machine") or {}).get("preferredMachineType")
    if wanted:
        vm = child(child(spec, "domain"), "machine")
        if not vm.get("type"):
            vm["type"] = wanted


def clock(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("clock")
    if wanted is None:
        return
    vm = child(child(spec, "domain"), "clock")
    offset = wanted.get("preferredClockOffset")
    if offset is not None and vm.get("utc") is None and vm.get("timezone") is None:
        for key in ("utc", "timezone"):
            if offset.get(key) is not None:
                vm[key] = clone_json(offset[key])
    if wanted.get("preferredTimer") is not None and vm.get("timer") is None:
        vm["timer"] = clone_json(wanted["preferredTimer"])


def subdomain(pref: Spec, spec: Spec, meta: Spec) -> None:
    if pref.get("preferredSubdomain") is not None and not spec.get("subdomain"):
        spec["subdomain"] = pref["preferredSubdomain"]


def termination_grace(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("preferredTerminationGracePeriodSeconds")
    if wanted is not None and spec.get("terminationGracePeriodSeconds") is None:
        spec["terminationGracePeriodSeconds"] = wanted


def architecture(pref: Spec, spec: Spec, meta: Spec) -> None:
    if pref.get("preferredArchitecture") and not spec.get("architecture"):
        spec["architecture"] = pref["preferredArchitecture"]


def template_annotations(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("annotations") or {}
    if wanted:
        present = child(meta, "annotations")
        for key, value in wanted.items():
            present.setdefault(key, value)


def launch_security(pref: Spec, spec: Spec, meta: Spec) -> None:
    wanted = pref.get("preferredLaunchSecurity")
    if wanted is not None:
        domain = child(spec, "domain")
        if domain.get("launchSecurity") is None:
            domain["launchSecurity"] = clone_json(wanted)


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
