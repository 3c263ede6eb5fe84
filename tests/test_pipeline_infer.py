"""inferFromVolume: spec §12.7, test vectors TV-88 … TV-91."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.matchers import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER, MatcherKind
from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.pipeline.infer import infer_matcher

Spec = dict[str, Any]
NS = "default"
VOLUME = "inferVolumeName"
PREFIX = "instancetype.kubevirt.io/default-"


def labels(source: str) -> Spec:
    """All four inference labels, naming the object they sit on."""
    return {f"{PREFIX}{field}{suffix}": f"defaultInfered{part}From{source}"
            for field in ("instancetype", "preference") for suffix, part in (("", "Name"), ("-kind", "Kind"))}


def obj(kind: str, name: str, spec: Spec | None = None, with_labels: str | None = None) -> Spec:
    meta: Spec = {"name": name, "namespace": NS}
    if with_labels:
        meta["labels"] = labels(with_labels)
    return {"kind": kind, "metadata": meta, **({"spec": spec} if spec is not None else {})}


PVC_SOURCE = {"source": {"pvc": {"name": "pvcName", "namespace": NS}}}
SNAPSHOT_SOURCE = {"source": {"snapshot": {"name": "snapshotName", "namespace": NS}}}


def sourceref(name: str, kind: str = "DataSource", namespace: str | None = NS) -> Spec:
    ref: Spec = {"kind": kind, "name": name}
    if namespace is not None:
        ref["namespace"] = namespace
    return {"sourceRef": ref}


def catalog() -> Catalog:
    found = Catalog(default_namespace=NS)
    for item in (
        obj("PersistentVolumeClaim", "pvcName", with_labels="PVC"),
        obj("PersistentVolumeClaim", "pvcWithoutLabels"),
        obj("VolumeSnapshot", "snapshotName", with_labels="VolumeSnapshot"),
        obj("DataVolume", "dvWithSourcePVC", PVC_SOURCE),
        obj("DataVolume", "dvWithSourceSnapshot", SNAPSHOT_SOURCE),
        obj("DataVolume", "dvWithLabels", {"source": {"blank": {}}}, with_labels="DV"),
        obj("DataVolume", "dvWithVDDK", {"source": {"vddk": {"url": "https://vcenter"}}}),
        obj("DataVolume", "dvWithSourceRefFoo", sourceref("dsWithLabels", "foo")),
        obj("DataVolume", "dvToDsSnapshot", sourceref("dsWithSnapshot")),
        obj("DataVolume", "dvToDsPVC", sourceref("dsWithPVC")),
        obj("DataVolume", "dvToDsLabels", sourceref("dsWithLabels")),
        obj("DataVolume", "dvToDsLabelsNoNamespace", sourceref("dsWithLabels", namespace=None)),
        obj("DataSource", "dsWithSnapshot", SNAPSHOT_SOURCE),
        obj("DataSource", "dsWithPVC", PVC_SOURCE),
        obj("DataSource", "dsWithLabels", PVC_SOURCE, with_labels="DataSource"),
        obj("DataSource", "dsEmpty", {"source": {}}),
    ):
        found.add(item)
    return found


def vm(matcher: str, volume: Spec, policy: str | None = None, templates: list[Spec] | None = None,
       domain: Spec | None = None) -> Spec:
    m: Spec = {"inferFromVolume": VOLUME}
    if policy:
        m["inferFromVolumeFailurePolicy"] = policy
    spec: Spec = {matcher: m, "template": {"spec": {"domain": domain or {}, "volumes": [{"name": VOLUME, **volume}]}}}
    if templates:
        spec["dataVolumeTemplates"] = templates
    return {"metadata": {"name": "vm", "namespace": NS}, "spec": spec}


def pvc(name: str) -> Spec:
    return {"persistentVolumeClaim": {"claimName": name}}


def dv(name: str) -> Spec:
    return {"dataVolume": {"name": name}}


def template(spec: Spec) -> list[Spec]:
    return [{"metadata": {"name": "dvt", "labels": labels("Template")}, "spec": spec}]


MATCHERS = [pytest.param(INSTANCETYPE_MATCHER, id="instancetype"), pytest.param(PREFERENCE_MATCHER, id="preference")]


@pytest.mark.parametrize("matcher", MATCHERS)
@pytest.mark.parametrize(
    ("volume", "templates", "source"),
    [
        (pvc("pvcName"), None, "PVC"),  # TV-88
        (dv("dvWithSourcePVC"), None, "PVC"),  # TV-89 …
        (dv("dvWithSourceSnapshot"), None, "VolumeSnapshot"),
        (dv("dvt"), template(PVC_SOURCE), "PVC"),  # the template's own labels are not read
        (dv("dvt"), template(SNAPSHOT_SOURCE), "VolumeSnapshot"),
        (dv("dvToDsSnapshot"), None, "VolumeSnapshot"),
        (dv("dvWithLabels"), None, "DV"),
        (dv("dvToDsPVC"), None, "PVC"),
        (dv("dvToDsLabels"), None, "DataSource"),
        (dv("dvToDsLabelsNoNamespace"), None, "DataSource"),
        (dv("dvt"), template(sourceref("dsWithPVC")), "PVC"),
        (dv("dvt"), template(sourceref("dsWithLabels", namespace=None)), "DataSource"),
        (dv("pvcName"), None, "PVC"),  # no DataVolume of that name: its PVC
    ],
)
def test_tv88_tv89_inferred_from_labels(matcher: MatcherKind, volume: Spec, templates: list[Spec] | None,
                                        source: str) -> None:
    machine = vm(matcher.field, volume, templates=templates)
    infer_matcher(matcher, machine, NS, catalog())
    assert machine["spec"][matcher.field] == {
        "name": f"defaultInferedNameFrom{source}", "kind": f"defaultInferedKindFrom{source}",
    }


FAILURES = [
    ({}, None, f"unable to find volume {VOLUME} to infer defaults", False),
    (pvc("unknownPVCName"), None, 'persistentvolumeclaims "unknownPVCName" not found', False),
    (dv("unknownDVName"), None, 'persistentvolumeclaims "unknownDVName" not found', False),
    ({"secret": {"secretName": "s"}}, None,
     f"unable to infer defaults from volume {VOLUME} as type is not supported", True),
    (dv("dvWithVDDK"), None, "unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported", True),
    (dv("dvWithSourceRefFoo"), None,
     "unable to infer defaults from DataVolumeSourceRef as Kind foo is not supported", True),
    (dv("dvt"), template(sourceref("dsEmpty")),
     "unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC or DataVolumeSourceSnapshot",
     True),
    (pvc("pvcWithoutLabels"), None, "unable to find required {label} label on the volume", True),
]


@pytest.mark.parametrize("matcher", MATCHERS)
@pytest.mark.parametrize("policy", [None, "Reject", "Ignore"])
@pytest.mark.parametrize(("volume", "templates", "message", "ignorable"), FAILURES)
def test_tv90_failures(matcher: MatcherKind, policy: str | None, volume: Spec, templates: list[Spec] | None,
                       message: str, ignorable: bool) -> None:
    machine = vm(matcher.field, volume, policy, templates)
    if not volume:
        machine["spec"]["template"]["spec"]["volumes"] = [{"name": "other", **pvc("pvcName")}]
    if ignorable and policy == "Ignore":
        infer_matcher(matcher, machine, NS, catalog())
        assert machine["spec"][matcher.field] is None
        return
    with pytest.raises(KubeVirtError) as caught:
        infer_matcher(matcher, machine, NS, catalog())
    assert caught.value.message == message.format(label=f"{PREFIX}{matcher.field}")


@pytest.mark.parametrize(
    ("matcher", "policy", "memory"),
    [
        (INSTANCETYPE_MATCHER, "Ignore", None),
        (INSTANCETYPE_MATCHER, "Reject", {"guest": "512Mi"}),
        (INSTANCETYPE_MATCHER, None, {"guest": "512Mi"}),
        (PREFERENCE_MATCHER, "Ignore", {"guest": "512Mi"}),  # only the instance type clears memory
    ],
)
def test_tv91_successful_ignore_policy_clears_fallback_memory(matcher: MatcherKind, policy: str | None,
                                                              memory: Spec | None) -> None:
    machine = vm(matcher.field, pvc("pvcName"), policy, domain={"memory": {"guest": "512Mi"}, "cpu": {"cores": 2}})
    infer_matcher(matcher, machine, NS, catalog())
    domain = machine["spec"]["template"]["spec"]["domain"]
    assert domain.get("memory") == memory
    assert domain["cpu"] == {"cores": 2}
    assert machine["spec"][matcher.field] == {"name": "defaultInferedNameFromPVC", "kind": "defaultInferedKindFromPVC"}


@pytest.mark.parametrize(
    "matcher_value",
    [None, {"name": "u1.small"}, {"name": "u1.small", "inferFromVolume": ""}],
)
def test_matcher_without_infer_from_volume_is_unchanged(matcher_value: Spec | None) -> None:
    machine: Spec = {"spec": {"instancetype": matcher_value, "template": {"spec": {}}}}
    infer_matcher(INSTANCETYPE_MATCHER, machine, NS, catalog())
    assert machine == {"spec": {"instancetype": matcher_value, "template": {"spec": {}}}}


def test_missing_kind_label_yields_the_cluster_kind() -> None:
    lookup = Catalog(default_namespace=NS)
    lookup.add({"kind": "PersistentVolumeClaim", "metadata": {
        "name": "p", "namespace": NS, "labels": {f"{PREFIX}instancetype": "u1.small"}}})
    machine = vm("instancetype", pvc("p"))
    infer_matcher(INSTANCETYPE_MATCHER, machine, NS, lookup)
    assert machine["spec"]["instancetype"] == {"name": "u1.small"}
