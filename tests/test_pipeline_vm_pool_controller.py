"""The VMs a VirtualMachinePool creates (pipeline/vm_pool_controller.py, pkg/virt-controller/watch/pool/pool.go)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.pipeline.vm_pool_controller import is_pool, pool_vm, with_template

Spec = dict[str, Any]


def pool(naming: Spec | None = None, generation: int | None = None) -> Spec:
    volumes = [
        {"name": "root", "dataVolume": {"name": "root"}},
        {"name": "data", "persistentVolumeClaim": {"claimName": "data"}},
        {"name": "shared", "persistentVolumeClaim": {"claimName": "shared"}},
        {"name": "cm", "configMap": {"name": "cm"}},
        {"name": "sec", "secret": {"secretName": "sec"}},
        {"name": "ci", "cloudInitNoCloud": {"secretRef": {"name": "ud"},
                                            "networkDataSecretRef": {"name": "nd"}}},
    ]
    meta: Spec = {"name": "web", "namespace": "prod"}
    if generation is not None:
        meta["generation"] = generation
    spec: Spec = {"virtualMachineTemplate": {
        "metadata": {"labels": {"app": "web"}, "annotations": {"note": "x"}},
        "spec": {"instancetype": {"name": "u1.small"},
                 "dataVolumeTemplates": [{"metadata": {"name": "root"}}, {"metadata": {"name": "data"}}],
                 "template": {"spec": {"volumes": volumes}}},
    }}
    if naming is not None:
        spec["nameGeneration"] = naming
    return {"apiVersion": "pool.kubevirt.io/v1beta1", "kind": "VirtualMachinePool", "metadata": meta, "spec": spec}


def names(vm: Spec) -> list[Any]:
    out = []
    for volume in vm["spec"]["template"]["spec"]["volumes"]:
        source = next(v for k, v in volume.items() if k != "name")
        out.append(source.get("name") or source.get("claimName") or source.get("secretName")
                   or [source[r]["name"] for r in ("secretRef", "networkDataSecretRef")])
    return out


@pytest.mark.parametrize(
    ("naming", "expected"),
    [
        (None, ["root-0", "data-0", "shared", "cm", "sec", ["ud", "nd"]]),
        ({"appendIndexToConfigMapRefs": True}, ["root-0", "data-0", "shared", "cm-0", "sec", ["ud", "nd"]]),
        ({"appendIndexToSecretRefs": True}, ["root-0", "data-0", "shared", "cm", "sec-0", ["ud-0", "nd-0"]]),
    ],
)
def test_first_vm_has_indexed_names(naming: Spec | None, expected: list[Any]) -> None:
    vm = pool_vm(pool(naming), "default", 0)
    assert vm["metadata"]["name"] == "web-0" and vm["metadata"]["namespace"] == "prod"
    assert [d["metadata"]["name"] for d in vm["spec"]["dataVolumeTemplates"]] == ["root-0", "data-0"]
    assert names(vm) == expected


def test_vm_carries_template_metadata_and_pool_revision_label() -> None:
    vm = pool_vm(pool(generation=3), "default", 0)
    assert vm["metadata"]["labels"] == {"app": "web"} and vm["metadata"]["annotations"] == {"note": "x"}
    assert vm["spec"]["template"]["metadata"]["labels"] == {"kubevirt.io/vm-pool-revision-name": "web-3"}
    assert pool_vm(pool(), "default", 0)["spec"]["template"]["metadata"]["labels"] == {
        "kubevirt.io/vm-pool-revision-name": "web-1"}


def test_unindexed_vm_round_trips_into_the_template() -> None:
    source = pool()
    vm = pool_vm(source, "default", None)
    assert vm["spec"] == source["spec"]["virtualMachineTemplate"]["spec"]
    vm["spec"].pop("instancetype")
    out = with_template(source, vm)
    assert "instancetype" not in out["spec"]["virtualMachineTemplate"]["spec"]
    assert out["spec"]["virtualMachineTemplate"]["metadata"] == source["spec"]["virtualMachineTemplate"]["metadata"]
    assert "instancetype" in source["spec"]["virtualMachineTemplate"]["spec"], "the input is not changed"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"apiVersion": "pool.kubevirt.io/v1beta1", "kind": "VirtualMachinePool"}, True),
        ({"apiVersion": "pool.kubevirt.io/v1alpha1", "kind": "VirtualMachinePool"}, True),
        ({"apiVersion": "example.com/v1", "kind": "VirtualMachinePool"}, False),
        ({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine"}, False),
    ],
)
def test_is_pool(data: Spec, expected: bool) -> None:
    assert is_pool(data) is expected


def test_render_refuses_a_pool_without_template_and_locates_kubevirts_errors() -> None:
    from kubectl_instancetype.catalog.index import Catalog
    from kubectl_instancetype.render import Options, render
    from kubectl_instancetype.yamlio import load_stream

    text = ("apiVersion: pool.kubevirt.io/v1beta1\nkind: VirtualMachinePool\nmetadata: {name: empty}\nspec: {}\n"
            "---\napiVersion: pool.kubevirt.io/v1beta1\nkind: VirtualMachinePool\nmetadata: {name: web}\n"
            "spec:\n  selector: {matchLabels: {app: web}}\n  virtualMachineTemplate:\n"
            "    metadata: {labels: {app: web}}\n    spec:\n      runStrategy: Halted\n"
            "      instancetype: {name: nope}\n"
            "      template: {spec: {domain: {}}}\n")
    result = render(list(load_stream(text, "pools.yaml")), Catalog(), Options())
    assert [p.render() for p in result.problems] == [
        "pools.yaml:1:1: error: VirtualMachinePool default/empty: spec.virtualMachineTemplate is required",
        'pools.yaml:15:7: error: VirtualMachinePool default/web: '
        'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "nope" not found',
    ]
