"""KubeVirt's mutating webhooks in the API server's create path (kubectl_instancetype.schema.mutating): they
run after decoding and before the CRD validation, so their words win and their patch is what the CRD sees."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.schema import mutating
from kubectl_instancetype.schema.server import ACCEPTED, ADMISSION, REFUSED, Options, admit

DENIED = 'admission webhook "virtualmachines-mutator.kubevirt.io" denied the request: '
DISK = {"name": "root", "disk": {"bus": "virtio"}}
QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"


def vm(spec: Any) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}, "spec": spec}


def template(domain: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {"runStrategy": "Halted", "template": {"spec": {"domain": domain, **spec}}}


def vmi(spec: Any) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": {"name": "i"}, "spec": spec}


@pytest.mark.parametrize(("data", "message"), [
    # the CRD would say "spec.template: Required value"
    (vm({"runStrategy": "Halted"}), "spec.template in body is required"),
    ({**vm(None), "spec": None}, 'spec in body is required, spec in body must be of type object: "null"'),
    (vm(template({"devices": {"interfaces": [{"name": "a", "tag": 200, "masquerade": {}}]}})),
     'spec.template.spec.domain.devices.interfaces.tag in body must be of type string: "number"'),
    (vm(template({"devices": {}, "memory": {"guest": "two"}})), QUANTITY_FORMAT),
    (vm(template({"devices": {}, "cpu": {"cores": 99999999999}})),
     "json: cannot unmarshal number 99999999999 into Go struct field VMISpecAlias.domain.cpu.cores of type uint32"),
])
def test_the_vm_webhook_refuses_before_the_crd_with_kubevirt_words(data: dict[str, Any], message: str) -> None:
    answer = admit(data, Options())
    assert (answer.verdict, answer.stage) == (REFUSED, ADMISSION)
    assert [p.message for p in answer.problems] == [DENIED + message]
    assert answer.denial is not None and answer.denial.message == message


def test_a_quantity_error_in_request_order_wins_over_an_integer_out_of_range() -> None:
    domain = {"devices": {}, "cpu": {"cores": -1}, "memory": {"guest": "1 Gi"}}
    answer = admit(vm(template(domain)), Options())
    assert answer.denial is not None and answer.denial.causes == (
        (("spec", "template", "spec", "domain", "memory", "guest"), QUANTITY_FORMAT),)


def test_the_patch_trims_a_quantity_the_crd_pattern_would_refuse() -> None:
    answer = admit(vm(template({"devices": {}, "memory": {"guest": "2Gi "}})), Options())
    assert answer.verdict == ACCEPTED
    assert answer.obj["spec"]["template"]["spec"]["domain"]["memory"]["guest"] == "2Gi"


def test_the_patch_writes_the_go_zero_value_of_a_required_string_the_crd_would_miss() -> None:
    spec = template({"devices": {"disks": [{"disk": {"bus": "virtio"}}]}},
                    volumes=[{"name": "root", "containerDisk": {}}])
    answer = admit(vm(spec), Options())
    assert answer.verdict == ACCEPTED  # KubeVirt's validating webhook refuses it later
    tspec = answer.obj["spec"]["template"]["spec"]
    assert tspec["domain"]["devices"]["disks"] == [{"disk": {"bus": "virtio"}, "name": ""}]
    assert tspec["volumes"] == [{"name": "root", "containerDisk": {"image": ""}}]


def test_an_object_the_patch_does_not_change_is_kept_as_it_is() -> None:
    data = vm(template({"devices": {"disks": [DISK]}, "memory": {"guest": "1Gi"}}))
    assert mutating.patch(data, "VirtualMachine", admit_schema()) is data


def admit_schema() -> Any:
    from kubectl_instancetype.schema.tables import crd_schemas

    return crd_schemas()["VirtualMachine"]


def test_the_vmi_webhook_checks_the_vmi_spec() -> None:
    answer = admit(vmi({"domain": {"devices": {"interfaces": [{"name": "a", "tag": 1}]}}}), Options())
    assert answer.denial is not None and answer.denial.webhook == "virtualmachineinstances-mutator.kubevirt.io"
    assert answer.denial.message == 'spec.domain.devices.interfaces.tag in body must be of type string: "number"'
    assert admit(vmi({"domain": {"devices": {}}}), Options()).verdict == ACCEPTED


def test_kinds_without_a_mutating_webhook_are_left_to_the_crd() -> None:
    assert mutating.deny({"spec": {}}, "VirtualMachineInstancetype") is None
    assert mutating.WEBHOOKS.keys() == {"VirtualMachine", "VirtualMachineInstance"}


def test_the_instancetype_mutator_checks_the_matchers_before_the_crd() -> None:
    # the CRD would refuse rebootPolicy; the webhook's matcher check comes first (vm-mutator.go 82)
    spec = {**template({"devices": {}, "rebootPolicy": "reboot"}), "preference": {"kind": "VirtualMachinePreference"}}
    answer = admit(vm(spec), Options())
    assert answer.denial is not None and answer.denial.causes == (
        (("spec", "preference"), "Either Name or InferFromVolume should be provided within the PreferenceMatcher"),)
    # as the release words it: before v1.7.0 a name beside inferFromVolume is refused at the name
    both = {**template({"devices": {}}), "instancetype": {"name": "a", "inferFromVolume": "root"}}
    older = admit(vm(both), Options(release="v1.6.6"))
    assert older.denial is not None and older.denial.causes == ((
        ("spec", "instancetype", "name"),
        "Name should not be provided when InferFromVolume is used within the InstancetypeMatcher"),)
