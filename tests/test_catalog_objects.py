"""Catalog objects one by one: KubeVirt's object webhooks, label selectors (versions: test_catalog_versions)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.catalog.admission import LAUNCH_SECURITY_WARNING, admit
from kubectl_instancetype.catalog.selector import parse_selector
from kubectl_instancetype.errors import UsageError

IT, PREF = "VirtualMachineClusterInstancetype", "VirtualMachinePreference"


def obj(kind: str, spec: dict[str, Any], version: str = "v1beta1") -> dict[str, Any]:
    return {"apiVersion": f"instancetype.kubevirt.io/{version}", "kind": kind, "metadata": {"name": "x"}, "spec": spec}


SPREAD_RATIO = "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads"


@pytest.mark.parametrize(("kind", "spec", "causes", "warnings"), [
    (IT, {"memory": {"guest": "1Gi", "overcommitPercent": 50}}, [], []),
    (IT, {"memory": {"overcommitPercent": 101}},
     [("spec.memory.overcommitPercent", "spec.memory.overcommitPercent '101': must be in range between 0 and 100.")],
     []),
    (IT, {"memory": {"overcommitPercent": -1}},
     [("spec.memory.overcommitPercent", "spec.memory.overcommitPercent '-1': must be in range between 0 and 100.")],
     []),
    (IT, {"memory": {"overcommitPercent": 10, "hugepages": {"pageSize": "2Mi"}}},
     [("spec.memory.overcommitPercent",
       "spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together.")], []),
    (IT, {"memory": {"overcommitPercent": 0, "hugepages": {"pageSize": "2Mi"}}}, [], []),
    (IT, {"launchSecurity": {"sev": {}}}, [], [LAUNCH_SECURITY_WARNING]),
    (PREF, {}, [], []),
    (PREF, {"cpu": {"preferredCPUTopology": "sockets"}}, [], []),
    (PREF, {"cpu": {"preferredCPUTopology": "Sockets"}},
     [("spec.cpu.preferredCPUTopology", "unknown preferredCPUTopology Sockets")], []),
    (PREF, {"cpu": {"preferredCPUTopology": ""}}, [("spec.cpu.preferredCPUTopology", "unknown preferredCPUTopology ")],
     []),
    (PREF, {"cpu": {"preferredCPUTopology": "preferSpread"}}, [],
     ["PreferredCPUTopology preferSpread is deprecated for removal in a future release, please use spread instead"]),
    (PREF, {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "Sockets"}}},
     [("spec.cpu.spreadOptions.across", "across Sockets is not supported")], []),
    (PREF, {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "CoresThreads", "ratio": 3}}},
     [("spec.cpu.spreadOptions.ratio", SPREAD_RATIO)], []),
    (PREF, {"preferSpreadSocketToCoreRatio": 4, "cpu": {"preferredCPUTopology": "spread",
                                                       "spreadOptions": {"across": "CoresThreads"}}},
     [("spec.cpu.spreadOptions.ratio", SPREAD_RATIO)], []),
    (PREF, {"cpu": {"preferredCPUTopology": "preferSpread", "spreadOptions": {"across": "CoresThreads", "ratio": 3}}},
     [("spec.cpu.spreadOptions.ratio", SPREAD_RATIO)], []),  # refused: no deprecation warning
    (PREF, {"cpu": {"preferredCPUTopology": "cores", "spreadOptions": {"across": "Nonsense"}}}, [], []),
])
def test_admission(kind: str, spec: dict[str, Any], causes: list[tuple[str, str]], warnings: list[str]) -> None:
    verdict = admit(obj(kind, spec))
    assert [(c.field, c.message) for c in verdict.causes] == causes
    assert list(verdict.warnings) == warnings


LABELS = {"instancetype.kubevirt.io/cpu": "4", "instancetype.kubevirt.io/class": "general.purpose",
          "instancetype.kubevirt.io/hugepages": "2Mi"}


@pytest.mark.parametrize(("selector", "matches"), [
    ("", True),
    ("instancetype.kubevirt.io/cpu=4", True),
    ("instancetype.kubevirt.io/cpu==4", True),
    ("instancetype.kubevirt.io/cpu = 2", False),
    ("instancetype.kubevirt.io/cpu!=2", True),
    ("instancetype.kubevirt.io/size!=small", True),  # != matches a missing label, as in Kubernetes
    ("instancetype.kubevirt.io/class in (general.purpose, memory.intensive)", True),
    ("instancetype.kubevirt.io/class notin (general.purpose)", False),
    ("instancetype.kubevirt.io/size notin (small)", True),
    ("instancetype.kubevirt.io/size in (small)", False),
    ("instancetype.kubevirt.io/hugepages", True),
    ("!instancetype.kubevirt.io/hugepages", False),
    ("!instancetype.kubevirt.io/numa", True),
    ("instancetype.kubevirt.io/cpu>2,instancetype.kubevirt.io/cpu<5", True),
    ("instancetype.kubevirt.io/cpu>4", False),
    ("instancetype.kubevirt.io/class>1", False),  # not a number
    ("instancetype.kubevirt.io/cpu=4,instancetype.kubevirt.io/class=memory.intensive", False),
])
def test_selector_matches(selector: str, matches: bool) -> None:
    assert parse_selector(selector).matches(LABELS) is matches


@pytest.mark.parametrize("selector", ["a=b=c", "a in x", "a in (x", "a>b", "a,,b", "=x", "a=(", "-a=b", "a notin ()x"])
def test_selector_errors(selector: str) -> None:
    with pytest.raises(UsageError, match="unable to parse requirement"):
        parse_selector(selector)
