"""The names of the Kubernetes and KubeVirt API objects a render reads or writes.

Kinds, API groups and versions, the labels and annotations KubeVirt sets, and the resource names the API
server uses in its messages (staging/src/kubevirt.io/api/instancetype/register.go, api/core/v1).
"""

from __future__ import annotations

INSTANCETYPE_GROUP = "instancetype.kubevirt.io"
#: What a render shows for a value the cluster draws at random (render --stored, a generated name's suffix).
ASSIGNED = "<assigned by the cluster>"
#: The API server keeps at most this much of ``metadata.generateName`` and appends 5 random characters
#: (apiserver ``storage/names`` ``SimpleNameGenerator``: maxNameLength 63, randomLength 5).
GENERATE_NAME_PREFIX = 58
INSTANCETYPE_VERSION = "v1beta1"
#: The only version of catalog objects KubeVirt serves (spec §1.2).
INSTANCETYPE_API_VERSION = f"{INSTANCETYPE_GROUP}/{INSTANCETYPE_VERSION}"
#: Old versions KubeVirt served, deprecated, until v1.5, and removed in v1.7 (:mod:`.versions`).
REMOVED_INSTANCETYPE_API_VERSIONS = frozenset((f"{INSTANCETYPE_GROUP}/v1alpha1", f"{INSTANCETYPE_GROUP}/v1alpha2"))
CORE_API_VERSION = "kubevirt.io/v1"

INSTANCETYPE = "VirtualMachineInstancetype"
CLUSTER_INSTANCETYPE = "VirtualMachineClusterInstancetype"
PREFERENCE = "VirtualMachinePreference"
CLUSTER_PREFERENCE = "VirtualMachineClusterPreference"
VIRTUAL_MACHINE = "VirtualMachine"
VIRTUAL_MACHINE_INSTANCE = "VirtualMachineInstance"
CONTROLLER_REVISION = "ControllerRevision"
KUBEVIRT = "KubeVirt"
VIRTUAL_MACHINE_POOL = "VirtualMachinePool"
#: The API group of VirtualMachinePools (v1alpha1 and v1beta1 share the template).
POOL_GROUP = "pool.kubevirt.io"

#: Both scopes of each catalog kind, cluster-scoped first.
INSTANCETYPE_KINDS = (CLUSTER_INSTANCETYPE, INSTANCETYPE)
PREFERENCE_KINDS = (CLUSTER_PREFERENCE, PREFERENCE)
CATALOG_KINDS = frozenset((*INSTANCETYPE_KINDS, *PREFERENCE_KINDS))
CLUSTER_KINDS = frozenset((CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE))

#: The objects ``inferFromVolume`` and revisions are resolved with: kind -> API versions accepted.
SUPPORT_KINDS: dict[str, frozenset[str]] = {
    CONTROLLER_REVISION: frozenset(("apps/v1",)),
    "PersistentVolumeClaim": frozenset(("v1",)),
    "DataVolume": frozenset(("cdi.kubevirt.io/v1beta1", "cdi.kubevirt.io/v1alpha1")),
    "DataSource": frozenset(("cdi.kubevirt.io/v1beta1",)),
    "VolumeSnapshot": frozenset(("snapshot.storage.k8s.io/v1", "snapshot.storage.k8s.io/v1beta1")),
}
#: Every kind a render looks up by namespace and name.
INDEXED_KINDS = CATALOG_KINDS | frozenset(SUPPORT_KINDS)

#: The API server's resource name of each kind looked up, as its NotFound messages spell it.
RESOURCE_NAMES = {
    INSTANCETYPE: f"virtualmachineinstancetypes.{INSTANCETYPE_GROUP}",
    CLUSTER_INSTANCETYPE: f"virtualmachineclusterinstancetypes.{INSTANCETYPE_GROUP}",
    PREFERENCE: f"virtualmachinepreferences.{INSTANCETYPE_GROUP}",
    CLUSTER_PREFERENCE: f"virtualmachineclusterpreferences.{INSTANCETYPE_GROUP}",
    CONTROLLER_REVISION: "controllerrevisions.apps",
    "PersistentVolumeClaim": "persistentvolumeclaims",
    "DataVolume": "datavolumes.cdi.kubevirt.io",
    "DataSource": "datasources.cdi.kubevirt.io",
    "VolumeSnapshot": "volumesnapshots.snapshot.storage.k8s.io",
}

#: Prefix of the labels and annotations of the instancetype group (common-instancetypes, revisions, inference).
LABEL_PREFIX = f"{INSTANCETYPE_GROUP}/"
#: The ``vendor`` label value of KubeVirt's own common-instancetypes objects.
VENDOR = "kubevirt.io"
#: The revision label naming the object a ControllerRevision stores (``object-name``, ``object-kind`` …).
REVISION_LABEL_PREFIX = f"{LABEL_PREFIX}object-"
OBJECT_NAME_LABEL = f"{REVISION_LABEL_PREFIX}name"
#: Volume labels ``inferFromVolume`` reads (``default-instancetype``, ``default-preference-kind`` …).
INFER_LABEL_PREFIX = f"{LABEL_PREFIX}default-"


def not_found(kind: str, name: str) -> str:
    """The Kubernetes API server's NotFound message for ``kind`` ``name``."""
    return f'{RESOURCE_NAMES[kind]} "{name}" not found'


def shown_name(meta: dict[str, object]) -> str:
    """An object's name as messages show it: ``metadata.name``, or for one named only by ``generateName`` the
    prefix and ``<assigned by the cluster>`` (the API server appends 5 random characters on create)."""
    name = meta.get("name")
    if not name and meta.get("generateName"):
        return f"{str(meta['generateName'])[:GENERATE_NAME_PREFIX]}{ASSIGNED}"
    return str(name)
