"""The VMI controller's steps before it renders the Pod (``pkg/virt-controller/watch/vmi``): TSC-frequency
topology hints (``addTopologyHints``) and the backend-storage claim for a persistent TPM or EFI
(``BackendStorage.CreatePVCForVMI``)."""

from __future__ import annotations

from typing import Any

from ..api.golang import clone_json
from ..config import ClusterConfig
from . import settings
from .cluster import Cluster
from .placement import needs_tsc
from .volumes import backend_storage_needed

Spec = dict[str, Any]
TSC_LABEL = "cpu-timer.node.kubevirt.io/tsc-frequency"


class PrerenderError(Exception):
    """The VMI controller cannot go on to render the Pod (its message as KubeVirt reports it)."""


def with_topology_hints(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> Spec:
    """``vmi`` with ``status.topologyHints.tscFrequency`` when it needs a fixed TSC frequency: the CR's
    ``minimumClusterTSCFrequency``, else the lowest frequency the Nodes in the files advertise."""
    if not needs_tsc(vmi) or ((vmi.get("status") or {}).get("topologyHints") or {}).get("tscFrequency"):
        return vmi
    frequency = settings.minimum_tsc_frequency(cfg)
    if frequency is None:
        found = [int(v) for node in cluster.all("Node")
                 for k, v in ((node.get("metadata") or {}).get("labels") or {}).items()
                 if k == TSC_LABEL and str(v).isdigit()]
        frequency = min(found) if found else None
    if frequency is None:
        raise PrerenderError("delaying pod creation until topology hints are set (TSC frequency from the nodes)")
    out = clone_json(vmi)
    out.setdefault("status", {}).setdefault("topologyHints", {})["tscFrequency"] = frequency
    return out


def storage_class(cfg: ClusterConfig, cluster: Cluster) -> str:
    """``BackendStorage.getStorageClass``: vmStateStorageClass, else the default virt class, else the default."""
    named = settings.vm_state_storage_class(cfg)
    if named:
        return named
    virt, k8s = "", ""
    for sc in cluster.all("StorageClass"):
        annotations = (sc.get("metadata") or {}).get("annotations") or {}
        name = str((sc.get("metadata") or {}).get("name") or "")
        if annotations.get("storageclass.kubevirt.io/is-default-virt-class") == "true":
            virt = name
        if annotations.get("storageclass.kubernetes.io/is-default-class") == "true":
            k8s = name
    if virt or k8s:
        return virt or k8s
    raise PrerenderError("no default storage class found")


def backend_claim(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> str:
    """The backend-storage claim's name (the API server's generated suffix written ``xxxxx``), or ""."""
    if not backend_storage_needed(vmi):
        return ""
    storage_class(cfg, cluster)
    return f"persistent-state-for-{(vmi.get('metadata') or {}).get('name')}-xxxxx"
