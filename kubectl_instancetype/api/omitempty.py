"""Go's ``omitempty`` on plain (non-pointer) fields of the VMI spec and the VM status.

KubeVirt never prints ``isolateEmulatorThread: false``, ``disableHotplug: false``, ``cores: 0``, ``model: ""``
or ``hotpluggable: false``, so such values passing through from YAML (a user's ``readOnly: false``, a
preference's ``preferredDisableHotplug: false``, a converted v1alpha instancetype's ``model: ""``) lose them
the same way. The table lists every plain scalar field tagged ``omitempty`` reachable from
``VirtualMachineInstanceSpec`` in staging/src/kubevirt.io/api/core/v1 (schema.go, types.go), plus the Kubernetes
fields inlined in KubeVirt's volume sources.
"""

from __future__ import annotations

from typing import Any

Spec = dict[str, Any]

# path from the VMI spec ("[]" = every list element) -> plain fields whose zero value Go omits
PLAIN_FIELDS: dict[tuple[str, ...], tuple[str, ...]] = {
    (): ("priorityClassName", "schedulerName", "serviceAccountName", "hostname", "subdomain", "architecture"),
    ("domain", "chassis"): ("manufacturer", "version", "serial", "asset", "sku"),
    ("domain", "clock", "timer", "hpet"): ("tickPolicy",),
    ("domain", "clock", "timer", "pit"): ("tickPolicy",),
    ("domain", "clock", "timer", "rtc"): ("tickPolicy", "track"),
    ("domain", "cpu"): (
        "cores",
        "sockets",
        "maxSockets",
        "threads",
        "model",
        "dedicatedCpuPlacement",
        "isolateEmulatorThread",
    ),
    ("domain", "cpu", "features", "[]"): ("policy",),
    ("domain", "cpu", "realtime"): ("mask",),
    ("domain", "devices"): ("disableHotplug",),
    ("domain", "devices", "disks", "[]"): ("serial", "cache", "io", "tag"),
    ("domain", "devices", "disks", "[]", "blockSize", "custom"): ("logical", "physical"),
    ("domain", "devices", "disks", "[]", "cdrom"): ("bus", "tray"),
    ("domain", "devices", "disks", "[]", "disk"): ("bus", "readonly", "pciAddress"),
    ("domain", "devices", "disks", "[]", "lun"): ("bus", "readonly", "reservation"),
    ("domain", "devices", "gpus", "[]"): ("deviceName", "tag"),
    ("domain", "devices", "hostDevices", "[]"): ("deviceName", "tag"),
    ("domain", "devices", "inputs", "[]"): ("bus",),
    ("domain", "devices", "interfaces", "[]"): ("model", "macAddress", "pciAddress", "tag", "acpiIndex", "state"),
    ("domain", "devices", "interfaces", "[]", "dhcpOptions"): ("bootFileName", "tftpServerName"),
    ("domain", "devices", "interfaces", "[]", "ports", "[]"): ("name", "protocol"),
    ("domain", "devices", "sound"): ("model",),
    ("domain", "devices", "video"): ("type",),
    ("domain", "devices", "watchdog", "diag288"): ("action",),
    ("domain", "devices", "watchdog", "i6300esb"): ("action",),
    ("domain", "features", "apic"): ("endOfInterrupt",),
    ("domain", "features", "hyperv", "vendorid"): ("vendorid",),
    ("domain", "features", "kvm"): ("hidden",),
    ("domain", "firmware"): ("serial",),
    ("domain", "firmware", "acpi"): ("slicNameRef", "msdmNameRef"),
    ("domain", "firmware", "kernelBoot"): ("kernelArgs",),
    ("domain", "firmware", "kernelBoot", "container"): ("imagePullSecret", "kernelPath", "initrdPath"),
    ("domain", "launchSecurity", "sev"): ("session", "dhCert"),
    ("domain", "memory", "hugepages"): ("pageSize",),
    ("domain", "resources"): ("overcommitGuestOverhead",),
    ("livenessProbe",): (
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ),
    ("networks", "[]", "multus"): ("default",),
    ("networks", "[]", "pod"): ("vmNetworkCIDR", "vmIPv6NetworkCIDR"),
    ("networks", "[]", "resourceClaim"): ("claimName", "requestName"),
    ("readinessProbe",): (
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ),
    ("volumes", "[]", "cloudInitConfigDrive"): ("userDataBase64", "userData", "networkDataBase64", "networkData"),
    ("volumes", "[]", "cloudInitNoCloud"): ("userDataBase64", "userData", "networkDataBase64", "networkData"),
    ("volumes", "[]", "configMap"): ("name", "volumeLabel"),
    ("volumes", "[]", "containerDisk"): ("imagePullSecret", "path", "imagePullPolicy"),
    ("volumes", "[]", "dataVolume"): ("hotpluggable",),
    ("volumes", "[]", "downwardAPI"): ("volumeLabel",),
    ("volumes", "[]", "ephemeral", "persistentVolumeClaim"): ("readOnly",),
    ("volumes", "[]", "memoryDump"): ("hotpluggable", "readOnly"),
    ("volumes", "[]", "persistentVolumeClaim"): ("hotpluggable", "readOnly"),
    ("volumes", "[]", "secret"): ("secretName", "volumeLabel"),
    ("volumes", "[]", "serviceAccount"): ("serviceAccountName",),
}

# VirtualMachineStatus's plain fields, all omitempty: a dumped VM's `ready: false` is not printed back.
VM_STATUS_PLAIN_FIELDS = ("created", "ready", "printableStatus", "observedGeneration", "desiredGeneration",
                          "runStrategy")


def omit_zero_plain_fields(spec: Spec) -> None:
    """Drop the plain fields of a VMI ``spec`` that hold their Go zero value (in place).

    One walk of the spec along the paths of :data:`PLAIN_FIELDS` as a tree (a path's "[]" steps into each item
    of a list); the values dropped are no containers, so no walk depends on another's drops."""
    _walk(spec, _PATHS)


# PLAIN_FIELDS as a tree: (the field tuples of the node reached, {key: the tree below it}, the tree below
# each item of a list reached, or None).
_Tree = tuple[list[tuple[str, ...]], dict[str, Any], Any]


def _tree(paths: dict[tuple[str, ...], tuple[str, ...]]) -> _Tree:
    root: dict[str, Any] = {}
    for path, fields in paths.items():
        node = root
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("", []).append(fields)
    return _frozen(root)


def _frozen(node: dict[str, Any]) -> _Tree:
    below = {key: _frozen(sub) for key, sub in node.items() if key not in ("", "[]")}
    return node.get("", []), below, _frozen(node["[]"]) if "[]" in node else None


def _walk(data: Any, tree: _Tree) -> None:
    """Only the keys ``data`` has are followed (a spec holds few of the tree's): a walk of a VM's spec
    visits what it holds, not every path of the table."""
    if isinstance(data, dict):
        for fields in tree[0]:
            _omit(data, fields)
        below = tree[1]
        if len(below) <= len(data):
            for key, sub in below.items():
                value = data.get(key)
                if value is not None:
                    _walk(value, sub)
        else:
            for key, value in data.items():
                sub = below.get(key)
                if sub is not None:
                    _walk(value, sub)
    elif isinstance(data, list) and tree[2] is not None:
        each = tree[2]
        for item in data:
            _walk(item, each)


_PATHS = _tree(PLAIN_FIELDS)


def omit_zero_status_fields(status: Any) -> None:
    """Drop the plain fields of a VM ``status`` that hold their Go zero value (in place)."""
    if isinstance(status, dict):
        _omit(status, VM_STATUS_PLAIN_FIELDS)


def _omit(node: Spec, fields: tuple[str, ...]) -> None:
    for name in fields:
        if name in node and node[name] in (False, 0, "") and node[name] is not None:
            del node[name]
