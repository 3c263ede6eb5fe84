"""The VM mutating webhook's create defaults, the stable firmware UUID and virt-controller's VMI construction."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.golang import clone_json, go_lower
from kubectl_instancetype.catalog.find import Found
from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.config import ClusterConfig, load_config
from kubectl_instancetype.pipeline.lookup import Context, Matched
from kubectl_instancetype.pipeline.vm_mutating_webhook import create_defaults, preferred_defaults
from kubectl_instancetype.pipeline.vmi_controller import attach_input_device, set_name_annotations, vmi_from_vm
from kubectl_instancetype.vmi.firmware import stable_firmware_uuid


def vm_webhook_defaults(source: dict[str, Any], cfg: ClusterConfig, preference: Any) -> dict[str, Any]:
    """The complete VM mutating webhook on a copy of ``source``, with ``preference`` as found."""
    found = Found(preference, "VirtualMachineClusterPreference", "p") if preference is not None else None
    ctx = Context("default", Catalog(), cfg, Matched(preference=found))
    return create_defaults(preferred_defaults(clone_json(source), ctx), ctx)


def vm(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "testvm"}, "spec": spec}


def test_stable_firmware_uuid_is_kubevirts() -> None:
    # the UUID KubeVirt's cirros "testvm" examples boot with
    assert stable_firmware_uuid("testvm") == "5a9fc181-957e-5c32-9e5a-2de5e9673531"
    assert stable_firmware_uuid("web") == "d32ff544-f682-571b-8677-3762f07ab8a4"


@pytest.mark.parametrize(
    ("template_spec", "preference", "cfg", "arch", "machine"),
    [
        ({}, None, ClusterConfig(), "amd64", "q35"),
        ({}, {"preferredArchitecture": "arm64"}, ClusterConfig(), "arm64", "virt"),
        ({}, {"machine": {"preferredMachineType": "pc-q35-9.0"}}, ClusterConfig(), "amd64", "pc-q35-9.0"),
        ({"architecture": "s390x"}, {"preferredArchitecture": "arm64"}, ClusterConfig(), "s390x", "s390-ccw-virtio"),
        ({"domain": {"machine": {"type": "pc"}}}, None, load_config({"machineType": "x"}), "amd64", "pc"),
        ({}, None, load_config({}, arch="arm64"), "arm64", "virt"),
    ],
)
def test_vm_webhook_architecture_and_machine(
    template_spec: dict[str, Any], preference: Any, cfg: ClusterConfig, arch: str, machine: str
) -> None:
    created = vm_webhook_defaults(vm(template={"spec": template_spec}), cfg, preference)
    tspec = created["spec"]["template"]["spec"]
    assert (tspec["architecture"], tspec["domain"]["machine"]["type"]) == (arch, machine)


def test_vm_webhook_firmware_kinds_and_annotation() -> None:
    source = vm(
        instancetype={"name": "u1.small"},
        preference={"name": "p", "kind": "VirtualMachinePreference"},
        template={"spec": {"domain": {"firmware": {"serial": "s"}}}},
    )
    created = vm_webhook_defaults(source, ClusterConfig(), None)
    assert source["spec"]["template"] == {"spec": {"domain": {"firmware": {"serial": "s"}}}}  # not edited
    assert created["spec"]["instancetype"]["kind"] == "virtualmachineclusterinstancetype"
    assert created["spec"]["preference"]["kind"] == "VirtualMachinePreference"
    assert created["spec"]["template"]["spec"]["domain"]["firmware"] == {
        "serial": "s",
        "uuid": "5a9fc181-957e-5c32-9e5a-2de5e9673531",
    }
    assert created["spec"]["template"]["metadata"] == {"annotations": {"kubevirt.io/pci-topology-version": "v3"}}
    kept = vm_webhook_defaults(
        vm(
            template={
                "metadata": {"annotations": {"kubevirt.io/pci-topology-version": "v2"}},
                "spec": {"domain": {"firmware": {"uuid": "mine"}}},
            }
        ),
        ClusterConfig(),
        None,
    )
    assert kept["spec"]["template"]["metadata"]["annotations"] == {"kubevirt.io/pci-topology-version": "v2"}
    assert kept["spec"]["template"]["spec"]["domain"]["firmware"] == {"uuid": "mine"}
    s390x = vm_webhook_defaults(vm(template={"spec": {"architecture": "s390x"}}), ClusterConfig(), None)
    assert s390x["spec"]["template"].get("metadata") is None


def test_vmi_from_vm() -> None:
    source = vm(
        runStrategy="WaitAsReceiver",
        template={
            "metadata": {"generateName": "x-", "labels": {"a": "b"}, "annotations": {"k": "v"}, "finalizers": ["mine"]},
            "spec": {"domain": {}},
        },
    )
    source["metadata"].update(uid="1234", generation=3)
    source["status"] = {"stateChangeRequests": [{"action": "Start", "data": {"paused": "true"}}]}
    vmi = vmi_from_vm(source, "tenant")
    assert vmi == {
        "kind": "VirtualMachineInstance",
        "apiVersion": "kubevirt.io/v1",
        "metadata": {
            "labels": {"a": "b"},
            "annotations": {"k": "v", "kubevirt.io/vm-generation": "3", "kubevirt.io/create-migration-target": "true"},
            "finalizers": ["mine", "kubevirt.io/virtualMachineControllerFinalize"],
            "name": "testvm",
            "namespace": "tenant",
            "ownerReferences": [
                {
                    "apiVersion": "kubevirt.io/v1",
                    "kind": "VirtualMachine",
                    "name": "testvm",
                    "uid": "1234",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ],
        },
        "spec": {"domain": {"firmware": {"uuid": "5a9fc181-957e-5c32-9e5a-2de5e9673531"}}, "startStrategy": "Paused"},
    }


def test_input_device_and_name_annotations() -> None:
    spec: dict[str, Any] = {"domain": {"devices": {"autoattachInputDevice": True}}}
    attach_input_device(spec)
    assert spec["domain"]["devices"]["inputs"] == [{"name": "default-0"}]
    untouched: dict[str, Any] = {"domain": {"devices": {"autoattachInputDevice": False}}}
    attach_input_device(untouched)
    assert "inputs" not in untouched["domain"]["devices"]
    meta: dict[str, Any] = {}
    set_name_annotations(
        vm(
            instancetype={"name": "i", "kind": "VirtualMachineInstancetypes"},
            preference={"name": "p", "kind": "VİrtualMachİneClusterPreference"},
        ),
        meta,
    )
    assert meta == {"annotations": {"kubevirt.io/instancetype-name": "i", "kubevirt.io/cluster-preference-name": "p"}}
    assert go_lower("VİRTUAL") == "virtual"
