"""The VMI controller's steps before it renders the Pod (``pkg/virt-controller/watch/vmi``): TSC-frequency
topology hints (``addTopologyHints``) and the backend-storage claim for a persistent TPM or EFI
(``BackendStorage.CreatePVCForVMI``)."""

from __future__ import annotations

from typing import Any

from ..api.golang import clone_json
from ..config import ClusterConfig
from . import settings
from .cluster import Cluster
from .placement import needs_tsc, requires_tsc_for_boot
from .volumes import OTHER, STORAGE_CLASS, backend_storage_needed

Spec = dict[str, Any]
TSC_LABEL = "cpu-timer.node.kubevirt.io/tsc-frequency"


class PrerenderError(Exception):
    """The VMI controller cannot go on to render the Pod (its message as KubeVirt reports it)."""

    def __init__(self, message: str, reason: str = OTHER) -> None:
        super().__init__(message)
        self.reason = reason


def with_topology_hints(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> Spec:
    """``addTopologyHints``: ``status.topologyHints.tscFrequency`` for an amd64 VMI that needs a TSC frequency:
    the CR's ``minimumClusterTSCFrequency``, else the lowest one the schedulable Nodes in the files advertise
    (0 without any: the hint is set and no node label is required)."""
    amd64 = (vmi.get("spec") or {}).get("architecture") == "amd64"
    if not amd64 or not needs_tsc(vmi) or (vmi.get("status") or {}).get("topologyHints") is not None:
        return vmi
    frequency = settings.minimum_tsc_frequency(cfg)
    if frequency is not None and frequency <= 0:
        if not requires_tsc_for_boot(vmi):
            return vmi
        raise PrerenderError("failed to determine the lowest tsc frequency on the cluster: the configured "
                             f"minimumClusterTSCFrequency must be greater 0, but got {frequency}")
    if frequency is None:
        found = []
        for node in cluster.all("Node"):
            labels = (node.get("metadata") or {}).get("labels") or {}
            value = str(labels.get(TSC_LABEL, ""))
            if value.isdigit() and labels.get("kubevirt.io/schedulable") == "true":
                found.append(int(value))
        frequency = min(found) if found else 0
    out = clone_json(vmi)
    out.setdefault("status", {})["topologyHints"] = {"tscFrequency": frequency}
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
    raise PrerenderError("no default storage class found", STORAGE_CLASS)


def backend_claim(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> str:
    """The backend-storage claim's name (the API server's generated suffix written ``xxxxx``), or ""."""
    if not backend_storage_needed(vmi):
        return ""
    storage_class(cfg, cluster)
    return f"persistent-state-for-{(vmi.get('metadata') or {}).get('name')}-xxxxx"
