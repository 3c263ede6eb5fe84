"""Changed block tracking state of a new VMI (pkg/storage/cbt/cbt.go)."""

from __future__ import annotations

from typing import Any

from kubectl_instancetype.config import load_config
from kubectl_instancetype.vmi.cbt import cbt_state

SELECTORS = {"virtualMachineLabelSelector": {"matchLabels": {"backup": "yes"}}}


def _vm(labels: dict[str, str], state: str | None = None) -> dict[str, Any]:
    vm: dict[str, Any] = {"metadata": {"name": "vm", "labels": labels}}
    if state is not None:
        vm["status"] = {"changedBlockTracking": {"state": state}}
    return vm


def test_needs_the_feature_gate() -> None:
    assert cbt_state(_vm({"backup": "yes"}), load_config({"changedBlockTrackingLabelSelectors": SELECTORS})) is None


def test_matching_vms_initialize_and_tracked_ones_are_disabled() -> None:
    cfg = load_config({"developerConfiguration": {"featureGates": ["IncrementalBackup"]},
                       "changedBlockTrackingLabelSelectors": SELECTORS})
    assert cbt_state(_vm({"backup": "yes"}), cfg) == "Initializing"
    assert cbt_state(_vm({"backup": "no"}), cfg) is None
    assert cbt_state(_vm({"backup": "no"}, "Enabled"), cfg) == "Disabled"
