"""The ``kubevirt.io/pci-topology-version`` annotation the VM and VMI mutating webhooks write on create.

Both write it only where KubeVirt can reserve PCI Express root ports for hot-plug (``SupportsPCIeHotplug`` in
pkg/defaults/defaults.go): amd64 or arm64 (or no architecture yet), and a machine type that is a q35 or an
arm64 ``virt`` one. A VM on ``pc`` (i440fx), ``pseries`` or s390x gets no annotation.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Origin, Trace

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


def annotate(owner: Spec, spec: Spec, origin: Origin, trace: Trace = NO_TRACE) -> None:
    """Write the annotation into the metadata of ``owner`` (a VMI, or a VM's template) when ``spec`` supports
    hot-plug and it is absent (``trace``: rooted at that metadata)."""
    if not supports_pcie_hotplug(spec):
        return
    annotations = child(child(owner, "metadata"), "annotations")
    if ANNOTATION not in annotations:
        annotations[ANNOTATION] = VERSION
        trace.set(("annotations", ANNOTATION), origin)
