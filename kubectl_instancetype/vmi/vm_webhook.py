"""The defaults KubeVirt's complete VM mutating webhook writes into a new VirtualMachine.

pkg/virt-api/webhooks/mutating-webhook/mutators/vm-mutator.go on CREATE, minus the instance type
part the expand core owns (matcher validation, ``inferFromVolume``, preferred storage class): the
cluster kinds of bare matchers, the architecture and machine type (preference first, then the
cluster), the firmware identity and the ``kubevirt.io/pci-topology-version`` template annotation.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from .firmware import set_stable_firmware_uuid
from .util import clone_json

Spec = dict[str, Any]

PCI_TOPOLOGY_ANNOTATION = "kubevirt.io/pci-topology-version"
PCI_TOPOLOGY_VERSION = "v3"  # what the webhook writes when the annotation is absent
MATCHER_DEFAULT_KINDS = {
    "instancetype": "virtualmachineclusterinstancetype",
    "preference": "virtualmachineclusterpreference",
}


def vm_webhook_defaults(vm: Spec, cfg: ClusterConfig, preference: Spec | None) -> Spec:
    """A copy of ``vm`` with the VM webhook's defaults; ``preference`` is the resolved preference spec.

    KubeVirt draws a random firmware UUID and serial; this writes the stable, name-derived UUID
    instead (see :mod:`.firmware`) and no serial.
    """
    out = clone_json(vm)
    spec = out.setdefault("spec", {})
    for key, kind in MATCHER_DEFAULT_KINDS.items():
        matcher = spec.get(key)
        if isinstance(matcher, dict) and not matcher.get("kind"):
            matcher["kind"] = kind
    template = spec.get("template")
    if not isinstance(template, dict):
        return out  # the validating webhook rejects a VM without template
    tspec = template.setdefault("spec", {})
    set_architecture(tspec, cfg, preference)
    set_machine_type(tspec, cfg, preference)
    set_stable_firmware_uuid(tspec, str((out.get("metadata") or {}).get("name") or ""))
    if tspec.get("architecture") != "s390x":  # no PCI Express root ports to reserve
        set_pci_topology_version(template)
    return out


def set_architecture(tspec: Spec, cfg: ClusterConfig, preference: Spec | None) -> None:
    """``preferredArchitecture`` of the preference, else the cluster default, when the VM names none."""
    if tspec.get("architecture"):
        return
    preferred = (preference or {}).get("preferredArchitecture")
    tspec["architecture"] = preferred or cfg.default_architecture


def set_machine_type(tspec: Spec, cfg: ClusterConfig, preference: Spec | None) -> None:
    """``preferredMachineType`` of the preference, else the cluster default for the architecture."""
    domain = tspec.setdefault("domain", {})
    machine = domain.get("machine")
    if isinstance(machine, dict) and machine.get("type"):
        return
    if not isinstance(machine, dict):
        machine = domain["machine"] = {}
    preferred = ((preference or {}).get("machine") or {}).get("preferredMachineType")
    machine["type"] = preferred or cfg.machine_type_for(str(tspec.get("architecture") or ""))


def set_pci_topology_version(template: Spec) -> None:
    """Mark the template with the PCI topology scheme new VMs use, unless it names one already."""
    metadata = template.get("metadata")
    if not isinstance(metadata, dict):
        metadata = template["metadata"] = {}
    annotations = metadata.get("annotations")
    if not isinstance(annotations, dict):
        annotations = metadata["annotations"] = {}
    annotations.setdefault(PCI_TOPOLOGY_ANNOTATION, PCI_TOPOLOGY_VERSION)
