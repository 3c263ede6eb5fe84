"""The kinds KubeVirt's client-go scheme can decode (staging/src/kubevirt.io/client-go/kubevirt/scheme/register.go).

virt-controller decodes a ControllerRevision's payload with this scheme's universal deserializer: a payload of
any group, version and kind listed here decodes (and is then refused for its type unless it is an instancetype
or preference); any other gives apimachinery's "no kind ... is registered" error.
"""

from __future__ import annotations

from .names import CATALOG_KINDS

# metav1.AddToGroupVersion adds these to every group version the API packages register.
_META_KINDS = ("WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions",
               "PatchOptions")
# ... and these once, unversioned (group "", version "v1"), beside the options of the scheme's own init.
_UNVERSIONED = ("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList")


def _with_lists(*kinds: str) -> tuple[str, ...]:
    return tuple(kind for name in kinds for kind in (name, f"{name}List"))


_CORE = _with_lists("VirtualMachineInstance", "VirtualMachineInstanceReplicaSet", "VirtualMachineInstancePreset",
                    "VirtualMachineInstanceMigration", "VirtualMachine", "KubeVirt")
_SNAPSHOT = _with_lists("VirtualMachineSnapshot", "VirtualMachineSnapshotContent", "VirtualMachineRestore")

# group version -> the API package's own kinds (addKnownTypes in staging/src/kubevirt.io/api/*/register.go)
_PACKAGES: dict[str, tuple[str, ...]] = {
    "backup.kubevirt.io/v1alpha1": _with_lists("VirtualMachineBackup", "VirtualMachineBackupTracker"),
    "clone.kubevirt.io/v1alpha1": _with_lists("VirtualMachineClone"),
    "clone.kubevirt.io/v1beta1": _with_lists("VirtualMachineClone"),
    "kubevirt.io/v1": _CORE,
    "export.kubevirt.io/v1beta1": _with_lists("VirtualMachineExport"),
    "export.kubevirt.io/v1": _with_lists("VirtualMachineExport"),
    "instancetype.kubevirt.io/v1beta1": _with_lists(*sorted(CATALOG_KINDS)),
    "migrations.kubevirt.io/v1alpha1": _with_lists("MigrationPolicy"),
    "plugin.kubevirt.io/v1alpha1": _with_lists("Plugin"),
    "pool.kubevirt.io/v1alpha1": _with_lists("VirtualMachinePool"),
    "pool.kubevirt.io/v1beta1": _with_lists("VirtualMachinePool"),
    "snapshot.kubevirt.io/v1alpha1": _SNAPSHOT,
    "snapshot.kubevirt.io/v1beta1": _SNAPSHOT,
}
REGISTERED: dict[str, frozenset[str]] = {
    **{version: frozenset((*kinds, *_META_KINDS)) for version, kinds in _PACKAGES.items()},
    "v1": frozenset((*_UNVERSIONED, *_META_KINDS)),
}


def is_registered(api_version: str, kind: str) -> bool:
    """Whether KubeVirt's scheme decodes an object of this ``apiVersion`` and ``kind``."""
    return kind in REGISTERED.get(api_version, frozenset())
