"""The stage after the VMI controller: the virt-launcher Pod virt-controller renders for the VMI
(:mod:`kubectl_instancetype.launcher`), as a renderer of VMs like ``render_vmi``.

A Pod virt-controller cannot render is KubeVirt's error at the VM (stage ``pod``): a missing claim or
NetworkAttachmentDefinition, an unconfigured network binding, no StorageClass for backend storage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.origin import Origins
from ..catalog.find import Lookup
from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..launcher import Cluster, PodResult, render_pod, with_vm_datavolumes
from .stages import render_vmi

Spec = dict[str, Any]
STAGE = "pod"
PodRenderer = Callable[[Spec, str, Lookup, ClusterConfig, "Origins | None", "list[str] | None"], Spec]


def pod_result(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, cluster: Cluster, image: str,
               warnings: list[str] | None = None) -> PodResult:
    """The launcher Pod of ``vm`` (KubeVirtError when KubeVirt refuses the VM before its VMI exists)."""
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    vmi = render_vmi(vm, namespace, catalog, cfg, None, warnings)
    return render_pod(vmi, with_vm_datavolumes(cluster, vm, namespace), cfg, image)


def pod_renderer(cluster: Cluster, image: str) -> PodRenderer:
    """A VM renderer (``render --pod``) whose output is the Pod; KubeVirtError for a Pod it cannot render."""

    def render(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, book: Origins | None = None,
               warnings: list[str] | None = None) -> Spec:
        result = pod_result(vm, namespace, catalog, cfg, cluster, image, warnings)
        if result.error is not None or result.pod is None:
            raise KubeVirtError(result.error or "no Pod", STAGE)
        return result.pod

    return render
