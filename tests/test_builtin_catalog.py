"""The built-in catalog equals the published common-instancetypes bundles, field by field."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import REFERENCE_BUNDLES

from kubectl_instancetype.catalog import builtin
from kubectl_instancetype.catalog.builtin import tree
from kubectl_instancetype.yamlio.load import load_stream

REFERENCE = REFERENCE_BUNDLES
KIND_FILES = {kind: REFERENCE / f"{kind}s.yaml" for kind in builtin.KINDS}
COUNTS = {
    builtin.CLUSTER_INSTANCETYPE: 65,
    builtin.CLUSTER_PREFERENCE: 57,
    builtin.INSTANCETYPE: 65,
    builtin.PREFERENCE: 57,
}
needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(), reason=f"reference bundles not in {REFERENCE}")


@cache
def reference(kind: str) -> dict[str, dict[str, Any]]:
    """The objects of one reference bundle by name, in file order."""
    path = KIND_FILES[kind]
    return {doc.data["metadata"]["name"]: doc.data for doc in load_stream(path.read_text(), str(path))}


def ours(kind: str) -> dict[str, dict[str, Any]]:
    return {obj["metadata"]["name"]: obj for obj in builtin.objects() if obj["kind"] == kind}


def differences(got: Any, want: Any, path: str = "") -> list[str]:
    """Every field where ``got`` and ``want`` differ, as ``path: got != want``."""
    if isinstance(got, dict) and isinstance(want, dict):
        found = []
        for key in sorted(got.keys() | want.keys()):
            where = f"{path}.{key}" if path else key
            if key not in want:
                found.append(f"{where}: unexpected {got[key]!r}")
            elif key not in got:
                found.append(f"{where}: missing, want {want[key]!r}")
            else:
                found.extend(differences(got[key], want[key], where))
        return found
    if got != want or type(got) is not type(want):
        return [f"{path}: {got!r} != {want!r}"]
    return []


@needs_reference
@pytest.mark.parametrize("kind", builtin.KINDS)
def test_every_object_equals_the_reference_bundle(kind: str) -> None:
    got, want = ours(kind), reference(kind)
    assert sorted(got) == sorted(want), f"{kind}: names differ: {sorted(got.keys() ^ want.keys())}"
    problems = [f"{kind}/{name}: {diff}" for name in want for diff in differences(got[name], want[name])]
    assert not problems, "\n".join(problems)


@needs_reference
@pytest.mark.parametrize("kind", builtin.KINDS)
def test_objects_come_in_bundle_order_with_bundle_key_order(kind: str) -> None:
    got, want = ours(kind), reference(kind)
    assert list(got) == list(want)
    for name in want:
        assert json.dumps(got[name]) == json.dumps(want[name]), name


def test_differences_names_the_object_field() -> None:
    got = {"spec": {"cpu": {"guest": 2}, "extra": 1}, "kind": "A"}
    want = {"spec": {"cpu": {"guest": 4}}, "kind": "A", "metadata": {}}
    assert differences(got, want) == [
        "metadata: missing, want {}",
        "spec.cpu.guest: 2 != 4",
        "spec.extra: unexpected 1",
    ]
    assert differences({"a": True}, {"a": 1}) == ["a: True != 1"]


@pytest.mark.parametrize(("kind", "count"), COUNTS.items())
def test_names_are_sorted_and_complete(kind: str, count: int) -> None:
    names = builtin.names(kind)
    assert len(names) == count
    assert names == sorted(names)


def test_names_of_an_unknown_kind_are_empty() -> None:
    assert builtin.names("VirtualMachine") == []
    assert builtin.names("virtualmachineclusterinstancetype") == []


def test_objects_lists_every_kind_in_bundle_order() -> None:
    kinds = [obj["kind"] for obj in builtin.objects()]
    assert kinds == [kind for kind in builtin.KINDS for _ in range(COUNTS[kind])]
    assert all("namespace" not in obj["metadata"] for obj in builtin.objects())


@pytest.mark.parametrize(
    ("kind", "name", "spec"),
    [
        (builtin.CLUSTER_INSTANCETYPE, "u1.medium", {"cpu": {"guest": 1}, "memory": {"guest": "4Gi"}}),
        (
            builtin.INSTANCETYPE,
            "o1.nano",
            {"cpu": {"guest": 1}, "memory": {"guest": "512Mi", "overcommitPercent": 50}},
        ),
        (
            builtin.CLUSTER_INSTANCETYPE,
            "cx1.large1gi",
            {
                "cpu": {
                    "dedicatedCPUPlacement": True,
                    "guest": 2,
                    "isolateEmulatorThread": True,
                    "maxSockets": 2,
                    "numa": {"guestMappingPassthrough": {}},
                },
                "ioThreadsPolicy": "auto",
                "memory": {"guest": "4Gi", "hugepages": {"pageSize": "1Gi"}},
            },
        ),
        (
            builtin.CLUSTER_INSTANCETYPE,
            "m1.large",
            {"cpu": {"guest": 2}, "memory": {"guest": "16Gi", "hugepages": {"pageSize": "2Mi"}}},
        ),
        (
            builtin.CLUSTER_PREFERENCE,
            "fedora.arm64",
            {
                "annotations": {"vm.kubevirt.io/os": "linux"},
                "devices": {
                    "preferredDiskBus": "virtio",
                    "preferredInterfaceModel": "virtio",
                    "preferredRng": {},
                },
                "preferredArchitecture": "arm64",
                "requirements": {"architecture": "arm64", "cpu": {"guest": 1}, "memory": {"guest": "2Gi"}},
            },
        ),
        (
            builtin.PREFERENCE,
            "legacy",
            {
                "annotations": {"vm.kubevirt.io/os": "legacy"},
                "devices": {"preferredDiskBus": "sata", "preferredInterfaceModel": "e1000"},
            },
        ),
    ],
)
def test_find_builds_the_spec(kind: str, name: str, spec: dict[str, Any]) -> None:
    found = builtin.find(kind, name)
    assert found is not None
    assert (found["apiVersion"], found["kind"], found["metadata"]["name"]) == (
        "instancetype.kubevirt.io/v1beta1",
        kind,
        name,
    )
    assert found["spec"] == spec


def test_windows_11_labels_and_requirements() -> None:
    found = builtin.find(builtin.CLUSTER_PREFERENCE, "windows.11.virtio")
    assert found is not None
    assert found["metadata"]["labels"] == {
        "instancetype.kubevirt.io/os-type": "windows",
        "instancetype.kubevirt.io/required-cpu": "2",
        "instancetype.kubevirt.io/required-memory": "4Gi",
        "instancetype.kubevirt.io/vendor": "kubevirt.io",
    }
    assert found["metadata"]["annotations"]["openshift.io/display-name"] == "Microsoft Windows 11 (virtio)"
    assert found["spec"]["requirements"] == {"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}
    assert found["spec"]["firmware"] == {"preferredEfi": {"persistent": True, "secureBoot": True}}
    assert found["spec"]["devices"]["preferredTPM"] == {"persistent": True}


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        (builtin.CLUSTER_INSTANCETYPE, "u1.huge"),
        (builtin.CLUSTER_INSTANCETYPE, "fedora"),  # a preference name asked of instancetypes
        (builtin.CLUSTER_PREFERENCE, "u1.medium"),
        (builtin.PREFERENCE, "centos.7"),  # removed in common-instancetypes v1.3
        ("VirtualMachineClusterinstancetype", "u1.medium"),  # kinds are exact
        ("VirtualMachine", "u1.medium"),
        (builtin.CLUSTER_INSTANCETYPE, ""),
    ],
)
def test_find_returns_none_for_what_the_catalog_lacks(kind: str, name: str) -> None:
    assert builtin.find(kind, name) is None


def test_find_returns_a_fresh_copy_each_time() -> None:
    first = builtin.find(builtin.CLUSTER_PREFERENCE, "windows.2k22")
    assert first is not None
    first["spec"]["features"]["preferredHyperv"]["spinlocks"]["spinlocks"] = 1
    first["metadata"]["labels"].clear()
    again = builtin.find(builtin.CLUSTER_PREFERENCE, "windows.2k22")
    assert again is not None
    assert again["spec"]["features"]["preferredHyperv"]["spinlocks"] == {"spinlocks": 8191}
    assert again["metadata"]["labels"]["instancetype.kubevirt.io/required-memory"] == "2Gi"
    other = builtin.find(builtin.CLUSTER_PREFERENCE, "windows.7")
    assert other is not None
    assert other["spec"]["features"]["preferredHyperv"]["spinlocks"] == {"spinlocks": 8191}


def test_both_scopes_differ_only_in_kind() -> None:
    cluster = builtin.find(builtin.CLUSTER_INSTANCETYPE, "n1.xlarge")
    namespaced = builtin.find(builtin.INSTANCETYPE, "n1.xlarge")
    assert cluster is not None and namespaced is not None
    assert namespaced == {**cluster, "kind": "VirtualMachineInstancetype"}


def test_version_names_the_reference_revision() -> None:
    assert builtin.VERSION == "v1.6.0-90-g7c1e305b"
    assert builtin.COMMIT.startswith(builtin.VERSION.rsplit("-g", 1)[1])


def test_merge_overrides_key_by_key_and_copies() -> None:
    shared = {"devices": {"bus": "sata", "nic": "e1000e"}, "flags": {}}
    merged = tree.merge([shared, {"devices": {"nic": "virtio"}, "flags": {"x": {}}}, {"flags": {}}])
    assert merged == {"devices": {"bus": "sata", "nic": "virtio"}, "flags": {"x": {}}}
    merged["devices"]["bus"] = "virtio"
    assert shared == {"devices": {"bus": "sata", "nic": "e1000e"}, "flags": {}}


def test_sorted_tree_sorts_every_level() -> None:
    assert json.dumps(tree.sorted_tree({"b": [{"z": 1, "a": 2}], "a": {"d": 1, "c": 2}})) == (
        '{"a": {"c": 2, "d": 1}, "b": [{"a": 2, "z": 1}]}'
    )


COLD_FIND = """
from kubectl_instancetype.catalog import builtin
assert builtin.find("VirtualMachineClusterPreference", "windows.11")["metadata"]["name"] == "windows.11"
print(len(builtin._built))
"""


def test_find_in_a_cold_process_builds_one_object() -> None:
    """One lookup in a fresh process builds that object alone, not the whole catalog (what made start-up slow).

    Counted, not timed: speed is measured by bench/run.py, whose ratios do not depend on the machine's load.
    """
    env = {**os.environ, "PYTHONPATH": str(Path(builtin.__file__).parents[3])}
    result = subprocess.run([sys.executable, "-c", COLD_FIND], capture_output=True, text=True, env=env)
    assert (result.returncode, result.stdout, result.stderr) == (0, "1\n", "")
