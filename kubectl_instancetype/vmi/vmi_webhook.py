"""The VMI mutating webhook on create (pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go).

It defaults the spec (the same cluster defaults expansion uses, then the API defaulters, Hyper-V
dependencies, architecture defaults and hot-plug maxima), annotates the PCI topology scheme, adds the
foreground-deletion finalizer and the initial status.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..expand.defaults import cluster_defaults
from .arch import set_arch_defaults, set_arch_features
from .hotplug import setup_hotplug
from .objdefaults import set_hyperv_dependencies, set_object_defaults
from .status import initial_status
from .util import child
from .vm_webhook import PCI_TOPOLOGY_ANNOTATION, PCI_TOPOLOGY_VERSION

Spec = dict[str, Any]

VMI_FINALIZER = "kubevirt.io/foregroundDeleteVirtualMachine"
QGS_SOCKET_ANNOTATION = "kubevirt.io/qgs-socket-path"
QGS_SOCKET_PATH = "/var/run/tdx-qgs/qgs.socket"  # TDX quote generation service, for attestation


def vmi_webhook(vmi: Spec, cfg: ClusterConfig) -> None:
    """Apply the webhook's defaults to ``vmi`` in place, in KubeVirt's order."""
    spec = child(vmi, "spec")
    try:
        cluster_defaults(cfg, spec)
    except KubeVirtError as exc:
        raise KubeVirtError(exc.message, stage="controller") from None
    set_arch_features(spec)
    set_object_defaults(spec, cfg.default_architecture)
    set_hyperv_dependencies(spec)
    set_arch_defaults(spec, cfg)
    status = initial_status(spec, cfg)
    setup_hotplug(spec, cfg)
    meta = child(vmi, "metadata")
    annotations = child(meta, "annotations")
    if spec.get("architecture") != "s390x":  # no PCI Express root ports to reserve
        annotations.setdefault(PCI_TOPOLOGY_ANNOTATION, PCI_TOPOLOGY_VERSION)
    if ((spec["domain"].get("launchSecurity") or {}).get("tdx")) is not None:
        annotations[QGS_SOCKET_ANNOTATION] = QGS_SOCKET_PATH
    meta["finalizers"] = [*(meta.get("finalizers") or []), VMI_FINALIZER]
    vmi["status"] = status
