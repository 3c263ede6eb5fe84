"""The API server's create path (kubectl_instancetype.schema.server), one rule per case, inline literals."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.schema.server import ACCEPTED, NOT_VALIDATED, REFUSED, Options, admit

IT = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineInstancetype",
      "metadata": {"name": "small"}, "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}


def vm(spec: dict[str, Any] | None = None, **meta: Any) -> dict[str, Any]:
    body = {"template": {"spec": {"domain": {"devices": {}}}}, **(spec or {})}
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm", **meta},
            "spec": body}


def it(spec: dict[str, Any], **meta: Any) -> dict[str, Any]:
    return {**IT, "metadata": {"name": "small", **meta}, "spec": spec}


def messages(data: Any, mode: str = "strict") -> list[str]:
    return [p.message for p in admit(data, Options(mode=mode)).problems]


@pytest.mark.parametrize(("data", "message"), [
    (it({"cpu": {"guest": 2}}), 'VirtualMachineInstancetype.instancetype.kubevirt.io "small" is invalid: '
                                "spec.memory: Required value"),
    (it({"cpu": {"guest": 2, "gust": 2}, "memory": {"guest": "1Gi"}}),
     'VirtualMachineInstancetype in version "v1beta1" cannot be handled as a VirtualMachineInstancetype: '
     'strict decoding error: unknown field "spec.cpu.gust"'),
    (vm({"preferance": {"name": "x"}}), 'VirtualMachine in version "v1" cannot be handled as a VirtualMachine: '
                                        'strict decoding error: unknown field "spec.preferance"'),
    (it({"cpu": {"guest": "two"}, "memory": {"guest": "1Gi"}}),
     'VirtualMachineInstancetype.instancetype.kubevirt.io "small" is invalid: spec.cpu.guest: Invalid value: '
     '"string": spec.cpu.guest in body must be of type integer: "string"'),
    (vm({"template": {"spec": {"domain": {"devices": {}, "rebootPolicy": "reboot"}}}}),
     'VirtualMachine.kubevirt.io "vm" is invalid: spec.template.spec.domain.rebootPolicy: Unsupported value: '
     '"reboot": supported values: "Reboot", "Terminate"'),
    (it({"cpu": {"guest": 1}, "memory": {"guest": "1.5 Gi"}}),
     'VirtualMachineInstancetype.instancetype.kubevirt.io "small" is invalid: spec.memory.guest: Invalid value: '
     '"1.5 Gi": spec.memory.guest in body should match \'^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|'
     "[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'"),
    (it({"cpu": {"guest": 1}, "memory": {"guest": "1Gi", "overcommitPercent": 150}}),
     'VirtualMachineInstancetype.instancetype.kubevirt.io "small" is invalid: spec.memory.overcommitPercent: '
     "Invalid value: 150: spec.memory.overcommitPercent in body should be less than or equal to 100"),
    (it(IT["spec"], namespace="My_Namespace"), 'VirtualMachineInstancetype.instancetype.kubevirt.io "small" is '
     'invalid: metadata.namespace: Invalid value: "My_Namespace": a lowercase RFC 1123 label must consist of lower '
     "case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
     "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
    ({**IT, "metadata": {"name": 12}}, 'VirtualMachineInstancetype in version "v1beta1" cannot be handled as a '
     "VirtualMachineInstancetype: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"),
    ({**IT, "metadata": {"name": None}}, 'VirtualMachineInstancetype.instancetype.kubevirt.io "" is invalid: '
     "metadata.name: Required value: name or generateName is required"),
    ({**IT, "apiVersion": "instancetype.kubevirt.io/v1"},
     'no matches for kind "VirtualMachineInstancetype" in version "instancetype.kubevirt.io/v1"'),
    ({**IT, "kind": "VirtualMachineInstanceType"},
     'no matches for kind "VirtualMachineInstanceType" in version "instancetype.kubevirt.io/v1beta1"'),
    ({"kind": "VirtualMachine"}, "Object 'apiVersion' is missing in '{\"kind\":\"VirtualMachine\"}'"),
])
def test_refusals_are_worded_as_the_server_words_them(data: Any, message: str) -> None:
    assert message in messages(data)


def test_every_error_of_an_object_is_reported() -> None:
    data = it({"cpu": {"guest": "x"}, "memory": {"guest": "lots"}})
    found = messages(data)
    assert len(found) == 2 and "spec.cpu.guest: Invalid value" in found[0] + found[1]


def test_removed_versions_name_the_converter_and_can_be_let_through() -> None:
    old = {**IT, "apiVersion": "instancetype.kubevirt.io/v1alpha2"}
    (message,) = messages(old)
    assert message.startswith('no matches for kind "VirtualMachineInstancetype" in version '
                              '"instancetype.kubevirt.io/v1alpha2" (')
    assert "kubectl instancetype convert" in message
    assert admit(old, Options(accept_removed=True)).verdict == NOT_VALIDATED


@pytest.mark.parametrize("mode", ["warn", "ignore"])
def test_unknown_fields_are_pruned_outside_strict(mode: str) -> None:
    data = it({"cpu": {"guest": 2, "gust": 2}, "memory": {"guest": "1Gi"}})
    answer = admit(data, Options(mode=mode))
    assert answer.verdict == ACCEPTED
    assert answer.obj["spec"]["cpu"] == {"guest": 2} and "gust" in data["spec"]["cpu"]
    assert [w.message for w in answer.warnings] == (['unknown field "spec.cpu.gust"'] if mode == "warn" else [])
    assert answer.pruned == (("spec.cpu.gust",) if mode == "warn" else ())


def test_a_value_of_the_wrong_shape_loses_its_keys_then_fails_its_type() -> None:
    data = it({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}, "nodeSelector": "x",
               "schedulerName": {"value": "y"}})
    answer = admit(data, Options(mode="warn"))
    assert answer.pruned == ("spec.schedulerName.value",)
    assert any("spec.schedulerName: Invalid value: \"object\"" in p.message for p in answer.problems)


def test_stored_object_has_server_fields_and_drops_non_nullable_nulls() -> None:
    data = vm({"runStrategy": None}, labels={"app": "x"})
    answer = admit(data)
    assert answer.verdict == ACCEPTED
    assert "runStrategy" not in answer.obj["spec"] and answer.obj is not data
    assert answer.stored["metadata"] == {"name": "vm", "namespace": "default", "labels": {"app": "x"},
                                         "generation": 1}


def test_defaults_fill_missing_fields_and_cel_rules_run() -> None:
    volume = {"name": "v", "containerPath": {"path": "relative/../x", "readOnly": False}}
    data = vm({"template": {"spec": {"domain": {"devices": {}}, "volumes": [volume]}}})
    found = messages(data)
    base = 'VirtualMachine.kubevirt.io "vm" is invalid: spec.template.spec.volumes[0].containerPath'
    assert f"{base}.path: Invalid value: \"string\": path must be absolute (start with '/')" in found
    assert f"{base}.path: Invalid value: \"string\": path must not contain '..'" in found
    assert f'{base}.readOnly: Invalid value: "boolean": readOnly must be true, write access is not supported' in found
    volume["containerPath"] = {"path": "/x"}
    stored = admit(data).stored
    assert stored["spec"]["template"]["spec"]["volumes"][0]["containerPath"] == {"path": "/x", "readOnly": True}


def test_list_map_keys_must_be_unique() -> None:
    claims = [{"name": "a"}, {"name": "a"}]
    data = vm({"template": {"spec": {"domain": {"devices": {}}, "resourceClaims": claims}}})
    assert any('spec.template.spec.resourceClaims[1]: Duplicate value: {"name":"a"}' in m for m in messages(data))


def test_kubevirt_refuses_unknown_fields_the_crd_preserves() -> None:
    extra = vm({"template": {"metadata": {"foo": "bar"}, "spec": {"domain": {"devices": {}}}}})
    answer = admit(extra)
    assert (answer.verdict, answer.stage) == (REFUSED, "admission")
    assert answer.problems[0].message == ('admission webhook "virtualmachines-mutator.kubevirt.io" denied the '
                                          "request: spec.template.metadata.foo in body is a forbidden property")
    assert answer.problems[0].path == ("spec", "template", "metadata", "foo")
    labelled = vm({"template": {"metadata": {"labels": {"foo": "bar"}}, "spec": {"domain": {"devices": {}}}}})
    assert admit(labelled).verdict == ACCEPTED


def test_kubevirt_refuses_nulls_the_crd_preserves_without_list_indices() -> None:
    dvt = [{"metadata": {"name": None}, "spec": {"pvc": {}}}]
    (problem,) = admit(vm({"dataVolumeTemplates": dvt})).problems
    assert problem.message.endswith('spec.dataVolumeTemplates.metadata.name in body must be of type string: "null"')
    assert problem.path == ("spec", "dataVolumeTemplates", 0, "metadata", "name")


def test_deprecated_core_version_is_served_with_a_warning() -> None:
    answer = admit({**vm(), "apiVersion": "kubevirt.io/v1alpha3"})
    assert answer.verdict == ACCEPTED
    assert [w.message for w in answer.warnings] == [
        "kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release."]


def test_cluster_scoped_kinds_lose_their_namespace_and_other_groups_pass_through() -> None:
    cluster = {**IT, "kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "c", "namespace": "x"}}
    assert "namespace" not in admit(cluster).stored["metadata"]
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "p"}, "spec": {"x": 1}}
    answer = admit(pvc)
    assert (answer.verdict, answer.obj) == (NOT_VALIDATED, pvc)


def test_finalizer_names_earn_the_servers_warnings() -> None:
    answer = admit(it(IT["spec"], finalizers=["cleanup"]))
    assert [w.message for w in answer.warnings] == [
        'metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts '
        "with other finalizer writers"]
