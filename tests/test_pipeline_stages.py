"""The VM-mode and VMI-mode runs of the stages: which stage refuses a VM, and which VM field it points at."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig, load_config
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.pipeline.stages import render_vm, render_vmi

Spec = dict[str, Any]
NS = "default"
V1BETA1 = "instancetype.kubevirt.io/v1beta1"


def catalog() -> Catalog:
    lookup = Catalog(default_namespace=NS)
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "it"},
                "spec": {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}})
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterPreference", "metadata": {"name": "p"},
                "spec": {"requirements": {"cpu": {"guest": 4}}}})
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterPreference", "metadata": {"name": "ok"},
                "spec": {}})
    return lookup


def vm(it: Spec | None, pref: Spec | None, template: Spec | None = None) -> Spec:
    spec: Spec = {"runStrategy": "Halted", "template": {"spec": template or {"domain": {}}}}
    if it is not None:
        spec["instancetype"] = it
    if pref is not None:
        spec["preference"] = pref
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}, "spec": spec}


SOCKETS = ("spec", "template", "spec", "domain", "cpu", "sockets")
CASES = [
    # (instancetype, preference, template, VM-mode stage, VMI-mode stage, field)
    ({}, None, None, "mutate", "mutate", ("spec", "instancetype")),
    ({"name": "it"}, {"name": "ok", "inferFromVolume": "v"}, None, "mutate", "mutate", ("spec", "preference")),
    ({"name": "missing"}, None, None, "expand", "controller", ("spec", "instancetype")),
    ({"name": "it"}, {"name": "missing"}, None, "expand", "controller", ("spec", "preference")),
    ({"name": "it"}, {"name": "p"}, None, "admit", "admit", ("spec", "preference")),
    ({"name": "it"}, None, {"domain": {"cpu": {"sockets": 2}}}, "admit", "admit", (*SOCKETS,)),
]


@pytest.mark.parametrize(("it", "pref", "template", "vm_stage", "vmi_stage", "field"), CASES)
def test_refusals_carry_stage_and_field(
    it: Spec | None, pref: Spec | None, template: Spec | None, vm_stage: str, vmi_stage: str, field: tuple[str, ...]
) -> None:
    for render, stage in ((render_vm, vm_stage), (render_vmi, vmi_stage)):
        with pytest.raises(KubeVirtError) as caught:
            render(vm(it, pref, template), NS, catalog(), DEFAULT_CONFIG)
        assert (caught.value.stage, caught.value.field) == (stage, field)


def test_the_callers_vm_is_never_changed() -> None:
    source = vm({"name": "it"}, {"name": "ok"})
    before = repr(source)
    assert "instancetype" not in render_vm(source, NS, catalog(), DEFAULT_CONFIG)["spec"]
    assert render_vmi(source, NS, catalog(), DEFAULT_CONFIG)["kind"] == "VirtualMachineInstance"
    assert repr(source) == before


def test_a_refused_pod_network_points_at_the_interfaces() -> None:
    cfg = ClusterConfig(permit_bridge_on_pod_network=False)
    for render in (render_vm, render_vmi):
        with pytest.raises(KubeVirtError) as caught:
            render(vm({"name": "it"}, None), NS, catalog(), cfg)
        assert caught.value.stage == "admit"
        assert caught.value.message == "bridge interface is not enabled in kubevirt-config"
        assert caught.value.field == ("spec", "template", "spec", "domain", "devices", "interfaces")


def test_vmi_mode_root_gate_prints_runtime_user_0() -> None:
    root = load_config({"developerConfiguration": {"featureGates": ["Root"]}})
    machine = vm(None, None, {"domain": {"memory": {"guest": "1Gi"}}})  # the VMI webhook wants some memory
    assert render_vmi(machine, NS, catalog(), root)["status"]["runtimeUser"] == 0
    assert render_vmi(machine, NS, catalog(), DEFAULT_CONFIG)["status"]["runtimeUser"] == 107


@pytest.mark.parametrize("cfg", [load_config({}, arch="arm64"), DEFAULT_CONFIG])
def test_vmi_mode_arm64_efi_from_a_preference_gets_secure_boot_false(cfg: ClusterConfig) -> None:
    lookup = catalog()
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterPreference", "metadata": {"name": "efi"},
                "spec": {"preferredArchitecture": "arm64", "firmware": {"preferredUseEfi": True}}})
    # KubeVirt's answer (kv-expand, whole webhooks): the VM webhook sees EFI with SecureBoot unset, which needs
    # SMM (validateDomainSpec), before the VMI mutating webhook turns SecureBoot off on arm64.
    with pytest.raises(KubeVirtError, match="SecureBoot requires SMM, which is currently disabled"):
        render_vmi(vm({"name": "it"}, {"name": "efi"}), NS, lookup, cfg)
    smm = vm({"name": "it"}, {"name": "efi"}, {"domain": {"features": {"smm": {}}}})
    vmi = render_vmi(smm, NS, lookup, cfg)
    assert vmi["spec"]["architecture"] == "arm64"
    assert vmi["spec"]["domain"]["firmware"]["bootloader"] == {"efi": {"secureBoot": False}}


def test_pod_network_refusal_differs_between_expand_and_vmi_creation() -> None:
    # KubeVirt's own answer (kv-expand): expand (pkg/instancetype/expand/expand.go) defaults the pod network
    # before the preference's preferredAutoattachPodInterface: false applies, admission and virt-controller
    # after it, so only VM mode refuses.
    lookup = catalog()
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterPreference", "metadata": {"name": "noauto"},
                "spec": {"devices": {"preferredAutoattachPodInterface": False}}})
    no_bridge = load_config({"network": {"permitBridgeInterfaceOnPodNetwork": False}})
    machine = vm(None, {"name": "noauto"}, {"domain": {"memory": {"guest": "1Gi"}}})
    with pytest.raises(KubeVirtError) as caught:
        render_vm(machine, NS, lookup, no_bridge)
    refusal = ("expand", "bridge interface is not enabled in kubevirt-config")
    assert (caught.value.stage, caught.value.message) == refusal
    vmi = render_vmi(machine, NS, lookup, no_bridge)
    assert "networks" not in vmi["spec"] and vmi["spec"]["domain"]["devices"]["autoattachPodInterface"] is False
