"""KubeVirt's own schema check (go-openapi over KubeVirt's definitions) on what the API server stored.

Each case is a difference from KubeVirt's code that differential testing found (generated VMs sent through
our API server model, then what it stored through kv-expand ``--mutate full --admit full``); the messages are
the oracle's, verbatim. Only metadata the CRD preserves unchecked (``spec.template.metadata``,
``spec.dataVolumeTemplates[].metadata``) reaches this check with such values on a real cluster.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.schema import webhook
from kubectl_instancetype.schema.server import ACCEPTED, REFUSED, admit


def vm(template_meta: dict[str, Any]) -> dict[str, Any]:
    spec = {"runStrategy": "Halted", "template": {"metadata": template_meta, "spec": {"domain": {"devices": {}}}}}
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}, "spec": spec}


def refusal(template_meta: dict[str, Any]) -> str:
    answer = admit(vm(template_meta))
    assert (answer.verdict, answer.stage) == (REFUSED, "admission") and answer.denial is not None
    return answer.denial.message


@pytest.mark.parametrize(("meta", "message"), [
    # encoding/json gives go-openapi every number as a float64: its kind is "number", even for 5
    ({"name": 5}, 'spec.template.metadata.name in body must be of type string: "number"'),
    ({"finalizers": 7}, 'spec.template.metadata.finalizers in body must be of type array: "number"'),
    ({"managedFields": [{"manager": 1}]},
     'spec.template.metadata.managedFields.manager in body must be of type string: "number"'),
    # a declared format is compared before the type, for values that are neither strings nor arrays
    ({"generation": True}, 'spec.template.metadata.generation in body must be of type int64: ""'),
    ({"generation": 1.5}, 'spec.template.metadata.generation in body must be of type int64: "float64"'),
    ({"deletionGracePeriodSeconds": {"a": 1}},
     'spec.template.metadata.deletionGracePeriodSeconds in body must be of type int64: ""'),
    # strfmt's date-time
    ({"deletionTimestamp": "yesterday"},
     'spec.template.metadata.deletionTimestamp in body must be of type date-time: "yesterday"'),
    ({"managedFields": [{"time": "2020-13-01T00:00:00Z"}]},
     'spec.template.metadata.managedFields.time in body must be of type date-time: "2020-13-01T00:00:00Z"'),
    # past the schema, the mutating webhook's decode into Go types (metav1.Time parses RFC 3339 exactly)
    ({"creationTimestamp": "yesterday"},
     'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'),
    ({"deletionTimestamp": "2020-01-01t10:00:00z"},
     'parsing time "2020-01-01t10:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "t10:00:00z" as "T"'),
])
def test_kubevirt_refuses_metadata_the_crd_keeps(meta: dict[str, Any], message: str) -> None:
    assert refusal(meta) == message


def test_two_causes_are_joined_in_one_message() -> None:
    assert refusal({"generation": True, "name": 5}) == (
        'spec.template.metadata.generation in body must be of type int64: "", '
        'spec.template.metadata.name in body must be of type string: "number"')


def test_whole_numbers_pass_as_integers_and_valid_times_pass() -> None:
    meta = {"generation": 3, "deletionGracePeriodSeconds": 30.0, "creationTimestamp": "2024-02-29T10:00:00Z",
            "managedFields": [{"manager": "kubectl", "time": "2024-02-29T10:00:00+02:00"}]}
    assert admit(vm(meta)).verdict == ACCEPTED


def test_required_properties_with_a_default_are_not_reported() -> None:
    # OwnerReference requires apiVersion, kind, name and uid, but each has a default in KubeVirt's OpenAPI
    # document: go-openapi's object validator skips a missing required property that has one
    assert admit(vm({"ownerReferences": [{}]})).verdict == ACCEPTED
    # a $ref's default is dropped when go-openapi expands it: WeightedPodAffinityTerm.podAffinityTerm stays
    spec = {"template": {"spec": {"domain": {"devices": {}}, "affinity": {"podAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1}]}}}}}
    assert [text for _, text in webhook.spec_problems({"spec": spec})] == [
        "spec.template.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution.podAffinityTerm"
        " in body is required"]


@pytest.mark.parametrize(("text", "valid"), [
    ("2020-01-01T10:00:00Z", True), ("2020-01-01t10:00:00.5+01:00", True), ("2020-02-30T10:00:00Z", False),
    ("2020-01-01T24:00:00Z", False), ("2020-01-01 10:00:00Z", False), ("2020-01-01T10:00:00", False),
])
def test_date_time_is_strfmts(text: str, valid: bool) -> None:
    assert webhook.is_date_time(text) is valid


def template_spec(domain: dict[str, Any], **more: Any) -> dict[str, Any]:
    spec = {"runStrategy": "Halted", "template": {"spec": {"domain": {"devices": {}, **domain}, **more}}}
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}, "spec": spec}


@pytest.mark.parametrize(("domain", "more", "message"), [
    ({"cpu": {"cores": 99999999999}}, {},
     "json: cannot unmarshal number 99999999999 into Go struct field VMISpecAlias.domain.cpu.cores of type uint32"),
    ({"cpu": {"sockets": -1}}, {},
     "json: cannot unmarshal number -1 into Go struct field VMISpecAlias.domain.cpu.sockets of type uint32"),
    ({"devices": {"disks": [{"name": "a"}, {"name": "b", "bootOrder": -1}]}}, {},
     "json: cannot unmarshal number -1 into Go struct field VMISpecAlias.domain.devices.disks.1.bootOrder"
     " of type uint"),
    ({}, {"readinessProbe": {"periodSeconds": 4294967296}},
     "json: cannot unmarshal number 4294967296 into Go struct field VMISpecAlias.readinessProbe.periodSeconds of type"
     " int32"),
    # the first in the order of the request's (sorted) keys: cpu before devices
    ({"cpu": {"threads": 2**32}, "devices": {"disks": [{"name": "a", "bootOrder": -1}]}}, {},
     "json: cannot unmarshal number 4294967296 into Go struct field VMISpecAlias.domain.cpu.threads of type uint32"),
])
def test_kubevirt_refuses_integers_beyond_their_go_type(domain: dict[str, Any], more: dict[str, Any],
                                                        message: str) -> None:
    answer = admit(template_spec(domain, **more))
    assert (answer.verdict, answer.stage) == (REFUSED, "admission") and answer.denial is not None
    assert answer.denial.message == message


def test_integers_within_their_go_type_and_go_ints_pass() -> None:
    # bootOrder is a uint (no upper bound below int64); offsetSeconds and acpiIndex are Go ints (int64)
    domain = {"cpu": {"cores": 2**32 - 1}, "clock": {"utc": {"offsetSeconds": 99999999999}},
              "devices": {"disks": [{"name": "a", "bootOrder": 99999999999}]}}
    assert webhook.spec_problems(template_spec(domain)) == []
