"""Changed block tracking on a new VMI (``SetChangedBlockTrackingOnVMI``, pkg/storage/cbt/cbt.go).

With the ``IncrementalBackup`` feature gate, virt-controller starts a VM whose labels match the cluster's
``changedBlockTrackingLabelSelectors.virtualMachineLabelSelector`` with ``status.changedBlockTracking.state:
Initializing``; a VM that does not match but already has a tracking state gets ``Disabled``. The namespace
selector needs the namespace's labels, which a render does not have: it matches no namespace here.
"""

from __future__ import annotations

from typing import Any

from ..api.labelselector import selector_matches
from ..config import ClusterConfig

Spec = dict[str, Any]

FEATURE_GATE = "IncrementalBackup"
INITIALIZING = "Initializing"
DISABLED = "Disabled"


def cbt_state(vm: Spec, cfg: ClusterConfig) -> str | None:
    """The tracking state virt-controller gives the VMI of ``vm``, or None for none."""
    if FEATURE_GATE not in cfg.feature_gates:
        return None
    selectors = cfg.raw.get("changedBlockTrackingLabelSelectors")
    vm_selector = selectors.get("virtualMachineLabelSelector") if isinstance(selectors, dict) else None
    labels = (vm.get("metadata") or {}).get("labels") or {}
    if vm_selector is not None and selector_matches(vm_selector, labels):
        return INITIALIZING
    current = ((vm.get("status") or {}).get("changedBlockTracking") or {}).get("state")
    return DISABLED if current else None
