"""Annotations the VMI mutating webhook copies from the cluster onto a new VMI (``ApplyNewVMIMutations``,
pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go).

* ``alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity`` (always the empty value) when the VMI isolates its
  emulator thread, the KubeVirt CR carries that annotation and the ``AlignCPUs`` feature gate is on;
* ``kubevirt.io/qgs-socket-path`` on a TDX VMI: the cluster's quote generation service socket, unless it is
  configured empty.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child
from ..api.origin import NO_TRACE, Origin, Trace
from ..config import ClusterConfig

Spec = dict[str, Any]

EVEN_PARITY_ANNOTATION = "alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity"
ALIGN_CPUS_GATE = "AlignCPUs"
QGS_SOCKET_ANNOTATION = "kubevirt.io/qgs-socket-path"


def cluster_annotations(spec: Spec, cfg: ClusterConfig) -> dict[str, str]:
    """The annotations a VMI with ``spec`` gets from the cluster, in the webhook's order."""
    out = {}
    domain = spec.get("domain") or {}
    isolated = (domain.get("cpu") or {}).get("isolateEmulatorThread") is True
    if isolated and EVEN_PARITY_ANNOTATION in cfg.cr_annotations and ALIGN_CPUS_GATE in cfg.feature_gates:
        out[EVEN_PARITY_ANNOTATION] = ""
    tdx = (domain.get("launchSecurity") or {}).get("tdx") is not None
    if tdx and cfg.qgs_socket_path and cfg.release.annotates_tdx_qgs_socket:
        out[QGS_SOCKET_ANNOTATION] = cfg.qgs_socket_path
    return out


def annotate(meta: Spec, spec: Spec, cfg: ClusterConfig, origin: Origin, trace: Trace = NO_TRACE) -> None:
    """Write :func:`cluster_annotations` into ``meta`` (``trace``: rooted at ``meta``)."""
    wanted = cluster_annotations(spec, cfg)
    if wanted:
        child(meta, "annotations").update(wanted)
        for key in wanted:
            trace.set(("annotations", key), origin)
