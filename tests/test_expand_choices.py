"""Inputs on which KubeVirt itself panics (conformance README, "Not in the corpus"): our chosen behaviour.

KubeVirt divides by zero for a spread ``ratio: 0`` and dereferences a nil CPU for preferred CPU features
on a VM with neither an instance type nor ``domain.cpu``. We refuse the first at admission with the
spread message and create the CPU for the second, as the cluster defaults would right after.
"""

from __future__ import annotations

from typing import Any

from kubectl_instancetype.expand.instancetype import topology
from kubectl_instancetype.expand.preference import cpu_features
from kubectl_instancetype.expand.requirements import check_spread

ZERO_RATIO: dict[str, Any] = {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 0}}}


def test_spread_ratio_zero_keeps_the_default_topology() -> None:
    assert topology(4, ZERO_RATIO) == (1, 1, 1)


def test_spread_ratio_zero_is_refused_at_admission() -> None:
    assert check_spread({"cpu": {"guest": 4}}, ZERO_RATIO) == (
        "4 vCPUs provided by the instance type are not divisible by the "
        "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 0 provided by the preference"
    )


def test_preferred_cpu_features_without_a_cpu_create_one() -> None:
    spec: dict[str, Any] = {"domain": {}}
    cpu_features({"cpu": {"preferredCPUFeatures": [{"name": "vmx", "policy": "require"}]}}, spec, {})
    assert spec == {"domain": {"cpu": {"features": [{"name": "vmx", "policy": "require"}]}}}
