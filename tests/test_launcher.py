"""The launcher package's parts, by table: Go's Quantity arithmetic, the memory overhead's parts, Kubernetes'
effective Pod requests, the image virt-operator passes, which render errors ``validate`` can decide.
Whole Pods are checked against KubeVirt by test_conformance_pods.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_instancetype.api.releases import BY_NAME
from kubectl_instancetype.config import load_config
from kubectl_instancetype.launcher import default_launcher_image, gather, render_pod, summarize
from kubectl_instancetype.launcher.arith import ZERO, add, must, scaled, sub
from kubectl_instancetype.launcher.overhead import memory_overhead
from kubectl_instancetype.launcher.resources import go_g
from kubectl_instancetype.pipeline.launcher_stage import Decidable
from kubectl_instancetype.quantity import Quantity
from kubectl_instancetype.records import replace


@pytest.mark.parametrize(("left", "right", "text"), [
    ("2000M", "301989888", "2301989888"),  # DecimalSI receiver: its format
    ("2Gi", "300Mi", "2348Mi"),
    ("0", "25Mi", "25Mi"),  # a zero receiver takes the other's format
    ("1", "500m", "1500m"),  # the smaller scale wins
])
def test_add(left: str, right: str, text: str) -> None:
    assert str(add(must(left), must(right))) == text


def test_add_to_go_zero_quantity_takes_the_format() -> None:
    assert str(add(ZERO, must("50M"))) == "50M"
    assert str(add(scaled(0, 3), must("1Gi"))) == "1Gi"


def test_sub() -> None:
    assert str(sub(add(scaled(0, 3), must("5Gi")), must("4Gi"))) == "1Gi"


@pytest.mark.parametrize(("value", "text"), [(0.1, "0.1"), (2.0, "2"), (100.0, "100"), (33.333333333333336,
                                                                                          "33.333333333333336")])
def test_go_g(value: float, text: str) -> None:
    assert go_g(value) == text


def _vmi(**domain: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"cpu": {"cores": 1, "sockets": 1, "threads": 1}, "devices": {}}
    base.update(domain)
    return {"metadata": {"name": "vm", "namespace": "default"},
            "spec": {"architecture": "amd64", "domain": base}, "status": {"runtimeUser": 107}}


@pytest.mark.parametrize(("release", "domain", "expected"), [
    ("main", {}, 301989888),  # 25+100+25+40+50 + 8 (1 vCPU) + 8 + 32 (graphics) Mi
    ("v1.9.0", {}, 301989888 - 20 * 2**20),  # QemuOverhead 30Mi before main
    ("main", {"cpu": {"cores": 4}}, 301989888 + 24 * 2**20),
    ("main", {"devices": {"autoattachGraphicsDevice": False}}, 301989888 - 32 * 2**20),
    ("main", {"resources": {"requests": {"memory": "2Gi"}}}, 301989888 + 4 * 2**20),  # page tables: 1/512
    ("main", {"devices": {"tpm": {}}}, 301989888 + 53 * 2**20),
])
def test_memory_overhead(release: str, domain: dict[str, Any], expected: int) -> None:
    cfg = replace(load_config({}), release=BY_NAME[release])
    assert memory_overhead(_vmi(**domain), cfg).total.value() == expected


def test_overhead_ratio_multiplies_the_overhead() -> None:
    cfg = replace(load_config({"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
                               "spec": {"configuration": {"additionalGuestMemoryOverheadRatio": "2"}}}),
                  release=BY_NAME["main"])
    overhead = memory_overhead(_vmi(), cfg)
    assert overhead.total.value() == 301989888 + 301990000  # the addition is counted in (rounded-up) thousands
    assert overhead.parts[-1][0] == "additionalGuestMemoryOverheadRatio 2"


def test_default_launcher_image() -> None:
    assert default_launcher_image("v1.8.4") == "quay.io/kubevirt/virt-launcher:v1.8.4"
    assert default_launcher_image("v1.9.0", "registry.example.com/kv/") == \
        "registry.example.com/kv/virt-launcher:v1.9.0"


def test_launcher_image_from_the_cr_given_by_kubevirt_config(tmp_path: Path) -> None:
    """The CR in force names the registry and tag, whether it is among the files or given by --kubevirt-config."""
    from conftest import invoke_cli

    (tmp_path / "kubevirt.yaml").write_text(
        "apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n  name: kubevirt\n  namespace: kubevirt\n"
        "spec:\n  imageRegistry: registry.example.com/kv\n  imageTag: v1.9.0-custom\n  configuration: {}\n")
    (tmp_path / "vm.yaml").write_text(
        "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: small\nspec:\n  runStrategy: Always\n"
        "  template:\n    spec:\n      domain:\n        memory:\n          guest: 1Gi\n        devices: {}\n")
    out, err, status = invoke_cli(["--no-builtin-catalog", "--kubevirt-version", "main", "render", "-f", "vm.yaml",
                                   "--pod", "-o", "json", "--kubevirt-config", "kubevirt.yaml"], tmp_path)
    assert status == 0, err
    assert json.loads(out)["spec"]["containers"][0]["image"] == "registry.example.com/kv/virt-launcher:v1.9.0-custom"


def test_pod_requests_follow_kubernetes_rules() -> None:
    """Containers summed, sidecar init containers (restartPolicy Always) added, a regular init container a
    floor with the sidecars started before it."""
    pod = {"spec": {
        "containers": [{"name": "compute", "resources": {"requests": {"cpu": "100m", "memory": "1Gi"},
                                                         "limits": {"memory": "2Gi"}}}],
        "initContainers": [
            {"name": "log", "restartPolicy": "Always", "resources": {"requests": {"cpu": "5m", "memory": "35M"}}},
            {"name": "disk", "resources": {"requests": {"cpu": "1", "memory": "1M"}}},
        ]}}
    resources = summarize(pod)
    assert str(resources.requests["cpu"]) == "1005m"  # the init container (+ the sidecar before it) is larger
    assert resources.requests["memory"] == Quantity(1073741824 + 35000000)
    assert not resources.limited("memory")
    assert [c.kind for c in resources.containers] == ["sidecar", "init", "container"]


def test_render_pod_missing_claim_is_kubevirts_error() -> None:
    vmi = _vmi()
    vmi["spec"]["volumes"] = [{"name": "root", "persistentVolumeClaim": {"claimName": "gone"}}]
    result = render_pod(vmi, gather([]), replace(load_config({}), release=BY_NAME["main"]), "img")
    assert result.pod is None and result.reason == "claim"
    assert result.error == "failed to render launch manifest: didn't find PVC gone"


def test_render_pod_datavolume_stands_for_its_claim() -> None:
    vmi = _vmi()
    vmi["spec"]["volumes"] = [{"name": "root", "dataVolume": {"name": "dv"}}]
    dv = {"kind": "DataVolume", "metadata": {"name": "dv", "namespace": "default"},
          "spec": {"storage": {"volumeMode": "Block"}}}
    result = render_pod(vmi, gather([dv]), replace(load_config({}), release=BY_NAME["main"]), "img")
    assert result.pod is not None and result.resources is not None
    assert result.pod["spec"]["containers"][0]["volumeDevices"] == [{"name": "root", "devicePath": "/dev/root"}]


@pytest.mark.parametrize(("objects", "has_cr", "decided"), [
    ([], False, {"other"}),
    ([{"kind": "PersistentVolumeClaim", "metadata": {"name": "a"}}], False, {"other", "claim"}),
    ([{"kind": "DataVolume", "metadata": {"name": "a"}}], False, {"other", "claim"}),
    ([{"kind": "NetworkAttachmentDefinition", "metadata": {"name": "a"}}], False, {"other", "network"}),
    ([{"kind": "StorageClass", "metadata": {"name": "a"}}], True, {"other", "storage-class", "binding"}),
])
def test_validate_decides_what_the_inputs_hold(objects: list[dict[str, Any]], has_cr: bool,
                                               decided: set[str]) -> None:
    assert Decidable.of(gather(objects), has_cr, load_config({})).reasons == decided


def _vm(spec: dict[str, Any], **vm_spec: Any) -> dict[str, Any]:
    return {"spec": {"template": {"spec": spec}, **vm_spec}}


ALL = frozenset(("claim", "network", "binding", "storage-class", "other"))


@pytest.mark.parametrize(("vm", "reasons", "checked"), [
    (_vm({"domain": {"devices": {}}}), ALL, False),
    (_vm({"volumes": [{"name": "a", "persistentVolumeClaim": {"claimName": "a"}}]}), ALL, True),
    (_vm({"volumes": [{"name": "a", "persistentVolumeClaim": {"claimName": "a"}}]}), frozenset({"binding"}), False),
    (_vm({"domain": {"devices": {"interfaces": [{"name": "n", "binding": {"name": "passt"}}]}}}),
     frozenset({"binding"}), True),
    (_vm({"networks": [{"name": "n", "multus": {"networkName": "x"}}]}), frozenset({"network"}), True),
    (_vm({}, preference={"name": "windows.11"}), frozenset({"storage-class"}), True),
])
def test_validate_renders_the_pods_that_could_fail(vm: dict[str, Any], reasons: frozenset[str], checked: bool) -> None:
    from kubectl_instancetype.pipeline.launcher_stage import may_fail

    assert may_fail(vm, reasons) is checked


@pytest.mark.parametrize(("release", "domain", "expected"), [
    ("v1.5.3", {}, 301989888 - 20 * 2**20 - 16 * 2**20),  # graphics 16Mi before v1.6
    ("v1.6.6", {"devices": {"tpm": {"enabled": False}}}, 301989888 - 20 * 2**20),
    ("v1.5.0", {"devices": {"tpm": {"enabled": False}}}, 301989888 - 36 * 2**20 + 53 * 2**20),
    ("v1.7.4", {"memory": {"guest": "1Gi", "reservedOverhead": {"addedOverhead": "1Gi"}}}, 301989888 - 20 * 2**20),
    ("v1.8.4", {"memory": {"guest": "1Gi", "reservedOverhead": {"addedOverhead": "1Gi"}}},
     301989888 - 20 * 2**20 + 2**30),
])
def test_memory_overhead_by_release(release: str, domain: dict[str, Any], expected: int) -> None:
    cfg = replace(load_config({}), release=BY_NAME[release])
    assert memory_overhead(_vmi(**domain), cfg).total.value() == expected


@pytest.mark.parametrize(("release", "where", "present", "absent"), [
    ("main", "args", ["--disk-memory-limit", "--hypervisor"], []),
    ("v1.9.0", "command", ["--disk-memory-limit", "--hypervisor"], []),
    ("v1.7.4", "command", ["--disk-memory-limit"], ["--hypervisor"]),
    ("v1.5.3", "command", [], ["--disk-memory-limit", "--hypervisor"]),
])
def test_launcher_flags_by_release(release: str, where: str, present: list[str], absent: list[str]) -> None:
    result = render_pod(_vmi(), gather([]), replace(load_config({}), release=BY_NAME[release]), "img")
    assert result.pod is not None
    flags = result.pod["spec"]["containers"][0].get(where) or []
    assert "--qemu-timeout" in flags
    assert all(f in flags for f in present) and not any(f in flags for f in absent)
