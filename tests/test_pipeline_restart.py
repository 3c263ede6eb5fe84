"""The restart-impact stage (pipeline/restart.py) on inline VMs: kubectl apply's three-way merge, the release facts
(v1.5's Stage default, the network predicates, the firmware synchronizer), the cluster configuration
(workloadUpdateMethods, limits) and the VMI facts; and the committed start-time values (restart_defaults)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_instancetype.api.mergepatch import kubectl_apply, three_way_patch
from kubectl_instancetype.catalog import Catalog
from kubectl_instancetype.config import ClusterConfig, load_config
from kubectl_instancetype.pipeline import restart
from kubectl_instancetype.pipeline.restart import VMIFacts
from kubectl_instancetype.pipeline.restart_defaults import added, committed_defaults


def vm(sockets: int = 2, guest: str = "4Gi", **spec: Any) -> dict[str, Any]:
    template: dict[str, Any] = {
        "domain": {"cpu": {"sockets": sockets}, "memory": {"guest": guest},
                   "devices": {"interfaces": [{"name": "default", "masquerade": {}}]}},
        "networks": [{"name": "default", "pod": {}}],
        **spec,
    }
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web", "namespace": "ns"},
            "spec": {"runStrategy": "Always", "template": {"spec": template}}}


def config(version: str = "main", **configuration: Any) -> ClusterConfig:
    cr = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "metadata": {"name": "kubevirt"},
          "spec": {"configuration": configuration}}
    return load_config(cr, "<test>", version=version)


def impact(base: dict[str, Any], head: dict[str, Any], cfg: ClusterConfig | None = None,
           facts: VMIFacts = restart.ASSUMED, head_cfg: ClusterConfig | None = None) -> restart.Impact:
    cfg = cfg or config()
    catalog = Catalog()
    started = restart.start(base, "ns", catalog, cfg, facts)
    applied = restart.apply(started, base, head, "ns", catalog, head_cfg or cfg, facts)
    return restart.decide(started, applied, facts)


def test_three_way_merge_keeps_what_the_server_wrote() -> None:
    original = {"spec": {"a": 1, "gone": 2, "list": [1, 2]}}
    modified = {"spec": {"a": 3, "list": [1]}}
    current = {"spec": {"a": 1, "gone": 2, "list": [1, 2], "server": "uuid"}, "status": {"ready": True}}
    assert three_way_patch(original, modified, current) == {"spec": {"a": 3, "gone": None, "list": [1]}}
    assert kubectl_apply(original, modified, current) == {"spec": {"a": 3, "list": [1], "server": "uuid"},
                                                          "status": {"ready": True}}
    assert current["spec"]["gone"] == 2  # inputs untouched


def test_sockets_up_is_hot_plugged_and_waits_for_a_migration() -> None:
    found = impact(vm(2), vm(4))
    assert (found.outcome, found.cpu, found.vmi_conditions, found.actuation) == (
        "live-update", ("2", "4"), ("HotVCPUChange",), "none")


@pytest.mark.parametrize(("methods", "migratable", "actuation"), [
    (["LiveMigrate"], True, "migrate"), (["LiveMigrate"], False, "none"), (["LiveMigrate", "Evict"], False, "evict"),
    (["Evict"], True, "evict"), ([], True, "none"),
])
def test_workload_update_methods(methods: list[str], migratable: bool, actuation: str) -> None:
    cr = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "metadata": {"name": "kubevirt"},
          "spec": {"configuration": {}, "workloadUpdateStrategy": {"workloadUpdateMethods": methods}}}
    cfg = load_config(cr, "<test>", version="main")
    assert impact(vm(2), vm(4), cfg, VMIFacts(migratable)).actuation == actuation


def test_v1_5_defaults_to_stage() -> None:
    found = impact(vm(2), vm(4), config("v1.5.3"))
    assert (found.outcome, found.restart_message) == (
        "restart-required", "a non-live-updatable field was changed in the template spec")
    assert found.causes[0].path == "spec.template.spec.domain.cpu.sockets"
    assert impact(vm(2), vm(4), config("v1.5.3", vmRolloutStrategy="LiveUpdate")).outcome == "live-update"


def test_memory_then_cpu_order_and_first_message() -> None:
    found = impact(vm(2, "4Gi"), vm(4, "8Gi"), facts=VMIFacts(migratable=False))
    assert (found.outcome, found.cpu, found.restart_message) == (
        "restart-required", ("2", "4"),
        "memory updated in template spec. Memory-hotplug is only available for migratable VMs")


def test_sockets_beyond_and_down_and_arm() -> None:
    assert impact(vm(2), vm(9)).restart_message == \
        "CPU sockets updated in template spec to a value higher than what's available"
    assert impact(vm(4), vm(2)).restart_message == "Reduction of CPU socket count requires a restart"
    assert impact(vm(2), vm(3), facts=VMIFacts(arch="arm64")).restart_message == \
        "CPU sockets updated in template spec to a value higher than what's available"


def _multus(name: str) -> dict[str, Any]:
    return vm(2, "4Gi", networks=[{"name": "default", "pod": {}},
                                  {"name": "blue", "multus": {"networkName": name}}],
              domain={"cpu": {"sockets": 2}, "memory": {"guest": "4Gi"},
                      "devices": {"interfaces": [{"name": "default", "masquerade": {}},
                                                 {"name": "blue", "bridge": {}}]}})


@pytest.mark.parametrize(("version", "migratable", "outcome"), [
    ("v1.7.4", True, "restart-required"), ("v1.9.0", False, "live-update"), ("main", True, "live-update"),
    ("main", False, "restart-required"),
])
def test_nad_rename_per_release(version: str, migratable: bool, outcome: str) -> None:
    assert impact(_multus("blue-a"), _multus("blue-b"), config(version), VMIFacts(migratable)).outcome == outcome


def test_cluster_config_of_head_decides_the_strategy() -> None:
    found = impact(vm(2), vm(4), config(), head_cfg=config(vmRolloutStrategy="Stage"))
    assert found.outcome == "restart-required"


def test_untouched_vm_is_no_change() -> None:
    base = vm(2)
    assert impact(base, copy.deepcopy(base)).outcome == "no-change"


def test_committed_start_time_values() -> None:
    pinned = vm(2, "4Gi")
    pinned["spec"]["template"]["spec"]["domain"]["cpu"].update(maxSockets=8, model="host-model")
    pinned["spec"]["template"]["spec"]["domain"]["memory"]["maxGuest"] = "16Gi"
    found = [path[-1] for path, _ in committed_defaults(pinned, config())]
    assert found == ["maxSockets", "maxGuest", "model"]
    pinned["spec"]["template"]["spec"]["domain"]["cpu"]["maxSockets"] = 6  # not KubeVirt's value: a choice
    assert [path[-1] for path, _ in committed_defaults(pinned, config())] == ["maxGuest", "model"]
    assert len(added(pinned, vm(2, "4Gi"))) == 3
    assert added(pinned, pinned) == ()


def _with_hotplug_pvc(base: dict[str, Any]) -> dict[str, Any]:
    head = copy.deepcopy(base)
    spec = head["spec"]["template"]["spec"]
    spec["domain"]["devices"]["disks"] = [{"name": "data", "disk": {"bus": "scsi"}}]
    spec["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": "data", "hotpluggable": True}}]
    return head


def test_declarative_volume_hotplug() -> None:
    found = impact(vm(2), _with_hotplug_pvc(vm(2)))
    assert (found.outcome, found.volumes, found.actuation) == ("live-update", True, "")
    gated = config(developerConfiguration={"disabledFeatureGates": ["DeclarativeHotplugVolumes"]})
    assert impact(vm(2), _with_hotplug_pvc(vm(2)), gated).outcome == "no-change"  # stored for the next start
    assert impact(vm(2), _with_hotplug_pvc(vm(2)), config("v1.5.3")).outcome == "restart-required"


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 10) | st.sampled_from(["", "2", "4Gi", "x"]),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                           st.sampled_from(["cpu", "memory", "sockets", "guest", "name", "interfaces", "pod"]),
                           inner, max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["domain", "networks", "volumes", "nodeSelector", "affinity", "tolerations",
                        "architecture"]), JSONISH)
def test_hostile_head_never_crashes(key: str, value: Any) -> None:
    from kubectl_instancetype.gitops.restart_impact import Revision, impacts
    from kubectl_instancetype.yamlio import load_stream
    from kubectl_instancetype.yamlio.emit import dump_yaml

    head = vm(2)
    head["spec"]["template"]["spec"][key] = value
    base_doc = load_stream(dump_yaml(vm(2)), "base.yaml")
    head_doc = load_stream(dump_yaml(head), "head.yaml")
    cfg = config()
    rows = impacts(Revision(tuple(base_doc), Catalog(), cfg), Revision(tuple(head_doc), Catalog(), cfg), "ns",
                   restart.ASSUMED, {("ns", "web"): True})
    assert len(rows) == 1 and rows[0].outcome in ("no-change", "live-update", "restart-required", "error")


def test_quantities_compare_by_value() -> None:
    base, head = vm(2), vm(2)
    base["spec"]["template"]["spec"]["domain"]["resources"] = {"requests": {"memory": "1024Mi"}}
    head["spec"]["template"]["spec"]["domain"]["resources"] = {"requests": {"memory": "1Gi"}}
    assert impact(base, head).outcome == "no-change"
    head["spec"]["template"]["spec"]["domain"]["resources"] = {"requests": {"memory": "2Gi"}}
    assert impact(base, head).restart_message == "a non-live-updatable field was changed in the template spec"


def test_head_stopping_the_vm() -> None:
    from kubectl_instancetype.gitops.restart_impact import Revision, impacts
    from kubectl_instancetype.yamlio import load_stream
    from kubectl_instancetype.yamlio.emit import dump_yaml

    head = vm(4)
    head["spec"]["runStrategy"] = "Halted"
    cfg = config()
    rows = impacts(Revision(tuple(load_stream(dump_yaml(vm(2)), "b.yaml")), Catalog(), cfg),
                   Revision(tuple(load_stream(dump_yaml(head), "h.yaml")), Catalog(), cfg), "ns", restart.ASSUMED,
                   {("ns", "web"): True})
    assert (rows[0].outcome, rows[0].situation) == ("shuts-down", "stopping")  # N2: its own outcome
