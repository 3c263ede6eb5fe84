"""The ``kubevirt.io/pci-topology-version`` annotation the VM and VMI mutating webhooks write on create.

Both write it only where KubeVirt can reserve PCI Express root ports for hot-plug (``SupportsPCIeHotplug`` in
pkg/defaults/defaults.go): amd64 or arm64 (or no architecture yet), and a machine type that is a q35 or an
arm64 ``virt`` one. A VM on ``pc`` (i440fx), ``pseries`` or s390x gets no annotation.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Origin, Trace
from ..api.releases import DEFAULT, Release

Spec = dict[str, Any]

ANNOTATION = "kubevirt.io/pci-topology-version"
VERSION = "v3"  # what the webhooks write when the annotation is absent
_HOTPLUG_ARCHITECTURES = ("amd64", "arm64", "")


def supports_pcie_hotplug(spec: Spec) -> bool:
    """Whether a VMI spec's architecture and machine type let KubeVirt reserve PCIe root ports.

    KubeVirt tests the machine type only when ``domain.machine`` is set; it matches ``q35`` anywhere in the
    name (``pc-q35-rhel9.6.0``) but ``virt`` only as a prefix.
    """
    if str(spec.get("architecture") or "") not in _HOTPLUG_ARCHITECTURES:
        return False
    machine = (spec.get("domain") or {}).get("machine")
    if not isinstance(machine, dict):
        return True
    machine_type = str(machine.get("type") or "")
    return "q35" in machine_type or machine_type.startswith("virt")


def written(spec: Spec, release: Release) -> bool:
    """Whether ``release`` writes the annotation for ``spec``: from v1.6.4, v1.7.2 and v1.8.0; only for the
    architectures with PCIe hot-plug from v1.6.5, v1.7.3 and v1.8.2; only for their machine types as well
    from v1.6.6, v1.7.4 and v1.8.3."""
    if not release.writes_pci_topology:
        return False
    if release.pci_topology_needs_hotplug_machine:
        return supports_pcie_hotplug(spec)
    if release.pci_topology_skips_s390x:
        return str(spec.get("architecture") or "") in _HOTPLUG_ARCHITECTURES
    return True


def annotate(owner: Spec, spec: Spec, origin: Origin, trace: Trace = NO_TRACE, release: Release = DEFAULT) -> None:
    """Write the annotation into the metadata of ``owner`` (a VMI, or a VM's template) when ``release`` writes
    it for ``spec`` and it is absent (``trace``: rooted at that metadata)."""
    if not written(spec, release):
        return
    annotations = child(child(owner, "metadata"), "annotations")
    if ANNOTATION not in annotations:
        annotations[ANNOTATION] = VERSION
        trace.set(("annotations", ANNOTATION), origin)
