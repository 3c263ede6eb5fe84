"""Preference requirements and spread divisibility: spec §12.5 (TV-82 and the passing cases) and TV-85.

``check_requirements`` returns only the message; the conflict paths of TV-82 are not exposed by it.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.expand.requirements import check_requirements, check_spread

Spec = dict[str, Any]


def pref(requirements: Spec, topology: str | None = None, across: str | None = None) -> Spec:
    cpu: Spec = {}
    if topology is not None:
        cpu["preferredCPUTopology"] = topology
    if across is not None:
        cpu["spreadOptions"] = {"across": across}
    return {"requirements": requirements, **({"cpu": cpu} if cpu else {})}


def vm_cpu(sockets: int = 0, cores: int = 0, threads: int = 0) -> Spec:
    cpu = {k: v for k, v in (("sockets", sockets), ("cores", cores), ("threads", threads)) if v}
    return {"domain": {"cpu": cpu}}


CPU2 = {"cpu": {"guest": 2}}
IT_2CPU = {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}


@pytest.mark.parametrize(
    ("it", "preference", "spec"),
    [
        (IT_2CPU, pref(CPU2), {}),
        (None, pref(CPU2, "sockets"), vm_cpu(sockets=2)),
        (None, pref(CPU2, "cores"), vm_cpu(cores=2)),
        (None, pref(CPU2, "threads"), vm_cpu(threads=2)),
        (None, pref(CPU2, "preferSockets"), vm_cpu(sockets=2)),
        (None, pref({"cpu": {"guest": 6}}, "spread"), vm_cpu(cores=2, sockets=3)),
        (None, pref({"cpu": {"guest": 6}}, "spread", "CoresThreads"), vm_cpu(threads=2, cores=3)),
        (None, pref({"cpu": {"guest": 8}}, "spread", "SocketsCoresThreads"), vm_cpu(2, 2, 2)),
        (None, pref({"cpu": {"guest": 4}}, "any"), vm_cpu(sockets=2, cores=2, threads=1)),
        (IT_2CPU, pref({"memory": {"guest": "1Gi"}}), {}),
        (None, pref({"memory": {"guest": "1Gi"}}), {"domain": {"memory": {"guest": "1073741824"}}}),
        (None, pref({"architecture": "amd64"}), {"architecture": "amd64"}),
        (None, pref({"architecture": "arm64"}), {"architecture": "arm64"}),
        (None, pref({"architecture": "s390x"}), {"architecture": "s390x"}),
        (IT_2CPU, pref({"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}), {"architecture": "amd64"}),
        (IT_2CPU, {"cpu": {"preferredCPUTopology": "cores"}}, {}),
        (IT_2CPU, None, {}),
    ],
)
def test_requirements_met(it: Spec | None, preference: Spec | None, spec: Spec) -> None:
    assert check_requirements(it, preference, spec) is None


def _vm_cpu_message(have: int, need: int, label: str) -> str:
    return (f"insufficient CPU resources of {have} vCPU provided by VirtualMachine, "
            f"preference requires {need} vCPU provided as {label}")


@pytest.mark.parametrize(
    ("it", "preference", "spec", "message"),
    [
        ({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, pref(CPU2), {},
         "insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU"),
        (None, pref(CPU2, "sockets"), vm_cpu(1, 1, 1), _vm_cpu_message(1, 2, "sockets")),
        (None, pref(CPU2, "cores"), vm_cpu(1, 1, 1), _vm_cpu_message(1, 2, "cores")),
        (None, pref(CPU2, "threads"), vm_cpu(1, 1, 1), _vm_cpu_message(1, 2, "threads")),
        (None, pref({"cpu": {"guest": 4}}, "spread"), vm_cpu(cores=1, sockets=1),
         _vm_cpu_message(1, 4, "SocketsCores")),
        (None, pref({"cpu": {"guest": 4}}, "spread", "CoresThreads"), vm_cpu(cores=1, threads=1),
         _vm_cpu_message(1, 4, "CoresThreads")),
        (None, pref({"cpu": {"guest": 4}}, "spread", "SocketsCoresThreads"), vm_cpu(1, 1, 1),
         _vm_cpu_message(1, 4, "SocketsCoresThreads")),
        (None, pref({"cpu": {"guest": 4}}, "any"), vm_cpu(sockets=2, cores=1, threads=1),
         _vm_cpu_message(2, 4, "cores, sockets and threads")),
        (None, pref({"cpu": {"guest": 10}}), {"domain": {}},
         "no CPU resources provided by VirtualMachine, preference requires 10 vCPU"),
        ({"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}, pref({"memory": {"guest": "2Gi"}}), {},
         "insufficient Memory resources of 1Gi provided by instance type, preference requires 2Gi"),
        (None, pref({"memory": {"guest": "2Gi"}}), {"domain": {"memory": {"guest": "1Gi"}}},
         "insufficient Memory resources of 1Gi provided by VirtualMachine, preference requires 2Gi"),
        (None, pref({"memory": {"guest": "2Gi"}}), {"domain": {}},
         "insufficient Memory resources of 0 provided by VirtualMachine, preference requires 2Gi"),
        (None, pref({"memory": {"guest": "2Gi"}}), {"domain": {"memory": {}}},
         "insufficient Memory resources of 0 provided by VirtualMachine, preference requires 2Gi"),
        (None, pref({"memory": {"guest": "1.5Gi"}}), {"domain": {"memory": {"guest": "1Gi"}}},
         "insufficient Memory resources of 1Gi provided by VirtualMachine, preference requires 1536Mi"),
        (None, pref({"architecture": "amd64"}), {"architecture": "arm64"},
         "preference requires architecture amd64 but arm64 is being requested"),
        (None, pref({"architecture": "amd64"}), {"architecture": ""},
         "preference requires architecture amd64 but  is being requested"),
    ],
)
def test_tv82_requirement_failures(it: Spec | None, preference: Spec, spec: Spec, message: str) -> None:
    assert check_requirements(it, preference, spec) == message


def test_cpu_is_checked_before_memory_and_architecture() -> None:
    requirements = {"cpu": {"guest": 4}, "memory": {"guest": "2Gi"}, "architecture": "arm64"}
    it = {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}
    assert check_requirements(it, {"requirements": requirements}, {"architecture": "amd64"}) == (
        "insufficient CPU resources of 2 vCPU provided by instance type, preference requires 4 vCPU"
    )


RATIO_TEXT = "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of"
NOT_DIVISIBLE = "vCPUs provided by the instance type are not divisible by the"
SPREAD_ROWS = [
    (3, None, 2, f"3 {NOT_DIVISIBLE} {RATIO_TEXT} 2 provided by the preference"),
    (2, None, 3, f"2 {NOT_DIVISIBLE} {RATIO_TEXT} 3 provided by the preference"),
    (4, None, 3, f"4 {NOT_DIVISIBLE} {RATIO_TEXT} 3 provided by the preference"),
    (3, "CoresThreads", 2, f"3 {NOT_DIVISIBLE} number of threads per core 2"),
    (5, "CoresThreads", 2, f"5 {NOT_DIVISIBLE} number of threads per core 2"),
    (5, "SocketsCoresThreads", 2, f"5 {NOT_DIVISIBLE} number of threads per core 2 and {RATIO_TEXT} 2"),
    (6, "SocketsCoresThreads", 4, f"6 {NOT_DIVISIBLE} number of threads per core 2 and {RATIO_TEXT} 4"),
]
# Each row for spread and preferSpread, the ratio at the top level, in spreadOptions or (2) by default.
SPREAD_CASES = [
    (*row, topology, ratio_at)
    for row in SPREAD_ROWS
    for topology in ("spread", "preferSpread")
    for ratio_at in ("top-level", "spreadOptions", "default")
    if ratio_at != "default" or row[2] == 2
]


def spread_pref(topology: str, across: str | None, ratio: int, ratio_at: str) -> Spec:
    options: Spec = {"across": across} if across else {}
    spec: Spec = {"cpu": {"preferredCPUTopology": topology}}
    if ratio_at == "top-level":
        spec["preferSpreadSocketToCoreRatio"] = ratio
    elif ratio_at == "spreadOptions":
        options["ratio"] = ratio
    if options:
        spec["cpu"]["spreadOptions"] = options
    return spec


@pytest.mark.parametrize(("guest", "across", "ratio", "message", "topology", "ratio_at"), SPREAD_CASES)
def test_tv85_spread_divisibility(guest: int, across: str | None, ratio: int, message: str, topology: str,
                                  ratio_at: str) -> None:
    it = {"cpu": {"guest": guest}, "memory": {"guest": "1Gi"}}
    assert check_spread(it, spread_pref(topology, across, ratio, ratio_at)) == message


@pytest.mark.parametrize(
    ("it", "preference"),
    [
        (None, {"cpu": {"preferredCPUTopology": "spread"}}),  # a preference-only VM is not checked
        (None, {"cpu": {"preferredCPUTopology": "preferSpread"}}),
        ({"cpu": {"guest": 3}}, {"cpu": {"preferredCPUTopology": "sockets"}}),
        ({"cpu": {"guest": 3}}, None),
        ({"cpu": {"guest": 4}}, {"cpu": {"preferredCPUTopology": "spread"}}),
        ({"cpu": {"guest": 6}}, {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 3}}}),
        ({"cpu": {"guest": 8}}, {"cpu": {"preferredCPUTopology": "spread",
                                         "spreadOptions": {"across": "SocketsCoresThreads"}}}),
    ],
)
def test_spread_accepted(it: Spec | None, preference: Spec | None) -> None:
    assert check_spread(it, preference) is None
