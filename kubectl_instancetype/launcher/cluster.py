"""The cluster objects a launcher Pod's render reads, gathered from the input files.

virt-controller reads PersistentVolumeClaims (volume mode, for block devices vs mounts), NetworkAttachment
Definitions (their SR-IOV/device resource name), StorageClasses (backend storage), ResourceQuotas and
Namespaces (automatic limits), Nodes (TSC frequency) from its informers. Offline they come from the files; a
DataVolume stands for the PVC CDI leaves: its name, its volume mode (``Filesystem`` when unset) and its
access modes (``ReadWriteOnce`` when unset), unless the files hold that PVC itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..records import dataclass, field

Obj = dict[str, Any]
KINDS = ("PersistentVolumeClaim", "DataVolume", "NetworkAttachmentDefinition", "StorageClass", "ResourceQuota",
         "Namespace", "Node", "ConfigMap")
_CLUSTER_SCOPED = ("StorageClass", "Namespace", "Node")


@dataclass(frozen=True)
class Cluster:
    """Objects by kind, then by ``namespace/name`` (``name`` for cluster-scoped kinds)."""

    objects: dict[str, dict[str, Obj]] = field(default_factory=dict)

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        key = name if kind in _CLUSTER_SCOPED else f"{namespace}/{name}"
        return self.objects.get(kind, {}).get(key)

    def all(self, kind: str) -> list[Obj]:
        return list(self.objects.get(kind, {}).values())

    def has(self, kind: str) -> bool:
        return bool(self.objects.get(kind))

    def pvc(self, namespace: str, name: str) -> Obj | None:
        """The claim as virt-controller's PVC informer has it: the file's PVC, else a DataVolume's."""
        found = self.get("PersistentVolumeClaim", namespace, name)
        if found is not None:
            return found
        dv = self.get("DataVolume", namespace, name)
        return None if dv is None else datavolume_pvc(name, namespace, dv.get("spec"))


EMPTY = Cluster()


def datavolume_pvc(name: str, namespace: str, spec: Any) -> Obj:
    """The PVC CDI leaves for a DataVolume named ``name``."""
    mode, access = "Filesystem", None
    if isinstance(spec, dict):
        source = spec.get("pvc") if isinstance(spec.get("pvc"), dict) else spec.get("storage")
        if isinstance(source, dict):
            mode = source.get("volumeMode") or mode
            access = source.get("accessModes")
    return {
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"volumeMode": mode, "accessModes": list(access or ["ReadWriteOnce"])},
        "status": {"phase": "Bound"},
    }


def gather(objects: Iterable[Obj], default_namespace: str = "default") -> Cluster:
    """The cluster objects among ``objects`` (other kinds are ignored; the first of two same keys wins)."""
    out: dict[str, dict[str, Obj]] = {}
    for obj in objects:
        kind = obj.get("kind") if isinstance(obj, dict) else None
        if kind not in KINDS:
            continue
        meta = obj.get("metadata") or {}
        name = str(meta.get("name") or "")
        key = name if kind in _CLUSTER_SCOPED else f"{meta.get('namespace') or default_namespace}/{name}"
        out.setdefault(str(kind), {}).setdefault(key, obj)
    return Cluster(out)


def with_vm_datavolumes(cluster: Cluster, vm: Obj, namespace: str) -> Cluster:
    """``cluster`` with the DataVolumes ``vm``'s ``dataVolumeTemplates`` create (those not in the files)."""
    templates = (vm.get("spec") or {}).get("dataVolumeTemplates") or []
    added = {}
    for t in templates:
        if not isinstance(t, dict):
            continue
        name = str((t.get("metadata") or {}).get("name") or "")
        key = f"{namespace}/{name}"
        if cluster.get("DataVolume", namespace, name) is None:
            added[key] = {"kind": "DataVolume", "metadata": {"name": name, "namespace": namespace},
                          "spec": t.get("spec")}
    if not added:
        return cluster
    objects = dict(cluster.objects)
    objects["DataVolume"] = {**objects.get("DataVolume", {}), **added}
    return Cluster(objects)
