"""Instance type appliers: spec §12.1–§12.3, test vectors TV-01 … TV-53."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.expand import instancetype as it_apply
from kubectl_instancetype.expand.apply import apply_spec

Spec = dict[str, Any]
BASE = "spec.template.spec"
CPU = f"{BASE}.domain.cpu"
MEM = f"{BASE}.domain.memory"

FULL_CPU = {
    "guest": 2, "model": "host-passthrough", "dedicatedCPUPlacement": True, "isolateEmulatorThread": True,
    "numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "0-3,^1"}, "maxSockets": 6,
}
FULL_CPU_COPIED = {
    "model": "host-passthrough", "dedicatedCpuPlacement": True, "isolateEmulatorThread": True,
    "numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "0-3,^1"}, "maxSockets": 6,
}
MINIMAL_IT: Spec = {"cpu": {"guest": 1}, "memory": {"guest": "128Mi"}}


def run(applier: it_apply.Applier, it: Spec, spec: Spec, pref: Spec | None = None,
        meta: Spec | None = None) -> tuple[list[str], Spec, Spec]:
    """Run one applier on `spec`/`meta` (edited in place); (conflicts, spec, meta) afterwards."""
    meta = {} if meta is None else meta
    conflicts = applier(BASE, it, pref, spec, meta)
    return conflicts, spec, meta


@pytest.mark.parametrize(
    ("tv", "topology", "sockets", "cores", "threads"),
    [
        ("TV-01", None, 2, 1, 1),
        ("TV-02", "any", 2, 1, 1),
        ("TV-03", "cores", 1, 2, 1),
        ("TV-04", "threads", 1, 1, 2),
        ("TV-05", "sockets", 2, 1, 1),
    ],
)
def test_cpu_copies_every_field_and_sets_topology(
    tv: str, topology: str | None, sockets: int, cores: int, threads: int
) -> None:
    pref: Spec = {"cpu": {} if topology is None else {"preferredCPUTopology": topology}}
    conflicts, spec, _ = run(it_apply.cpu, {"cpu": FULL_CPU}, {"domain": {}}, pref)
    assert conflicts == []
    assert spec == {"domain": {"cpu": {**FULL_CPU_COPIED, "sockets": sockets, "cores": cores, "threads": threads}}}


def _spread(ratio: int | None = None, across: str | None = None) -> Spec:
    options = {k: v for k, v in (("ratio", ratio), ("across", across)) if v is not None}
    return {"cpu": {"preferredCPUTopology": "spread", **({"spreadOptions": options} if options else {})}}


SCT = "SocketsCoresThreads"


@pytest.mark.parametrize(
    ("tv", "guest", "pref", "expected"),
    [
        ("TV-06", 1, _spread(), (1, 1, 1)),
        ("TV-07", 2, _spread(), (1, 2, 1)),
        ("TV-08", 4, _spread(), (2, 2, 1)),
        ("TV-09", 6, _spread(), (3, 2, 1)),
        ("TV-10", 8, _spread(), (4, 2, 1)),
        ("TV-11", 3, _spread(3), (1, 3, 1)),
        ("TV-12", 6, _spread(3), (2, 3, 1)),
        ("TV-13", 9, _spread(3), (3, 3, 1)),
        ("TV-14", 12, _spread(3), (4, 3, 1)),
        ("TV-15", 4, _spread(4), (1, 4, 1)),
        ("TV-16", 8, _spread(4), (2, 4, 1)),
        ("TV-17", 12, _spread(4), (3, 4, 1)),
        ("TV-18", 16, _spread(4), (4, 4, 1)),
        ("TV-19", 4, _spread(across=SCT), (1, 2, 2)),
        ("TV-20", 8, _spread(across=SCT), (2, 2, 2)),
        ("TV-21", 12, _spread(across=SCT), (3, 2, 2)),
        ("TV-22", 16, _spread(across=SCT), (4, 2, 2)),
        ("TV-23", 6, _spread(3, SCT), (1, 3, 2)),
        ("TV-24", 12, _spread(3, SCT), (2, 3, 2)),
        ("TV-25", 18, _spread(3, SCT), (3, 3, 2)),
        ("TV-26", 24, _spread(3, SCT), (4, 3, 2)),
        ("TV-27", 8, _spread(4, SCT), (1, 4, 2)),
        ("TV-28", 16, _spread(4, SCT), (2, 4, 2)),
        ("TV-29", 24, _spread(4, SCT), (3, 4, 2)),
        ("TV-30", 36, _spread(4, SCT), (4, 4, 2)),
        ("TV-31", 2, _spread(across="CoresThreads"), (1, 1, 2)),
        ("TV-31", 4, _spread(across="CoresThreads"), (1, 2, 2)),
        ("TV-31", 6, _spread(across="CoresThreads"), (1, 3, 2)),
        ("TV-31", 8, _spread(across="CoresThreads"), (1, 4, 2)),
    ],
)
def test_spread_topology(tv: str, guest: int, pref: Spec, expected: tuple[int, int, int]) -> None:
    assert it_apply.topology(guest, pref) == expected


@pytest.mark.parametrize(
    ("tv", "domain", "expected"),
    [
        ("TV-32", {"cpu": {"cores": 4, "sockets": 1, "threads": 1}},
         [f"{CPU}.sockets", f"{CPU}.cores", f"{CPU}.threads"]),
        ("TV-33", {"resources": {"requests": {"cpu": "1"}}}, [f"{BASE}.domain.resources.requests.cpu"]),
        ("TV-34", {"resources": {"limits": {"cpu": "1"}}}, [f"{BASE}.domain.resources.limits.cpu"]),
    ],
)
def test_cpu_conflicts_leave_cpu_unapplied(tv: str, domain: Spec, expected: list[str]) -> None:
    before = {k: dict(v) for k, v in domain.items()}
    conflicts, spec, _ = run(it_apply.cpu, {"cpu": {"guest": 2}}, {"domain": domain})
    assert conflicts == expected
    assert spec["domain"]["cpu"] == before.get("cpu", {})


def test_tv35_preferred_cpu_features_merge_by_name_vm_entry_wins() -> None:
    it: Spec = {"cpu": FULL_CPU, "memory": {"guest": "128Mi"}}
    pref: Spec = {"cpu": {"preferredCPUFeatures": [{"name": "foo", "policy": "require"},
                                                   {"name": "bar", "policy": "force"}]}}
    spec: Spec = {"domain": {"cpu": {"features": [{"name": "bar", "policy": "optional"}]}}}
    assert apply_spec(BASE, it, pref, spec, {}) == []
    assert spec["domain"]["cpu"]["features"] == [{"name": "bar", "policy": "optional"},
                                                 {"name": "foo", "policy": "require"}]


MEM_IT = {"guest": "512M", "hugepages": {"pageSize": "1Gi"}, "maxGuest": "2G"}


@pytest.mark.parametrize(
    ("tv", "it_memory", "domain", "conflicts", "expected_domain"),
    [
        ("TV-36", MEM_IT, {}, [], {"memory": {"hugepages": {"pageSize": "1Gi"}, "guest": "512M", "maxGuest": "2G"}}),
        ("TV-37", {"guest": "512M", "maxGuest": "2G", "overcommitPercent": 15}, {}, [],
         {"memory": {"guest": "512M", "maxGuest": "2G"}, "resources": {"requests": {"memory": "435200k"}}}),
        # float32 arithmetic: 102399992, not 102400000
        ("TV-37", {"guest": "512M", "maxGuest": "2G", "overcommitPercent": 80}, {}, [],
         {"memory": {"guest": "512M", "maxGuest": "2G"}, "resources": {"requests": {"memory": "102399992"}}}),
        ("TV-38", MEM_IT, {"memory": {"guest": "512M"}}, [f"{MEM}.guest"], {"memory": {"guest": "512M"}}),
        ("TV-39", MEM_IT, {"memory": {"hugepages": {"pageSize": "1Gi"}}}, [f"{MEM}.hugepages"],
         {"memory": {"hugepages": {"pageSize": "1Gi"}}}),
        ("TV-40", {"guest": "512M", "maxGuest": "2G"}, {"memory": {"hugepages": {"pageSize": "1Gi"}}}, [],
         {"memory": {"hugepages": {"pageSize": "1Gi"}, "guest": "512M", "maxGuest": "2G"}}),
        ("TV-41", MEM_IT, {"memory": {"maxGuest": "2G"}}, [f"{MEM}.maxGuest"], {"memory": {"maxGuest": "2G"}}),
        ("TV-42", {"guest": "512M", "hugepages": {"pageSize": "1Gi"}}, {"memory": {"maxGuest": "2G"}}, [],
         {"memory": {"maxGuest": "2G", "guest": "512M", "hugepages": {"pageSize": "1Gi"}}}),
        ("TV-43", {"guest": "512M"}, {"resources": {"requests": {"memory": "128Mi"}}},
         [f"{BASE}.domain.resources.requests.memory"],
         {"resources": {"requests": {"memory": "128Mi"}}, "memory": {}}),
        ("TV-44", {"guest": "512M"}, {"resources": {"limits": {"memory": "128Mi"}}},
         [f"{BASE}.domain.resources.limits.memory"],
         {"resources": {"limits": {"memory": "128Mi"}}, "memory": {}}),
    ],
)
def test_memory(tv: str, it_memory: Spec, domain: Spec, conflicts: list[str], expected_domain: Spec) -> None:
    found, spec, _ = run(it_apply.memory, {"memory": it_memory}, {"domain": domain})
    assert found == conflicts
    assert spec == {"domain": expected_domain}


ANNOTATIONS = {"annotation-1": "1", "annotation-2": "2"}


@pytest.mark.parametrize(
    ("meta", "conflicts", "expected_meta"),
    [
        ({}, [], {"annotations": ANNOTATIONS}),
        ({"annotations": dict(ANNOTATIONS)}, [], {"annotations": ANNOTATIONS}),
        ({"annotations": {"annotation-1": "conflict"}}, ["annotations.annotation-1"],
         {"annotations": {"annotation-1": "conflict", "annotation-2": "2"}}),
    ],
)
def test_tv45_annotations(meta: Spec, conflicts: list[str], expected_meta: Spec) -> None:
    found, spec, meta = run(it_apply.template_annotations, {"annotations": ANNOTATIONS}, {}, meta=meta)
    assert found == conflicts
    assert meta == expected_meta
    assert spec == {}


def _by_name(name: str) -> it_apply.Applier:
    return next(a for a in it_apply.APPLIERS if a.__name__ == name)


GPU = [{"name": "barfoo", "deviceName": "vendor.com/gpu_name"}]
VM_GPU = [{"name": "foobar", "deviceName": "vendor.com/gpu_name"}]
HOSTDEV = [{"name": "foobar", "deviceName": "vendor.com/device_name"}]
DEV = f"{BASE}.domain.devices"


@pytest.mark.parametrize(
    ("tv", "applier", "it", "spec", "conflicts", "expected"),
    [
        ("TV-46", "gpus", {"gpus": GPU}, {}, [], {"domain": {"devices": {"gpus": GPU}}}),
        ("TV-46", "gpus", {"gpus": GPU}, {"domain": {"devices": {"gpus": VM_GPU}}}, [f"{DEV}.gpus"],
         {"domain": {"devices": {"gpus": VM_GPU}}}),
        ("TV-47", "hostDevices", {"hostDevices": HOSTDEV}, {}, [], {"domain": {"devices": {"hostDevices": HOSTDEV}}}),
        ("TV-47", "hostDevices", {"hostDevices": HOSTDEV}, {"domain": {"devices": {"hostDevices": VM_GPU}}},
         [f"{DEV}.hostDevices"], {"domain": {"devices": {"hostDevices": VM_GPU}}}),
        ("TV-48", "ioThreadsPolicy", {"ioThreadsPolicy": "shared"}, {}, [], {"domain": {"ioThreadsPolicy": "shared"}}),
        ("TV-48", "ioThreadsPolicy", {"ioThreadsPolicy": "shared"}, {"domain": {"ioThreadsPolicy": "shared"}},
         [f"{BASE}.domain.ioThreadsPolicy"], {"domain": {"ioThreadsPolicy": "shared"}}),
        ("TV-49", "io_threads", {"ioThreads": {"supplementalPoolThreadCount": 4}}, {},
         [], {"domain": {"ioThreads": {"supplementalPoolThreadCount": 4}}}),
        ("TV-49", "io_threads", {"ioThreads": {"supplementalPoolThreadCount": 4}}, {"domain": {"ioThreads": {}}},
         [], {"domain": {"ioThreads": {"supplementalPoolThreadCount": 4}}}),
        ("TV-49", "io_threads", {"ioThreads": {"supplementalPoolThreadCount": 4}},
         {"domain": {"ioThreads": {"supplementalPoolThreadCount": 6}}},
         [f"{BASE}.domain.ioThreads.supplementalPoolThreadCount"],
         {"domain": {"ioThreads": {"supplementalPoolThreadCount": 6}}}),
        ("TV-50", "launchSecurity", {"launchSecurity": {"sev": {}}}, {}, [],
         {"domain": {"launchSecurity": {"sev": {}}}}),
        ("TV-50", "launchSecurity", {"launchSecurity": {"sev": {}}}, {"domain": {"launchSecurity": {"sev": {}}}},
         [f"{BASE}.domain.launchSecurity"], {"domain": {"launchSecurity": {"sev": {}}}}),
        ("TV-51", "node_selector", {"nodeSelector": {"key": "value"}}, {}, [], {"nodeSelector": {"key": "value"}}),
        ("TV-51", "node_selector", {}, {"nodeSelector": {"key": "value"}}, [], {"nodeSelector": {"key": "value"}}),
        ("TV-51", "node_selector", {"nodeSelector": {"key": "value"}}, {"nodeSelector": {"key": "value"}},
         [f"{BASE}.nodeSelector"], {"nodeSelector": {"key": "value"}}),
        ("TV-52", "scheduler_name", {"schedulerName": "ultra-scheduler"}, {"schedulerName": ""}, [],
         {"schedulerName": "ultra-scheduler"}),
        ("TV-52", "scheduler_name", {"schedulerName": ""}, {"schedulerName": "super-fast-scheduler"}, [],
         {"schedulerName": "super-fast-scheduler"}),
        ("TV-52", "scheduler_name", {"schedulerName": "ultra-fast-scheduler"}, {"schedulerName": "slow-scheduler"},
         [f"{BASE}.schedulerName"], {"schedulerName": "slow-scheduler"}),
    ],
)
def test_other_appliers(tv: str, applier: str, it: Spec, spec: Spec, conflicts: list[str], expected: Spec) -> None:
    found, spec, _ = run(_by_name(applier), it, spec)
    assert found == conflicts
    assert spec == expected


def test_appliers_run_in_kubevirt_order() -> None:
    assert [a.__name__ for a in it_apply.APPLIERS] == [
        "node_selector", "scheduler_name", "cpu", "memory", "io_threads", "ioThreadsPolicy",
        "launchSecurity", "gpus", "hostDevices", "template_annotations",
    ]


VM_LS: Spec = {"sev": {}}
P_LS: Spec = {"sev": {"policy": {}}}
IT_LS: Spec = {"tdx": {}}


@pytest.mark.parametrize(
    ("vm", "pref", "it", "expected"),
    [
        (None, None, None, None),
        (None, P_LS, None, P_LS),
        (VM_LS, None, None, VM_LS),
        (VM_LS, P_LS, None, VM_LS),
        (None, None, IT_LS, IT_LS),
        (None, P_LS, IT_LS, IT_LS),
        (VM_LS, None, IT_LS, "conflict"),
        (VM_LS, P_LS, IT_LS, "conflict"),
    ],
)
def test_tv53_launch_security_precedence(vm: Spec | None, pref: Spec | None, it: Spec | None,
                                         expected: Spec | str | None) -> None:
    spec: Spec = {"domain": {} if vm is None else {"launchSecurity": dict(vm)}}
    it_spec = {**MINIMAL_IT, **({"launchSecurity": it} if it else {})}
    pref_spec = {"preferredLaunchSecurity": pref} if pref else {}
    conflicts = apply_spec(BASE, it_spec, pref_spec, spec, {})
    if expected == "conflict":
        assert conflicts == [f"{BASE}.domain.launchSecurity"]
    else:
        assert conflicts == []
        domain = spec["domain"]
        assert ("launchSecurity" in domain, domain.get("launchSecurity")) == (expected is not None, expected)
