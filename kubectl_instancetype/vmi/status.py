"""The status a new VMI gets from the VMI mutating webhook, before any node touches it.

``phase: Pending`` with its transition (the wall-clock time is printed as the epoch: it is
runtime-only), the ``runtimeUser``: 107 (pkg/util/util.go ``MarkAsNonroot``), or 0 when the ``Root``
feature gate is on (the field has no ``omitempty`` in staging/src/kubevirt.io/api/core/v1/types.go, so
KubeVirt prints the 0), and the boot CPU topology and guest memory
(pkg/defaults ``setCurrentCPUTopologyStatus`` / ``setGuestMemoryStatus``).
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig

Spec = dict[str, Any]

NON_ROOT_UID = 107
ROOT_UID = 0
TRANSITION_TIME = "1970-01-01T00:00:00Z"


def initial_status(spec: Spec, cfg: ClusterConfig) -> Spec:
    """The ``status`` of a just-created VMI whose spec is already defaulted (hot-plug maxima aside)."""
    status: Spec = {
        "phase": "Pending",
        "phaseTransitionTimestamps": [{"phase": "Pending", "phaseTransitionTimestamp": TRANSITION_TIME}],
        "guestOSInfo": {},
    }
    status["runtimeUser"] = ROOT_UID if cfg.root_enabled else NON_ROOT_UID
    domain = spec.get("domain") or {}
    cpu = domain.get("cpu")
    if isinstance(cpu, dict):
        status["currentCPUTopology"] = {k: cpu[k] for k in ("cores", "sockets", "threads") if cpu.get(k)}
    guest = (domain.get("memory") or {}).get("guest")
    if guest is not None:
        status["memory"] = {"guestAtBoot": guest, "guestCurrent": guest, "guestRequested": guest}
    return status
