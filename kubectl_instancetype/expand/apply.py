"""Applying an instance type and a preference to a VMI spec (pkg/instancetype/apply/vmi.go).

The instance type appliers run first and all of them run; if any reported a conflict the preference
is not applied. Callers pass their own copies of ``spec`` and ``meta``: they are edited in place, and the
appliers record the origin of every value they set in ``trace`` (which names the instancetype and preference).
"""

from __future__ import annotations

from typing import Any

from ..api.origin import NO_TRACE, Trace
from ..api.releases import DEFAULT, Release
from . import instancetype, preference

Spec = dict[str, Any]


def apply_spec(base: str, it: Spec | None, pref: Spec | None, spec: Spec, meta: Spec,
               trace: Trace = NO_TRACE, release: Release = DEFAULT) -> list[str]:
    """Apply ``it`` then ``pref`` to ``spec``/``meta`` as ``release`` does; the conflict paths, in KubeVirt's
    order."""
    if it is not None and not release.applies_instancetype_io_threads and "ioThreads" in it:
        it = {k: v for k, v in it.items() if k != "ioThreads"}  # a v1.7.0 field: Go's decoding drops it before
    if it is not None:
        appliers = instancetype.APPLIERS
        if not release.memory_conflicts_only_guest:
            appliers = tuple(instancetype.memory_any_conflicts if a is instancetype.memory else a for a in appliers)
        conflicts = [path for applier in appliers for path in applier(base, it, pref, spec, meta, trace)]
        if conflicts:
            return conflicts
    if pref is not None:
        pref = _as_applied(pref, spec, release)
        for applier in preference.APPLIERS:
            applier(pref, spec, meta, trace)
    return []


def _as_applied(pref: Spec, spec: Spec, release: Release) -> Spec:
    """``pref`` without what ``release`` does not apply: the fields its API does not have (Go's decoding of a
    ControllerRevision drops them: ``preferredLaunchSecurity`` and ``devices.preferredVideoType`` before v1.9.0,
    ``preferredArchitecture`` before v1.7.0, ``preferredHyperv.tlbflush.direct`` / ``extended`` before v1.8.0,
    where ``tlbflush`` is a plain FeatureState, ``preferredTPM.enabled`` on v1.5.0),
    and before v1.9.0 ``preferredPanicDeviceModel`` only fills in the model of the VM's own panic devices and
    creates none."""
    if (release.applies_preferred_launch_security and release.applies_preferred_architecture
            and release.applies_preferred_video_type and release.knows_hyperv_tlbflush_modes
            and release.knows_tpm_enabled and release.creates_panic_device):
        return pref  # a release that applies every field as it is (the checks below would change nothing)
    unknown = [key for key, known in (("preferredLaunchSecurity", release.applies_preferred_launch_security),
                                      ("preferredArchitecture", release.applies_preferred_architecture))
               if not known and key in pref]
    if unknown:
        pref = {k: v for k, v in pref.items() if k not in unknown}
    devices = pref.get("devices")
    if not release.applies_preferred_video_type and isinstance(devices, dict) and "preferredVideoType" in devices:
        devices = {k: v for k, v in devices.items() if k != "preferredVideoType"}
        pref = {**pref, "devices": devices}
    pref = _without_tlbflush_modes(pref, release)
    devices = pref.get("devices")
    tpm = devices.get("preferredTPM") if isinstance(devices, dict) else None
    if not release.knows_tpm_enabled and isinstance(devices, dict) and isinstance(tpm, dict) and "enabled" in tpm:
        # TPMDevice.Enabled is a v1.5.1 field: v1.5.0 decodes preferredTPM without it
        devices = {**devices, "preferredTPM": {k: v for k, v in tpm.items() if k != "enabled"}}
        pref = {**pref, "devices": devices}
    if release.creates_panic_device or not isinstance(devices, dict) or "preferredPanicDeviceModel" not in devices:
        return pref
    if ((spec.get("domain") or {}).get("devices") or {}).get("panicDevices"):
        return pref
    return {**pref, "devices": {k: v for k, v in devices.items() if k != "preferredPanicDeviceModel"}}



def _without_tlbflush_modes(pref: Spec, release: Release) -> Spec:
    """``pref`` without ``preferredHyperv.tlbflush.direct`` / ``extended`` where ``release`` lacks them."""
    features = pref.get("features")
    if release.knows_hyperv_tlbflush_modes or not isinstance(features, dict):
        return pref
    hyperv = features.get("preferredHyperv")
    tlbflush = hyperv.get("tlbflush") if isinstance(hyperv, dict) else None
    if not isinstance(hyperv, dict) or not isinstance(tlbflush, dict) or not {"direct", "extended"} & tlbflush.keys():
        return pref
    tlbflush = {k: v for k, v in tlbflush.items() if k not in ("direct", "extended")}
    return {**pref, "features": {**features, "preferredHyperv": {**hyperv, "tlbflush": tlbflush}}}
