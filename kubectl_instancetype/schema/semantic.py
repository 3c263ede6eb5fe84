"""Kubernetes' ``equality.Semantic.DeepEqual`` over a VMI spec held as JSON, the way virt-controller compares
a running VM's templates (``syncRestartRequired`` and the live-update handlers, pkg/virt-controller/watch/vm/vm.go).

The comparison runs on Go values, not on JSON text, so what counts is the Go type of each field
(k8s.io/apimachinery third_party/forked/golang/reflect ``deepValueEqual`` with ``equateNilAndEmpty``):

* a **pointer** is nil when the field is absent or null, and a nil pointer differs from any pointer, even one to
  an empty struct or to a zero value: ``efi: {}``, ``tpm: {}``, ``smm: {}`` or ``autoattachVSOCK: false``
  added to a template are changes;
* a **plain** (non-pointer) struct or scalar has no nil: absent, null and its zero value are one value
  (``features.acpi: {}`` is the same as no ``acpi``, ``cores: 0`` the same as no ``cores``);
* a **map** or a **slice** compares nil and empty as equal (``nodeSelector: {}``, ``panicDevices: []``);
* a ``resource.Quantity`` compares by value (``1024Mi`` is ``1Gi``; an unset one is 0).

The structure of the spec comes from KubeVirt's OpenAPI definitions (:func:`..tables.kubevirt_definitions`);
which fields are pointers from :data:`POINTERS`, read off the Go types of kubevirt/kubevirt d923fdb8
(staging/src/kubevirt.io/api/core/v1 ``schema.go`` and ``types.go``, k8s.io/api/core/v1 ``types.go``). A field
the definitions do not know is compared as JSON (null as absent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..quantity import from_json
from .tables import Node, kubevirt_definitions

Path = tuple[str | int, ...]
ROOT = "v1.VirtualMachineInstanceSpec"
QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity"

# Definition -> its JSON fields whose Go type is a pointer (fields of an inlined struct included: ``Interface``'s
# binding methods, ``Volume``'s sources, ``Probe``'s handler, ``Clock``'s offset). Every other field of a
# definition is a plain struct or scalar, a map or a slice.
POINTERS: dict[str, frozenset[str]] = {name: frozenset(fields) for name, fields in {
    "k8s.io.api.core.v1.Affinity": ("nodeAffinity", "podAffinity", "podAntiAffinity"),
    "k8s.io.api.core.v1.DownwardAPIVolumeFile": ("fieldRef", "mode", "resourceFieldRef"),
    "k8s.io.api.core.v1.NodeAffinity": ("requiredDuringSchedulingIgnoredDuringExecution",),
    "k8s.io.api.core.v1.PodAffinityTerm": ("labelSelector", "namespaceSelector"),
    "k8s.io.api.core.v1.PodDNSConfigOption": ("value",),
    "k8s.io.api.core.v1.Toleration": ("tolerationSeconds",),
    "k8s.io.api.core.v1.TopologySpreadConstraint": ("labelSelector", "minDomains", "nodeAffinityPolicy",
                                                    "nodeTaintsPolicy"),
    "v1.AccessCredential": ("sshPublicKey", "userPassword"),
    "v1.BIOS": ("useSerial",),
    "v1.BlockSize": ("custom", "matchVolume"),
    "v1.Bootloader": ("bios", "efi"),
    "v1.CDRomTarget": ("readonly",),
    "v1.CPU": ("numa", "realtime"),
    "v1.Clock": ("timer", "timezone", "utc"),
    "v1.ClockOffsetUTC": ("offsetSeconds",),
    "v1.CloudInitConfigDriveSource": ("networkDataSecretRef", "secretRef"),
    "v1.CloudInitNoCloudSource": ("networkDataSecretRef", "secretRef"),
    "v1.ConfigMapVolumeSource": ("optional",),
    "v1.ContainerPathVolumeSource": ("readOnly",),
    "v1.CustomBlockSize": ("discardGranularity",),
    "v1.Devices": ("autoattachGraphicsDevice", "autoattachInputDevice", "autoattachMemBalloon",
                   "autoattachPodInterface", "autoattachSerialConsole", "autoattachVSOCK", "blockMultiQueue",
                   "clientPassthrough", "downwardMetrics", "logSerialConsole", "networkInterfaceMultiqueue", "rng",
                   "sound", "tpm", "useVirtioTransitional", "video", "watchdog"),
    "v1.Disk": ("blockSize", "bootOrder", "cdrom", "changedBlockTracking", "dedicatedIOThread", "disk",
                "errorPolicy", "lun", "shareable"),
    "v1.DiskIOThreads": ("supplementalPoolThreadCount",),
    "v1.DomainSpec": ("chassis", "clock", "cpu", "features", "firmware", "ioThreads", "ioThreadsPolicy",
                      "launchSecurity", "machine", "memory", "rebootPolicy"),
    "v1.EFI": ("persistent", "secureBoot"),
    "v1.EphemeralVolumeSource": ("persistentVolumeClaim",),
    "v1.FeatureAPIC": ("enabled",),
    "v1.FeatureHyperv": ("evmcs", "frequencies", "ipi", "reenlightenment", "relaxed", "reset", "runtime",
                         "spinlocks", "synic", "synictimer", "tlbflush", "vapic", "vendorid", "vpindex"),
    "v1.FeatureSpinlocks": ("enabled", "spinlocks"),
    "v1.FeatureState": ("enabled",),
    "v1.FeatureVendorID": ("enabled",),
    "v1.Features": ("apic", "hyperv", "hypervPassthrough", "kvm", "pvspinlock", "smm"),
    "v1.Filesystem": ("virtiofs",),
    "v1.Firmware": ("acpi", "bootloader", "kernelBoot"),
    "v1.GPU": ("claimName", "requestName", "virtualGPUOptions"),  # claim*: the inlined *ClaimRequest
    "v1.HPETTimer": ("present",),
    "v1.HostDevice": ("claimName", "requestName"),
    "v1.HostDisk": ("shared",),
    "v1.HyperVPassthrough": ("enabled",),
    "v1.HypervTimer": ("present",),
    "v1.Interface": ("binding", "bootOrder", "bridge", "dhcpOptions", "macvtap", "masquerade", "passt",
                     "passtBinding", "slirp", "sriov"),
    "v1.KVMTimer": ("present",),
    "v1.KernelBoot": ("container",),
    "v1.LaunchSecurity": ("sev", "snp", "tdx"),
    "v1.Memory": ("guest", "hugepages", "maxGuest", "reservedOverhead"),
    "v1.NUMA": ("guestMappingPassthrough",),
    "v1.Network": ("multus", "pod", "resourceClaim"),
    "v1.PITTimer": ("present",),
    "v1.PanicDevice": ("model",),
    "v1.Probe": ("exec", "guestAgentPing", "httpGet", "tcpSocket"),
    "v1.RTCTimer": ("present",),
    "v1.ReservedOverhead": ("addedOverhead", "memLock"),
    "v1.SEV": ("attestation", "policy"),
    "v1.SEVPolicy": ("encryptedState",),
    "v1.SSHPublicKeyAccessCredentialPropagationMethod": ("configDrive", "noCloud", "qemuGuestAgent"),
    "v1.SSHPublicKeyAccessCredentialSource": ("secret",),
    "v1.SecretVolumeSource": ("optional",),
    "v1.SyNICTimer": ("direct", "enabled"),
    "v1.SysprepSource": ("configMap", "secret"),
    "v1.TLBFlush": ("direct", "enabled", "extended"),
    "v1.TPMDevice": ("enabled", "persistent"),
    "v1.Timer": ("hpet", "hyperv", "kvm", "pit", "rtc"),
    "v1.UserPasswordAccessCredentialPropagationMethod": ("qemuGuestAgent",),
    "v1.UserPasswordAccessCredentialSource": ("secret",),
    "v1.UtilityVolume": ("type",),
    "v1.VGPUDisplayOptions": ("enabled", "ramFB"),
    "v1.VGPUOptions": ("display",),
    "v1.VirtualMachineInstanceResourceClaim": ("resourceClaimName", "resourceClaimTemplateName"),
    "v1.VirtualMachineInstanceSpec": ("affinity", "dnsConfig", "evictionStrategy", "livenessProbe",
                                      "readinessProbe", "startStrategy", "terminationGracePeriodSeconds"),
    "v1.Volume": ("cloudInitConfigDrive", "cloudInitNoCloud", "configMap", "containerDisk", "containerPath",
                  "dataVolume", "downwardAPI", "downwardMetrics", "emptyDisk", "ephemeral", "hostDisk", "memoryDump",
                  "persistentVolumeClaim", "secret", "serviceAccount", "sysprep"),
    "v1.Watchdog": ("diag288", "i6300esb"),
}.items()}


class _Type:
    """A schema node with the name of the definition it resolves to ("" for an inline node)."""

    __slots__ = ("name", "node")

    def __init__(self, node: Node | None, name: str = "") -> None:
        defs = kubevirt_definitions().nodes
        while node is not None and node.ref is not None:
            name, node = node.ref, defs.get(node.ref)
        self.node, self.name = node, name

    def field(self, key: str) -> tuple[_Type, bool]:
        """The type of field ``key`` of this struct, and whether it is a pointer."""
        sub = self.node.properties.get(key) if self.node is not None else None
        if sub is None:
            return _UNKNOWN, True
        return _Type(sub), key in POINTERS.get(self.name, ())

    def values(self) -> _Type:
        add = self.node.additional if self.node is not None else None
        return _Type(add) if isinstance(add, Node) else _UNKNOWN

    def items(self) -> _Type:
        return _Type(self.node.items) if self.node is not None else _UNKNOWN

    @property
    def is_map(self) -> bool:
        return self.node is not None and isinstance(self.node.additional, Node) and not self.node.properties


_UNKNOWN = _Type(None)


def _root() -> _Type:
    return _Type(kubevirt_definitions().nodes[ROOT], ROOT)


def type_at(path: Path) -> tuple[_Type, bool]:
    """The type of the value at ``path`` of a VMI spec (an int steps into a list), and whether it is a pointer
    (the spec itself and list items count as pointers: they are never dropped)."""
    kind, pointer = _root(), True
    for key in path:
        if isinstance(key, int):
            kind, pointer = kind.items(), True
        elif kind.is_map:
            kind, pointer = kind.values(), True
        else:
            kind, pointer = kind.field(key)
    return kind, pointer


def _zero(value: Any) -> bool:
    if isinstance(value, bool):
        return value is False
    if isinstance(value, (int, float)):
        return value == 0
    return value is None or value in ("", {}, []) or value == ("quantity", 0)


def _quantity(value: Any) -> Any:
    """A Quantity as ``Quantity.Cmp`` compares it: by value, whatever its spelling."""
    try:
        return ("quantity", from_json(value).value())
    except (TypeError, ValueError, AttributeError, ArithmeticError):
        return value


def _normal(value: Any, kind: _Type, pointer: bool) -> Any:
    """``value`` as one canonical Python value per Go value (None: absent, nil, or a plain field's zero)."""
    if value is None:
        return None
    if kind.name == QUANTITY:
        out: Any = _quantity(value)
    elif isinstance(value, Mapping):
        if kind.is_map:
            sub = kind.values()
            out = {k: _normal(v, sub, True) for k, v in value.items()}
        else:
            out = {}
            for key, item in value.items():
                field, field_pointer = kind.field(str(key))
                norm = _normal(item, field, field_pointer)
                if norm is not None:
                    out[key] = norm
    elif isinstance(value, list):
        sub = kind.items()
        out = [_normal(item, sub, True) for item in value]
        if not out:
            return None  # nil and empty slices are equal
    else:
        out = value
    if isinstance(out, dict) and not out and kind.is_map:
        return None  # nil and empty maps are equal
    if not pointer and _zero(out):
        return None
    return out


def normal(value: Any, path: Path = ()) -> Any:
    """``value``, found at ``path`` of a VMI spec, in the form where equal Go values are equal Python values."""
    kind, pointer = type_at(path)
    return _normal(value, kind, pointer)


def equal(a: Any, b: Any, path: Path = ()) -> bool:
    """``equality.Semantic.DeepEqual`` of two values found at ``path`` of a VMI spec."""
    return bool(normal(a, path) == normal(b, path))
