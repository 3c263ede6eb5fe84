"""Finding the spec a matcher selects (find.py, kinds.py): spec §2.1, §3, §4.2; test vectors TV-92 … TV-96."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.matchers import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER, MatcherKind
from kubectl_instancetype.catalog.find import Found, decode_revision, find_spec
from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.errors import KubeVirtError

Spec = dict[str, Any]
NS = "default"
V1BETA1 = "instancetype.kubevirt.io/v1beta1"
IT_SPEC: Spec = {"cpu": {"guest": 2}, "memory": {"guest": "128Mi"}}
PREF_SPEC: Spec = {"cpu": {"preferredCPUTopology": "cores"}}


def named(kind: str, name: str, spec: Spec, namespace: str | None = None) -> Spec:
    meta: Spec = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": V1BETA1, "kind": kind, "metadata": meta, "spec": spec}


def revision(name: str, data: Spec, object_name: str | None = None) -> Spec:
    labels = {"instancetype.kubevirt.io/object-name": object_name} if object_name else {}
    return {"apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": {"name": name, "namespace": NS, "labels": labels}, "data": data}


class RecordingCatalog(Catalog):
    """A catalog that remembers every lookup, to tell which objects were fetched."""

    def __init__(self, *objects: Spec) -> None:
        super().__init__(default_namespace=NS)
        self.asked: list[tuple[str, str, str]] = []
        for item in objects:
            self.add(item)

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
        self.asked.append((kind, namespace, name))
        return super().get(kind, namespace, name)


def live_catalog() -> RecordingCatalog:
    return RecordingCatalog(
        named("VirtualMachineClusterInstancetype", "it", IT_SPEC),
        named("VirtualMachineInstancetype", "it", {**IT_SPEC, "cpu": {"guest": 4}}, NS),
        named("VirtualMachineClusterPreference", "pref", PREF_SPEC),
        named("VirtualMachinePreference", "pref", {"cpu": {"preferredCPUTopology": "threads"}}, NS),
    )


def vm(field: str, matcher: Spec, status: Spec | None = None) -> Spec:
    return {"metadata": {"name": "vm", "namespace": NS}, "spec": {field: matcher}, "status": status or {}}


IT_KINDS = ["", "virtualmachineclusterinstancetype", "virtualmachineclusterinstancetypes",
            "VirtualMachineClusterInstancetype", "VIRTUALMACHINECLUSTERINSTANCETYPES"]
IT_NS_KINDS = ["virtualmachineinstancetype", "virtualmachineinstancetypes", "VirtualMachineInstancetype",
               "virtualMachineInstancetype", "VIRTUALMACHINEINSTANCETYPES"]
PREF_KINDS = ["", "virtualmachineclusterpreference", "VirtualMachineClusterPreferences"]
PREF_NS_KINDS = ["virtualmachinepreference", "virtualmachinepreferences", "VirtualMachinePreference"]


@pytest.mark.parametrize(
    ("matcher", "kind", "expected"),
    [(INSTANCETYPE_MATCHER, k, "VirtualMachineClusterInstancetype") for k in IT_KINDS]
    + [(INSTANCETYPE_MATCHER, k, "VirtualMachineInstancetype") for k in IT_NS_KINDS]
    + [(PREFERENCE_MATCHER, k, "VirtualMachineClusterPreference") for k in PREF_KINDS]
    + [(PREFERENCE_MATCHER, k, "VirtualMachinePreference") for k in PREF_NS_KINDS]
    + [(INSTANCETYPE_MATCHER, k, None) for k in ("bar", "vmf", "instancetype", "virtualmachinepreference")]
    + [(PREFERENCE_MATCHER, k, None) for k in ("bar", "vmp", "virtualmachineinstancetype")],
)
def test_kind_resolution(matcher: MatcherKind, kind: str, expected: str | None) -> None:
    assert matcher.resolve(kind) == expected


@pytest.mark.parametrize(
    ("matcher", "kind", "found_kind", "spec"),
    [(INSTANCETYPE_MATCHER, "", "VirtualMachineClusterInstancetype", IT_SPEC),
     (INSTANCETYPE_MATCHER, "VirtualMachineInstancetype", "VirtualMachineInstancetype",
      {**IT_SPEC, "cpu": {"guest": 4}}),
     (PREFERENCE_MATCHER, "", "VirtualMachineClusterPreference", PREF_SPEC),
     (PREFERENCE_MATCHER, "virtualmachinepreferences", "VirtualMachinePreference",
      {"cpu": {"preferredCPUTopology": "threads"}})],
)
def test_live_object_of_the_resolved_kind(matcher: MatcherKind, kind: str, found_kind: str, spec: Spec) -> None:
    name = "it" if matcher is INSTANCETYPE_MATCHER else "pref"
    found = find_spec(matcher, vm(matcher.field, {"name": name, "kind": kind}), NS, live_catalog())
    assert found == Found(spec, found_kind, name)


def test_no_matcher_finds_nothing() -> None:
    assert find_spec(INSTANCETYPE_MATCHER, {"spec": {}}, NS, live_catalog()) is None


@pytest.mark.parametrize(
    ("matcher", "message"),
    [(INSTANCETYPE_MATCHER, "got unexpected kind in InstancetypeMatcher: bar"),
     (PREFERENCE_MATCHER, "got unexpected kind in PreferenceMatcher: bar")],
)
def test_tv92_unexpected_kind(matcher: MatcherKind, message: str) -> None:
    with pytest.raises(KubeVirtError) as caught:
        find_spec(matcher, vm(matcher.field, {"name": "x", "kind": "bar"}), NS, live_catalog())
    assert caught.value.message == message


STORED_IT = named("VirtualMachineClusterInstancetype", "it", {"cpu": {"guest": 8}, "memory": {"guest": "1Gi"}})
STATUS_REF = {"instancetypeRef": {"name": "it", "controllerRevisionRef": {"name": "foobar"}}}


def test_tv93_revision_name_wins_and_live_object_is_not_fetched() -> None:
    lookup = live_catalog()
    lookup.add(revision("cr", STORED_IT))
    lookup.add(revision("foobar", named("VirtualMachineClusterInstancetype", "it", {"cpu": {"guest": 99}})))
    found = find_spec(INSTANCETYPE_MATCHER, vm("instancetype", {"name": "it", "revisionName": "cr"}, STATUS_REF),
                      NS, lookup)
    assert found == Found(STORED_IT["spec"], "VirtualMachineClusterInstancetype", "it")
    assert lookup.asked == [("ControllerRevision", NS, "cr")]


@pytest.mark.parametrize(
    ("object_name", "expected_guest"),
    [("stored", 2), (None, 2), ("it", 99)],  # TV-94: only a revision of the matcher's own object is used
)
def test_tv94_status_revision_of_another_object_is_ignored(object_name: str | None, expected_guest: int) -> None:
    lookup = live_catalog()
    stored = named("VirtualMachineClusterInstancetype", object_name or "stored",
                   {"cpu": {"guest": 99}, "memory": {"guest": "128Mi"}})
    lookup.add(revision("foobar", stored, object_name))
    found = find_spec(INSTANCETYPE_MATCHER, vm("instancetype", {"name": "it"}, STATUS_REF), NS, lookup)
    assert found is not None and found.spec["cpu"] == {"guest": expected_guest}


@pytest.mark.parametrize(
    ("matcher", "matcher_value", "message"),
    [
        (INSTANCETYPE_MATCHER, {"name": "x"},
         'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "x" not found'),
        (INSTANCETYPE_MATCHER, {"name": "x", "kind": "VirtualMachineInstancetype"},
         'virtualmachineinstancetypes.instancetype.kubevirt.io "x" not found'),
        (PREFERENCE_MATCHER, {"name": "x"}, 'virtualmachineclusterpreferences.instancetype.kubevirt.io "x" not found'),
        (PREFERENCE_MATCHER, {"name": "x", "kind": "virtualmachinepreference"},
         'virtualmachinepreferences.instancetype.kubevirt.io "x" not found'),
        (INSTANCETYPE_MATCHER, {"name": "it", "revisionName": "gone"}, 'controllerrevisions.apps "gone" not found'),
    ],
)
def test_tv95_missing_object_is_kubernetes_not_found(matcher: MatcherKind, matcher_value: Spec, message: str) -> None:
    with pytest.raises(KubeVirtError) as caught:
        find_spec(matcher, vm(matcher.field, matcher_value), NS, live_catalog())
    assert caught.value.message == message


def test_tv96_v1beta1_revision_decodes_without_defaulted_fields() -> None:
    stored = named("VirtualMachineInstancetype", "it", {"cpu": {"guest": 4}, "memory": {"guest": "128Mi"}}, NS)
    assert decode_revision(revision("cr", stored)) == stored
    lookup = live_catalog()
    lookup.add(revision("cr", stored))
    found = find_spec(INSTANCETYPE_MATCHER, vm("instancetype", {"name": "it", "revisionName": "cr"}), NS, lookup)
    assert found == Found({"cpu": {"guest": 4}, "memory": {"guest": "128Mi"}}, "VirtualMachineInstancetype", "it")


@pytest.mark.parametrize(
    ("matcher", "data", "message"),
    [
        (INSTANCETYPE_MATCHER, {"apiVersion": "snapshot.kubevirt.io/v1beta1", "kind": "VirtualMachineSnapshot",
                                "metadata": {"name": "snap"}, "spec": {}},
         "unexpected type in ControllerRevision: *v1beta1.VirtualMachineSnapshot"),
        (INSTANCETYPE_MATCHER, named("VirtualMachinePreference", "p", PREF_SPEC, NS),
         "unexpected type in ControllerRevision: *v1beta1.VirtualMachinePreference"),
        (PREFERENCE_MATCHER, named("VirtualMachineClusterInstancetype", "it", IT_SPEC),
         "unexpected type in ControllerRevision: *v1beta1.VirtualMachineClusterInstancetype"),
    ],
)
def test_tv96_revision_of_an_unexpected_type(matcher: MatcherKind, data: Spec, message: str) -> None:
    lookup = live_catalog()
    lookup.add(revision("cr", data))
    with pytest.raises(KubeVirtError) as caught:
        find_spec(matcher, vm(matcher.field, {"name": "x", "revisionName": "cr"}), NS, lookup)
    assert caught.value.message == message
