"""Go's ``omitempty`` for the plain (non-pointer) scalar fields of a VMI spec.

KubeVirt never prints ``isolateEmulatorThread: false``, ``disableHotplug: false``, ``cores: 0`` or
``model: ""``: those fields are plain Go values, and their zero value is omitted when encoding. Data
that passes through from YAML (a preference's ``preferredDisableHotplug: false``, an instance type's
``isolateEmulatorThread: false``) must lose them the same way (staging/src/kubevirt.io/api/core/v1).
"""

from __future__ import annotations

from typing import Any

Spec = dict[str, Any]

# path from the VMI spec ("[]" = every list element) -> plain fields whose zero value Go omits
PLAIN_FIELDS: dict[tuple[str, ...], tuple[str, ...]] = {
    (): ("hostname", "subdomain", "schedulerName", "priorityClassName", "serviceAccountName", "architecture"),
    ("domain", "cpu"): (
        "cores",
        "sockets",
        "maxSockets",
        "threads",
        "model",
        "dedicatedCpuPlacement",
        "isolateEmulatorThread",
    ),
    ("domain", "cpu", "realtime"): ("mask",),
    ("domain", "devices"): ("disableHotplug",),
    ("domain", "features", "kvm"): ("hidden",),
    ("domain", "memory", "hugepages"): ("pageSize",),
    ("domain", "devices", "disks", "[]"): ("cache", "io", "serial", "tag", "errorPolicy"),
    ("domain", "devices", "disks", "[]", "disk"): ("bus", "readonly", "pciAddress"),
    ("domain", "devices", "disks", "[]", "lun"): ("bus", "readonly", "reservation"),
    ("domain", "devices", "disks", "[]", "cdrom"): ("bus", "tray"),
    ("domain", "devices", "interfaces", "[]"): ("model", "macAddress", "pciAddress", "tag"),
}


def omit_zero_plain_fields(spec: Spec) -> None:
    """Drop the plain fields of ``spec`` that hold their Go zero value (in place)."""
    for path, fields in PLAIN_FIELDS.items():
        for node in _nodes(spec, path):
            for name in fields:
                if name in node and node[name] in (False, 0, "") and node[name] is not None:
                    del node[name]


def _nodes(data: Any, path: tuple[str, ...]) -> list[Spec]:
    nodes = [data]
    for key in path:
        if key == "[]":
            nodes = [item for node in nodes if isinstance(node, list) for item in node]
        else:
            nodes = [node.get(key) for node in nodes if isinstance(node, dict)]
    return [node for node in nodes if isinstance(node, dict)]
