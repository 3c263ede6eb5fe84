"""The CustomResourceDefinitions KubeVirt installs: groups, kinds, served versions, scope, subresources.

From virt-operator's CRD constructors (kubevirt/kubevirt ``pkg/virt-operator/resource/generate/components/
crds.go``, the commit of the schema tables). kubectl maps a document's ``apiVersion``/``kind`` through these:
a kind or version of one of KubeVirt's groups that no CRD serves is refused before anything reaches the server
(``no matches for kind ...``); kinds of other groups (PVCs, DataVolumes, ControllerRevisions) are not
KubeVirt's to validate. Only the kinds with a schema table are validated here; the other served kinds of
KubeVirt's groups (snapshots, exports, clones, ...) pass through as the tool does not read them.
"""

from __future__ import annotations

from ..records import dataclass, field

V1ALPHA3_WARNING = "kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release."


@dataclass(frozen=True)
class CRD:
    """One kind: its group, served versions (with their deprecation warnings), scope and subresources."""

    group: str
    kind: str
    versions: tuple[str, ...]
    namespaced: bool = True
    status: bool = False  # a status subresource: status is dropped on create
    scale: bool = False  # a scale subresource: spec.replicas is checked on create
    deprecated: dict[str, str] = field(default_factory=dict)


_CORE = ("v1", "v1alpha3")  # virtv1.ApiSupportedVersions
_CORE_DEPRECATED = {"v1alpha3": V1ALPHA3_WARNING}
_SNAPSHOT = ("v1alpha1", "v1beta1")

CRDS = (
    CRD("kubevirt.io", "VirtualMachineInstance", _CORE, deprecated=_CORE_DEPRECATED),
    CRD("kubevirt.io", "VirtualMachine", _CORE, status=True, deprecated=_CORE_DEPRECATED),
    CRD("kubevirt.io", "VirtualMachineInstancePreset", ("v1", "v1alpha3"), deprecated={
        "v1": "kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated and will be removed in v2.",
        "v1alpha3": "kubevirt.io/v1alpha3 VirtualMachineInstancePresets is now deprecated and will be removed in v2.",
    }),
    CRD("kubevirt.io", "VirtualMachineInstanceReplicaSet", _CORE, status=True, scale=True,
        deprecated=_CORE_DEPRECATED),
    CRD("kubevirt.io", "VirtualMachineInstanceMigration", _CORE, status=True, deprecated=_CORE_DEPRECATED),
    CRD("kubevirt.io", "KubeVirt", _CORE, status=True, deprecated=_CORE_DEPRECATED),
    CRD("pool.kubevirt.io", "VirtualMachinePool", ("v1alpha1", "v1beta1"), status=True, scale=True),
    CRD("snapshot.kubevirt.io", "VirtualMachineSnapshot", _SNAPSHOT, status=True),
    CRD("snapshot.kubevirt.io", "VirtualMachineSnapshotContent", _SNAPSHOT, status=True),
    CRD("snapshot.kubevirt.io", "VirtualMachineRestore", _SNAPSHOT, status=True),
    CRD("export.kubevirt.io", "VirtualMachineExport", ("v1beta1", "v1"), status=True, deprecated={
        "v1beta1": "export.kubevirt.io/v1beta1 VirtualMachineExport is now deprecated and will be removed in a "
                   "future version.",
    }),
    CRD("backup.kubevirt.io", "VirtualMachineBackup", ("v1alpha1",), status=True),
    CRD("backup.kubevirt.io", "VirtualMachineBackupTracker", ("v1alpha1",), status=True),
    CRD("instancetype.kubevirt.io", "VirtualMachineInstancetype", ("v1beta1",)),
    CRD("instancetype.kubevirt.io", "VirtualMachineClusterInstancetype", ("v1beta1",), namespaced=False),
    CRD("instancetype.kubevirt.io", "VirtualMachinePreference", ("v1beta1",)),
    CRD("instancetype.kubevirt.io", "VirtualMachineClusterPreference", ("v1beta1",), namespaced=False),
    CRD("migrations.kubevirt.io", "MigrationPolicy", ("v1alpha1",), namespaced=False, status=True),
    CRD("clone.kubevirt.io", "VirtualMachineClone", ("v1alpha1", "v1beta1"), status=True),
    CRD("plugin.kubevirt.io", "Plugin", ("v1alpha1",), namespaced=False),
)
GROUPS = frozenset(crd.group for crd in CRDS)
_BY_KIND = {(crd.group, crd.kind): crd for crd in CRDS}

# Versions KubeVirt once served and removed: the refusal names the command that rewrites them.
REMOVED = {"instancetype.kubevirt.io": frozenset(("v1alpha1", "v1alpha2"))}


def split_api_version(api_version: str) -> tuple[str, str]:
    """(group, version) of an ``apiVersion`` (the core group is ``""``)."""
    group, _, version = api_version.rpartition("/")
    return group, version


def lookup(group: str, kind: str) -> CRD | None:
    return _BY_KIND.get((group, kind))


def no_match(kind: str, api_version: str) -> str:
    """kubectl's REST mapping error (apimachinery ``meta.NoKindMatchError``)."""
    return f'no matches for kind "{kind}" in version "{api_version}"'
