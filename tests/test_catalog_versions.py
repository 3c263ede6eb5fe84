"""The version policy (api/versions.py, catalog/versions.py) and the v1alpha -> v1beta1 conversions
(catalog/conversion.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_instancetype.api.versions import removed_version_problem
from kubectl_instancetype.catalog.conversion import converted, revision_object, served_object, upgraded_revision
from kubectl_instancetype.catalog.versions import check_version
from kubectl_instancetype.errors import RefusedError
from kubectl_instancetype.yamlio import load_stream

IT, CIT, PREF, CPREF = ("VirtualMachineInstancetype", "VirtualMachineClusterInstancetype",
                        "VirtualMachinePreference", "VirtualMachineClusterPreference")
HINT = ("was removed in KubeVirt v1.7: `kubectl instancetype convert -f PATH --write` rewrites it as "
        "instancetype.kubevirt.io/v1beta1; --accept-removed-versions renders it as older clusters did")


def obj(kind: str, spec: dict[str, Any], version: str = "v1alpha1") -> dict[str, Any]:
    return {"apiVersion": f"instancetype.kubevirt.io/{version}", "kind": kind, "metadata": {"name": "x"}, "spec": spec}


# Every field that changes between v1alpha1/v1alpha2 and v1beta1 in KubeVirt's generated conversion (spec §1.6),
# and the fields it copies although one might expect otherwise.
REVISION_TABLE = [
    # instancetype CPU: plain values became pointers, always set (both scopes, both old versions)
    (IT, "v1alpha1", {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}},
     {"cpu": {"guest": 2, "model": "", "dedicatedCPUPlacement": False, "isolateEmulatorThread": False},
      "memory": {"guest": "1Gi"}}),
    (CIT, "v1alpha2", {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}},
     {"cpu": {"guest": 2, "model": "", "dedicatedCPUPlacement": False, "isolateEmulatorThread": False},
      "memory": {"guest": "1Gi"}}),
    (IT, "v1alpha2", {"cpu": {"guest": 2, "model": "host-passthrough", "dedicatedCPUPlacement": True,
                              "isolateEmulatorThread": True}},
     {"cpu": {"guest": 2, "model": "host-passthrough", "dedicatedCPUPlacement": True,
              "isolateEmulatorThread": True}}),
    (IT, "v1alpha1", {"memory": {"guest": "1Gi"}},  # cpu was a required struct: it always comes out
     {"cpu": {"model": "", "dedicatedCPUPlacement": False, "isolateEmulatorThread": False},
      "memory": {"guest": "1Gi"}}),
    # preference CPU topology: "" became an unset pointer, any other spelling is copied verbatim
    (PREF, "v1alpha1", {"cpu": {"preferredCPUTopology": ""}, "machine": {"preferredMachineType": "q35"}},
     {"cpu": {}, "machine": {"preferredMachineType": "q35"}}),
    (CPREF, "v1alpha2", {"cpu": {"preferredCPUTopology": "preferCores"}},
     {"cpu": {"preferredCPUTopology": "preferCores"}}),
    (PREF, "v1alpha2", {"cpu": {"preferredCPUTopology": "preferSockets"}},
     {"cpu": {"preferredCPUTopology": "preferSockets"}}),
    # EFI: the old fields map onto the v1beta1 (deprecated) fields of the same JSON name
    (PREF, "v1alpha1", {"firmware": {"preferredUseEfi": True, "preferredUseSecureBoot": False}},
     {"firmware": {"preferredUseEfi": True, "preferredUseSecureBoot": False}}),
    # fields unknown to v1alpha stay absent; others are copied
    (PREF, "v1alpha2", {"devices": {"preferredDiskBus": "virtio"}}, {"devices": {"preferredDiskBus": "virtio"}}),
]


@pytest.mark.parametrize(("kind", "version", "spec", "expected"), REVISION_TABLE)
def test_revision_conversion(kind: str, version: str, spec: dict[str, Any], expected: dict[str, Any]) -> None:
    old = obj(kind, spec, version)
    before = copy.deepcopy(old)
    assert revision_object(old) == {**old, "apiVersion": "instancetype.kubevirt.io/v1beta1", "spec": expected}
    assert old == before, "the input is left untouched"


@pytest.mark.parametrize(("kind", "version", "spec", "_expected"), REVISION_TABLE)
def test_served_objects_keep_every_field(kind: str, version: str, spec: dict[str, Any], _expected: Any) -> None:
    """The API server (conversion strategy None) only rewrote apiVersion."""
    old = obj(kind, spec, version)
    assert served_object(old) == {**old, "apiVersion": "instancetype.kubevirt.io/v1beta1"}


def revision(data: Any, labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "vm-x-v1alpha2-uid-1"}
    if labels is not None:
        meta["labels"] = labels
    return {"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": meta, "data": data, "revision": 0}


def test_upgraded_revision() -> None:
    label = "instancetype.kubevirt.io/object-version"
    old = revision(obj(IT, {"cpu": {"guest": 1}}, "v1alpha2"), {label: "v1alpha2", "other": "kept"})
    new = upgraded_revision(old)
    assert new["metadata"] == {"name": "vm-x-v1alpha2-uid-1", "labels": {label: "v1beta1", "other": "kept"}}
    assert new["data"] == revision_object(old["data"])
    assert old["metadata"]["labels"][label] == "v1alpha2"
    assert upgraded_revision(revision(obj(PREF, {}, "v1alpha1")))["metadata"] == {"name": "vm-x-v1alpha2-uid-1"}


@pytest.mark.parametrize(("data", "expected"), [
    (obj(CPREF, {"cpu": {"preferredCPUTopology": ""}}), obj(CPREF, {"cpu": {"preferredCPUTopology": ""}}, "v1beta1")),
    (revision(obj(IT, {"cpu": {"guest": 1}})),
     revision(obj(IT, {"cpu": {"guest": 1, "model": "", "dedicatedCPUPlacement": False,
                               "isolateEmulatorThread": False}}, "v1beta1"))),
    ({"apiVersion": "v1", "kind": "List", "items": [obj(IT, {}), {"kind": "ConfigMap"}]},
     {"apiVersion": "v1", "kind": "List", "items": [served_object(obj(IT, {})), {"kind": "ConfigMap"}]}),
])
def test_converted_documents(data: Any, expected: Any) -> None:
    assert converted(data) == expected


@pytest.mark.parametrize("data", [
    obj(IT, {}, "v1beta1"), obj(IT, {}, "v1"), {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine"},
    revision(obj(IT, {}, "v1beta1")), revision("raw text"), {"kind": "List", "items": [obj(IT, {}, "v1beta1")]},
    "a scalar document", None,
])
def test_nothing_else_is_converted(data: Any) -> None:
    assert converted(data) is data


def test_removed_version_problem() -> None:
    assert removed_version_problem(obj(CIT, {})) == (
        'no matches for kind "VirtualMachineClusterInstancetype" in version "instancetype.kubevirt.io/v1alpha1" '
        f"(instancetype.kubevirt.io/v1alpha1 {HINT})")
    assert removed_version_problem(obj(PREF, {}, "v1alpha2"), accept_removed=False) == (
        'no matches for kind "VirtualMachinePreference" in version "instancetype.kubevirt.io/v1alpha2" '
        f"(instancetype.kubevirt.io/v1alpha2 {HINT})")
    assert removed_version_problem(obj(PREF, {}, "v1alpha2"), accept_removed=True) is None
    for other in (obj(PREF, {}, "v1beta1"), obj(PREF, {}, "v1"), revision(obj(IT, {})), None):
        assert removed_version_problem(other) is None


def test_check_version() -> None:
    text = ("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\nmetadata: {name: a}\n---\n"
            "apiVersion: instancetype.kubevirt.io/v1alpha2\nkind: VirtualMachinePreference\nmetadata: {name: b}\n---\n"
            "apiVersion: instancetype.kubevirt.io/v1\nkind: VirtualMachinePreference\nmetadata: {name: c}\n")
    current, old, unknown = load_stream(text, "p.yaml")
    assert check_version(current, False) is None and check_version(current, True) is None
    assert check_version(old, True) == ("p.yaml:5:1: instancetype.kubevirt.io/v1alpha2 VirtualMachinePreferences is "
                                        "now deprecated and will be removed in v1.")
    with pytest.raises(RefusedError) as info:
        check_version(old, False)
    assert info.value.render() == (
        'p.yaml:5:1: error: no matches for kind "VirtualMachinePreference" in version '
        f'"instancetype.kubevirt.io/v1alpha2" (instancetype.kubevirt.io/v1alpha2 {HINT})')
    for accept in (False, True):
        with pytest.raises(RefusedError) as info:
            check_version(unknown, accept)
        assert info.value.render() == (
            'p.yaml:9:1: error: no matches for kind "VirtualMachinePreference" in version '
            '"instancetype.kubevirt.io/v1" '
            "(instancetype.kubevirt.io objects are served as instancetype.kubevirt.io/v1beta1)")
    (missing,) = load_stream("kind: VirtualMachinePreference\nmetadata: {name: d}\n", "q.yaml")
    with pytest.raises(RefusedError) as info:
        check_version(missing, True)
    assert info.value.render() == ("q.yaml:1:1: error: VirtualMachinePreference has no apiVersion "
                                   "(instancetype.kubevirt.io objects are served as instancetype.kubevirt.io/v1beta1)")
