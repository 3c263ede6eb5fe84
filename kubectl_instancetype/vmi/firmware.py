"""The stable firmware UUID KubeVirt derives from a VirtualMachine's name.

A cluster's VM mutating webhook gives every new VM a random ``firmware.uuid`` and ``firmware.serial``
(KubeVirt VEP 14). Before that, and still for VMs created earlier, virt-controller derived the UUID
from the VM name (``CalculateLegacyUUID`` in pkg/virt-controller/watch/vm/firmware.go): a name-based
SHA-1 UUID (RFC 4122 version 5) in a fixed namespace. A render has to print *something*
deterministic, so it prints that one; the serial has no stable counterpart and is left out.
"""

from __future__ import annotations

import uuid
from typing import Any

from ..api.names import ASSIGNED
from ..api.origin import NO_TRACE, Trace, named

# The namespace UUID of KubeVirt's name-based firmware UUIDs (unchanged since KubeVirt v0.x).
FIRMWARE_UUID_NAMESPACE = uuid.UUID("6a1a24a1-4061-4607-8bf4-a3963d0c5895")
FIRMWARE_UUID = named("KubeVirt firmware UUID derived from the VM name")


def stable_firmware_uuid(vm_name: str) -> str:
    """The firmware UUID KubeVirt derives from ``vm_name`` (same bytes as Go's ``uuid.NewSHA1``)."""
    return str(uuid.uuid5(FIRMWARE_UUID_NAMESPACE, vm_name))


def set_stable_firmware_uuid(template_spec: dict[str, Any], vm_name: str, trace: Trace = NO_TRACE) -> None:
    """Give a template without ``domain.firmware.uuid`` the stable UUID of its VM (in place)."""
    domain = template_spec.setdefault("domain", {})
    firmware = domain.get("firmware")
    if not isinstance(firmware, dict):
        firmware = domain["firmware"] = {}
    if not firmware.get("uuid"):  # a name the API server generated is random: so is the UUID derived from it
        firmware["uuid"] = ASSIGNED if ASSIGNED in vm_name else stable_firmware_uuid(vm_name)
        trace.set(("domain", "firmware", "uuid"), FIRMWARE_UUID)
