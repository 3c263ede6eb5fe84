"""virt-controller's instance type sync under ``instancetype.referencePolicy`` (pipeline/vm_controller.py).

Values as KubeVirt's corpus shows them: under ``expand``/``expandAll`` the VMI comes from the expanded and
updated VM (``kubevirt.io/vm-generation: "2"``, no name annotations).
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.config import ClusterConfig, load_config
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.pipeline.stages import render_vm, render_vmi
from kubectl_instancetype.pipeline.vm_controller import expands, generation, stored_revisions

Spec = dict[str, Any]
V1BETA1 = "instancetype.kubevirt.io/v1beta1"
REVISION = "vm-pref-rev"


def policy(name: str) -> ClusterConfig:
    return load_config({"instancetype": {"referencePolicy": name}})


def catalog() -> Catalog:
    lookup = Catalog(default_namespace="default")
    lookup.add({"apiVersion": V1BETA1, "kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "it"},
                "spec": {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}})
    pref = {"apiVersion": V1BETA1, "kind": "VirtualMachineClusterPreference",
            "metadata": {"name": "p", "uid": "u1", "generation": 1},
            "spec": {"devices": {"preferredAutoattachInputDevice": True, "preferredInputBus": "virtio"}}}
    lookup.add(pref)
    lookup.add({"apiVersion": "apps/v1", "kind": "ControllerRevision",
                "metadata": {"name": REVISION, "namespace": "default",
                             "labels": {"instancetype.kubevirt.io/object-name": "p"}},
                "data": pref, "revision": 1})
    return lookup


def vm(inputs: list[Spec] | None = None, status: Spec | None = None, **extra: Any) -> Spec:
    devices: Spec = {"inputs": inputs} if inputs else {}
    out: Spec = {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"},
        "spec": {"runStrategy": "Halted", "instancetype": {"name": "it"}, "preference": {"name": "p"},
                 "template": {"spec": {"domain": {"devices": devices}}}, **extra},
    }
    if status is not None:
        out["status"] = status
    return out


PINNED = {"preferenceRef": {"name": "p", "kind": "VirtualMachineClusterPreference",
                            "controllerRevisionRef": {"name": REVISION}}}
NAMES = {"kubevirt.io/cluster-instancetype-name": "it", "kubevirt.io/cluster-preference-name": "p"}


@pytest.mark.parametrize(
    ("name", "status", "expanded"),
    [
        ("reference", None, False),
        ("reference", PINNED, False),
        ("expand", None, True),
        ("expand", PINNED, False),  # handleExpand: "not expanding as preference already has revisionName"
        ("expandAll", None, True),
        ("expandAll", PINNED, True),
    ],
)
def test_reference_policy_decides_whether_the_vmi_comes_from_an_expanded_vm(
    name: str, status: Spec | None, expanded: bool
) -> None:
    assert expands(vm(status=status), name) is expanded
    vmi = render_vmi(vm(status=status), "default", catalog(), policy(name))
    annotations = vmi["metadata"]["annotations"]
    assert annotations["kubevirt.io/vm-generation"] == ("2" if expanded else "1")
    assert {k: annotations[k] for k in NAMES if k in annotations} == ({} if expanded else NAMES)
    assert vmi["spec"]["domain"]["cpu"]["sockets"] == 2 and vmi["spec"]["domain"]["memory"]["guest"] == "1Gi"


def test_expanded_vm_places_preference_devices_before_auto_attach() -> None:
    # Expanded first, the preference's input bus reaches only the template's own inputs; the input device
    # virt-controller attaches afterwards gets the API default bus.
    expanded = render_vmi(vm(), "default", catalog(), policy("expandAll"))
    assert expanded["spec"]["domain"]["devices"]["inputs"] == [{"name": "default-0", "bus": "usb", "type": "tablet"}]
    referenced = render_vmi(vm(), "default", catalog(), policy("reference"))
    assert referenced["spec"]["domain"]["devices"]["inputs"] == [
        {"name": "default-0", "bus": "virtio", "type": "tablet"}
    ]
    own = render_vmi(vm(inputs=[{"name": "mine", "type": "tablet"}]), "default", catalog(), policy("expand"))
    assert own["spec"]["domain"]["devices"]["inputs"] == [{"name": "mine", "type": "tablet", "bus": "virtio"}]


def test_a_dumped_vm_is_created_anew_with_generation_one() -> None:
    dumped = vm()
    dumped["metadata"]["generation"] = 4
    assert generation(dumped) == 4
    expanded = render_vmi(dumped, "default", catalog(), policy("expand"))
    assert expanded["metadata"]["annotations"]["kubevirt.io/vm-generation"] == "2"
    referenced = render_vmi(dumped, "default", catalog(), policy("reference"))
    assert referenced["metadata"]["annotations"]["kubevirt.io/vm-generation"] == "1"


def test_vm_mode_is_the_same_under_every_policy() -> None:
    outputs = [render_vm(vm(), "default", catalog(), policy(name)) for name in ("reference", "expand", "expandAll")]
    assert outputs[0] == outputs[1] == outputs[2]


def test_lookup_error_comes_before_expansion() -> None:
    missing = vm()
    missing["spec"]["instancetype"] = {"name": "nope"}
    with pytest.raises(KubeVirtError) as caught:
        render_vmi(missing, "default", catalog(), policy("expandAll"))
    assert caught.value.stage == "controller"
    assert caught.value.message == 'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "nope" not found'


def test_stored_revisions_follow_the_matcher_inferred_from_a_volume() -> None:
    lookup = catalog()
    lookup.add({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "metadata": {"name": "root", "namespace": "default",
                             "labels": {"instancetype.kubevirt.io/default-instancetype": "it"}}})
    machine = vm()
    machine["spec"]["instancetype"] = {"inferFromVolume": "root"}
    machine["spec"]["template"]["spec"]["volumes"] = [{"name": "root", "persistentVolumeClaim": {"claimName": "root"}}]
    stored = stored_revisions(machine, "default", lookup)
    assert [r["data"]["metadata"]["name"] for r in stored] == ["it", "p"]
    assert machine["spec"]["instancetype"] == {"inferFromVolume": "root"}, "the caller's VM is not changed"
