"""How virtctl reads a template and its params file where the public corpus shows no case (issue 39): Go's
encoding/json words for a value of the wrong type (the field path it names), strict decoding of the VM's
``status``, ``.inf`` in a string field, and an OpenShift Template of the legacy ``v1`` group.

The rules come from KubeVirt's code at d923fdb8: apimachinery's ``YAMLOrJSONDecoder`` (JSON first; JSON's error
when YAML fails too), sigs.k8s.io/yaml (YAML scalars written into string fields; ``Decode(&obj)`` through an
interface, so no struct is named), the engine's ``FromUnstructuredWithValidation(…, true)``. The inputs are
``testdata/templates-t39``.
"""

from __future__ import annotations

import json

import pytest
from conftest import TESTDATA, invoke_cli

DATA = TESTDATA / "templates-t39"

ERRORS = {
    "params-yaml-object": (["-f", "wrong-type.yaml", "--params-file", "object.params.yaml"], 3,
                           "object.params.yaml:1:1: error: error reading params file: error unmarshaling JSON: while "
                           "decoding JSON: json: cannot unmarshal object into Go struct field .NAME of type string"),
    "params-json-object": (["-f", "wrong-type.yaml", "--params-file", "object.params.json"], 3,
                           "object.params.json:1:2: error: error reading params file: json: cannot unmarshal object "
                           "into Go struct field .NAME of type string"),
    "template-json-number-then-object": (["-f", "number-then-object.json"], 3,
                                         "number-then-object.json:2:43: error: error decoding VirtualMachineTemplate: "
                                         "json: cannot unmarshal number into Go struct field VirtualMachineTemplate."
                                         "spec.parameters.0.value of type string"),
    "vm-wrong-type": (["-f", "wrong-type.yaml"], 1,
                      "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal string into Go "
                      "struct field VMISpecAlias.domain.devices.disks.0.bootOrder of type uint"),
    "status-unknown-fields": (["-f", "status.yaml"], 1,
                              'strict decoding error: unknown field "status.bogus", unknown field '
                              '"status.conditions[0].extra"'),
    "vm-slice-element-wrong-type": (["-f", "disk-not-a-map.yaml"], 1,
                                    "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal "
                                    "string into VMISpecAlias.domain.devices.disks.0 of type v1.Disk"),
    "vm-named-string-type": (["-f", "disk-bus-number.yaml"], 1,
                             "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal number "
                             "into Go struct field VMISpecAlias.domain.devices.disks.0.disk.bus of type v1.DiskBus"),
    "vm-named-map-type": (["-f", "requests-not-a-map.yaml"], 1,
                          "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal string "
                          "into Go struct field VMISpecAlias.domain.resources.requests of type v1.ResourceList"),
    "vm-int-or-string": (["-f", "probe-port-bool.yaml"], 1,
                         "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal bool into Go "
                         "value of type int32"),
    "vm-alias-decoded-type": (["-f", "pod-network-not-a-map.yaml"], 1,
                              "failed to convert unstructured object to VirtualMachine: json: cannot unmarshal bool "
                              "into Go value of type v1.PodNetworkAlias"),
    "template-metadata-in-json-key-order": (["-f", "metadata-wrong-types.yaml"], 3,
                                            "error decoding VirtualMachineTemplate: error unmarshaling JSON: while "
                                            "decoding JSON: json: cannot unmarshal string into Go struct field "
                                            ".metadata.generation of type int64"),
    "template-kind-not-converted": (["-f", "kind-number.yaml"], 3,
                                    "error decoding VirtualMachineTemplate: error unmarshaling JSON: while decoding "
                                    "JSON: json: cannot unmarshal number into Go struct field .kind of type string"),
    "openshift-inf-read-as-vmt": (["-f", "openshift-inf.yaml"], 3,
                                  "error decoding VirtualMachineTemplate: error converting YAML to JSON: json: "
                                  "unsupported value: +Inf"),
    "openshift-parameters-type": (["-f", "openshift-parameters-map.yaml"], 3,
                                  "error decoding Template: error unmarshaling JSON: while decoding JSON: json: "
                                  "cannot unmarshal object into Go struct field .parameters of type []v1.Parameter"),
    "template-of-comments-only": (["-f", "comment-only.yaml"], 1,
                                  "error validating template parameters: spec.virtualMachine: Invalid value: null: "
                                  "virtualMachine is required and cannot be empty"),
    "json-syntax-error-when-yaml-fails-too": (["-f", "octal-in-json.json"], 3,
                                              "error decoding VirtualMachineTemplate: json: offset 137: invalid "
                                              "character '1' after object key:value pair"),
    "json-params-cut-short": (["-f", "inf.yaml", "--params-file", "truncated.params.json"], 3,
                              "error reading params file: unexpected EOF"),
    "status-wrong-type": (["-f", "status-conditions-not-a-list.yaml"], 1,
                          "failed to convert unstructured object to VirtualMachine: cannot restore slice from string"),
    "inf-in-the-vm": (["-f", "inf-in-vm.yaml"], 3,
                      "error decoding VirtualMachineTemplate: error converting YAML to JSON: json: unsupported value: "
                      "+Inf"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_refusals_in_virtctls_words(name: str) -> None:
    args, status, expected = ERRORS[name]
    out, err, got = invoke_cli(["template", "process", *args], DATA)
    assert (out, got) == ("", status) and expected in err, err


def test_inf_in_string_fields_is_processed_as_plus_inf() -> None:
    out, err, status = invoke_cli(["template", "process", "-f", "inf.yaml", "-o", "json"], DATA)
    vm = json.loads(out)
    assert status == 0 and err == "+Inf"
    assert vm["metadata"] == {"name": "vm-+Inf", "labels": {"size": "+Inf"}}


def test_a_legacy_v1_openshift_template_is_converted() -> None:
    out, _err, status = invoke_cli(["template", "process", "-f", "legacy-v1.yaml", "-o", "json"], DATA)
    assert status == 0 and json.loads(out)["metadata"] == {"name": "legacy-vm"}


def test_explain_names_the_parameter_behind_a_value() -> None:
    here = TESTDATA / "newcomer-t6" / "N10"
    out, _err, status = invoke_cli(["render", "-f", "templates/web.yaml", "--explain"], here)
    assert status == 0
    assert "  name: web-01  # template parameter NAME\n" in out
    assert "storage: 20Gi  # template parameter DISK_GB\n" in out
    out, _err, _status = invoke_cli(["render", "-f", "templates/web.yaml", "--explain", "-o", "json"], here)
    assert json.loads(out)["origins"]["/metadata/name"] == {"source": "template", "text": "template parameter NAME",
                                                              "name": "template parameter NAME"}


def test_print_params_of_an_openshift_template_of_several_objects() -> None:
    """virtctl's --print-params reads no OpenShift Template (it prints null for one); this tool converts them
    for process, so it prints their parameters, whatever the number of objects convert would refuse."""
    out, err, status = invoke_cli(["template", "process", "--print-params", "-f", "openshift-two-objects.yaml",
                                   "-o", "json"], DATA)
    assert (status, err) == (0, "") and json.loads(out) == [{"name": "NAME", "required": True}]


def test_a_params_file_of_comments_only_holds_no_values() -> None:
    """Only an empty file is EOF for apimachinery's decoder; comments, blank lines or ``---`` are a null
    document, which leaves the values empty."""
    _out, _err, status = invoke_cli(["template", "process", "-f", "inf.yaml", "--params-file",
                                     "comment-only.params.yaml", "-o", "json"], DATA)
    assert status == 0


def test_null_list_items_and_map_values_are_go_zero_values() -> None:
    """encoding/json decodes null into a list's struct or a map's string as the zero value, which Go prints
    with the fields that have no omitempty (a disk's name)."""
    out, _err, status = invoke_cli(["template", "process", "-f", "null-disk.yaml", "-o", "json"], DATA)
    spec = json.loads(out)["spec"]["template"]["spec"]
    assert status == 0 and spec["domain"]["devices"]["disks"] == [{"name": ""}] and spec["nodeSelector"] == {"zone": ""}


def test_the_status_prints_its_fields_without_omitempty() -> None:
    """virtctl prints the typed status: a condition without ``status`` has it empty (no omitempty in Go)."""
    out, _err, status = invoke_cli(["template", "process", "-f", "status-condition-without-status.yaml", "-o",
                                    "json"], DATA)
    assert status == 0 and json.loads(out)["status"] == {"conditions": [{"type": "Ready", "status": ""}]}
