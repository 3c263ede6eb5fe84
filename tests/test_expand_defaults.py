"""Defaults around the appliers (defaults.py, spec §5.2, §5.3, §5.6) and the expand endpoint vectors
TV-97 … TV-100 (§12.8), run as KubeVirt's expand_test.go runs them (``render_vm`` below)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.expand.defaults import cluster_defaults, default_pod_network, default_volume_disks
from kubectl_instancetype.pipeline import expand
from kubectl_instancetype.pipeline.stages import run

Spec = dict[str, Any]
NS = "default"
BRIDGE = [{"name": "default", "bridge": {}}]
POD = [{"name": "default", "pod": {}}]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({}, {}),
        ({"volumes": [{"name": "a"}]}, {"volumes": [{"name": "a"}], "domain": {"devices": {"disks": [{"name": "a"}]}}}),
        ({"volumes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
          "domain": {"devices": {"disks": [{"name": "a", "cdrom": {}}], "filesystems": [{"name": "b"}]}}},
         {"volumes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
          "domain": {"devices": {"disks": [{"name": "a", "cdrom": {}}, {"name": "c"}],
                                 "filesystems": [{"name": "b"}]}}}),
    ],
)
def test_default_volume_disks(spec: Spec, expected: Spec) -> None:
    default_volume_disks(spec)
    assert spec == expected


@pytest.mark.parametrize(
    ("cfg", "spec", "expected"),
    [
        (DEFAULT_CONFIG, {}, {"domain": {"devices": {"interfaces": BRIDGE}}, "networks": POD}),
        (ClusterConfig(default_network_interface="masquerade"), {},
         {"domain": {"devices": {"interfaces": [{"name": "default", "masquerade": {}}]}}, "networks": POD}),
        (ClusterConfig(default_network_interface="passt"), {}, {"networks": POD}),
        (DEFAULT_CONFIG, {"domain": {"devices": {"autoattachPodInterface": False}}},
         {"domain": {"devices": {"autoattachPodInterface": False}}}),
        (DEFAULT_CONFIG, {"networks": [{"name": "n", "multus": {}}]}, {"networks": [{"name": "n", "multus": {}}]}),
        (DEFAULT_CONFIG, {"domain": {"devices": {"interfaces": [{"name": "i"}]}}},
         {"domain": {"devices": {"interfaces": [{"name": "i"}]}}}),
    ],
)
def test_default_pod_network(cfg: ClusterConfig, spec: Spec, expected: Spec) -> None:
    default_pod_network(cfg, spec)
    assert spec == expected


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        (ClusterConfig(permit_bridge_on_pod_network=False), "bridge interface is not enabled in kubevirt-config"),
        (ClusterConfig(default_network_interface="slirp"), "slirp interface is deprecated as of v1.3"),
    ],
)
def test_default_pod_network_refusals(cfg: ClusterConfig, message: str) -> None:
    spec: Spec = {}
    assert default_pod_network(cfg, spec) == message
    assert spec == {}


CPU_111 = {"sockets": 1, "cores": 1, "threads": 1}


def defaulted(domain: Spec, architecture: str = "amd64", machine: str = "q35", **spec: Any) -> Spec:
    """What cluster_defaults leaves for a spec without volumes or networks."""
    base: Spec = {"machine": {"type": machine}, "memory": {}, "cpu": CPU_111,
                  "devices": {"interfaces": BRIDGE}}
    return {"architecture": architecture, "domain": {**base, **domain}, "evictionStrategy": "None",
            "networks": POD, **spec}


@pytest.mark.parametrize(
    ("cfg", "spec", "expected"),
    [
        (DEFAULT_CONFIG, {}, defaulted({})),
        (DEFAULT_CONFIG, {"architecture": "arm64"}, defaulted({}, "arm64", "virt")),
        (DEFAULT_CONFIG, {"architecture": "s390x"}, defaulted({}, "s390x", "s390-ccw-virtio")),
        (ClusterConfig(machine_type="pc-q35-rhel8"), {}, defaulted({}, machine="pc-q35-rhel8")),
        (DEFAULT_CONFIG, {"domain": {"resources": {"limits": {"cpu": "2"}}}},
         defaulted({"resources": {"limits": {"cpu": "2"}, "requests": {"cpu": "2"}},
                    "cpu": {"sockets": 2, "cores": 1, "threads": 1}})),
        (DEFAULT_CONFIG, {"domain": {"resources": {"requests": {"cpu": "500m"}}}},
         defaulted({"resources": {"requests": {"cpu": "500m"}}})),  # rounded up to one socket
        (ClusterConfig(cpu_request="200m"), {}, defaulted({"resources": {"requests": {"cpu": "200m"}}})),
        (ClusterConfig(cpu_request="200m"), {"domain": {"cpu": {"cores": 2, "dedicatedCpuPlacement": True}}},
         defaulted({"cpu": {"cores": 2, "dedicatedCpuPlacement": True}})),
        (DEFAULT_CONFIG, {"domain": {"resources": {"requests": {"memory": "1Gi"}, "limits": {"memory": "2Gi"}}}},
         defaulted({"resources": {"requests": {"memory": "1Gi"}, "limits": {"memory": "2Gi"}},
                    "memory": {"guest": "1Gi"}})),
        (DEFAULT_CONFIG, {"domain": {"resources": {"limits": {"memory": "2Gi"}}}},
         defaulted({"resources": {"limits": {"memory": "2Gi"}}, "memory": {"guest": "2Gi"}})),
        (DEFAULT_CONFIG, {"domain": {"memory": {"hugepages": {"pageSize": "1Gi"}}}},
         defaulted({"memory": {"hugepages": {"pageSize": "1Gi"}, "guest": "1Gi"}})),
        (DEFAULT_CONFIG, {"evictionStrategy": "LiveMigrate"}, defaulted({}, evictionStrategy="LiveMigrate")),
    ],
)
def test_cluster_defaults(cfg: ClusterConfig, spec: Spec, expected: Spec) -> None:
    cluster_defaults(cfg, spec)
    assert spec == expected


@pytest.mark.parametrize(
    ("image", "policy"),
    [("registry:5000/img", "IfNotPresent"), ("img", "Always"), ("img:latest", "Always"),
     ("quay.io/img:v1", "IfNotPresent"), ("quay.io/img@sha256:abc", "IfNotPresent")],
)
def test_container_disk_pull_policy(image: str, policy: str) -> None:
    spec: Spec = {"volumes": [{"name": "c", "containerDisk": {"image": image}}]}
    cluster_defaults(DEFAULT_CONFIG, spec)
    assert spec["volumes"] == [{"name": "c", "containerDisk": {"image": image, "imagePullPolicy": policy}}]
    assert spec["domain"]["devices"]["disks"] == [{"name": "c"}]


IT_SPEC: Spec = {"cpu": {"guest": 2}, "memory": {"guest": "128Mi"}}
PREF_SPEC: Spec = {"cpu": {"preferredCPUTopology": "cores"}, "devices": {"preferredDiskBus": "virtio"}}


def catalog() -> Catalog:
    lookup = Catalog(default_namespace=NS)
    for kind, spec, namespace in (
        ("VirtualMachineClusterInstancetype", IT_SPEC, None), ("VirtualMachineInstancetype", IT_SPEC, NS),
        ("VirtualMachineClusterPreference", PREF_SPEC, None), ("VirtualMachinePreference", PREF_SPEC, NS),
    ):
        name = "test-cluster-instancetype" if "Instancetype" in kind else "test-cluster-preference"
        meta = {"name": name, **({"namespace": namespace} if namespace else {})}
        lookup.add({"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind, "metadata": meta, "spec": spec})
    return lookup


def render_vm(vm: Spec, namespace: str, lookup: Catalog, cfg: ClusterConfig) -> Spec:
    """KubeVirt's expand endpoint, as its expand_test.go calls it: the VM's matchers looked up and expanded,
    without the VM webhooks of a create (which refuse these VMs: volumeName is no RFC 1123 label and its
    volume has no source, says `kv-expand --mutate full --admit full`)."""
    return run((expand.expand,), vm, namespace, lookup, cfg)


def vm(it_kind: str, pref_kind: str, domain: Spec | None = None) -> Spec:
    return {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm", "namespace": NS},
        "spec": {
            "runStrategy": "Halted",
            "instancetype": {"name": "test-cluster-instancetype", "kind": it_kind},
            "preference": {"name": "test-cluster-preference", "kind": pref_kind},
            "template": {"spec": {"domain": domain or {}, "volumes": [{"name": "volumeName"}]}},
        },
    }


KIND_PAIRS = [
    ("", ""),
    ("virtualmachineclusterinstancetype", "virtualmachineclusterpreference"),
    ("virtualmachineclusterinstancetypes", "virtualmachineclusterpreferences"),
    ("virtualmachineinstancetype", "virtualmachinepreference"),
    ("virtualmachineinstancetypes", "virtualmachinepreferences"),
]


@pytest.mark.parametrize(("it_kind", "pref_kind"), KIND_PAIRS)
def test_tv97_expand_endpoint(it_kind: str, pref_kind: str) -> None:
    out = render_vm(vm(it_kind, pref_kind), NS, catalog(), DEFAULT_CONFIG)
    assert "instancetype" not in out["spec"] and "preference" not in out["spec"]
    assert out["spec"]["template"]["spec"] == {
        "domain": {
            "devices": {"disks": [{"name": "volumeName", "disk": {"bus": "virtio"}}], "interfaces": BRIDGE},
            "cpu": {"sockets": 1, "cores": 2, "threads": 1},
            "memory": {"guest": "128Mi"},
            "machine": {"type": "q35"},
        },
        "volumes": [{"name": "volumeName"}],
        "networks": POD,
        "architecture": "amd64",
        "evictionStrategy": "None",
    }


@pytest.mark.parametrize(("it_kind", "pref_kind"), KIND_PAIRS)
def test_tv98_conflict(it_kind: str, pref_kind: str) -> None:
    with pytest.raises(KubeVirtError) as caught:
        render_vm(vm(it_kind, pref_kind, {"cpu": {"sockets": 4}}), NS, catalog(), DEFAULT_CONFIG)
    assert caught.value.message == (
        "VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type"
    )
    assert caught.value.paths == ("spec.template.spec.domain.cpu.sockets",)


def test_tv99_vm_without_matchers_is_returned_unchanged() -> None:
    machine: Spec = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"},
                     "spec": {"runStrategy": "Halted",
                              "template": {"spec": {"domain": {}, "volumes": [{"name": "v"}]}}}}
    before = copy.deepcopy(machine)
    assert render_vm(machine, NS, catalog(), DEFAULT_CONFIG) == before
    assert machine == before


@pytest.mark.parametrize(
    ("field", "kind", "message"),
    [
        ("instancetype", "", 'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "missing" not found'),
        ("instancetype", "VirtualMachineClusterInstancetypes",
         'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "missing" not found'),
        ("instancetype", "virtualmachineinstancetype",
         'virtualmachineinstancetypes.instancetype.kubevirt.io "missing" not found'),
        ("preference", "", 'virtualmachineclusterpreferences.instancetype.kubevirt.io "missing" not found'),
        ("preference", "VirtualMachinePreferences",
         'virtualmachinepreferences.instancetype.kubevirt.io "missing" not found'),
    ],
)
def test_tv100_nonexistent_object(field: str, kind: str, message: str) -> None:
    machine = vm("", "")
    machine["spec"][field] = {"name": "missing", "kind": kind}
    with pytest.raises(KubeVirtError) as caught:
        render_vm(machine, NS, catalog(), DEFAULT_CONFIG)
    assert caught.value.message.split(" (hint: ")[0] == message  # KubeVirt's words, then our hint
