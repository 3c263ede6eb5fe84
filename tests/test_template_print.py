"""``template process --print-params`` and ``template convert``: virtctl's output (goldens under
testdata/templates/print, see its README) and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TESTDATA, check_golden, invoke_cli

DATA = TESTDATA / "templates" / "print"
CASES = [("rhel9-server-small", "yaml"), ("rhel9-server-small", "json"), ("windows11-desktop-medium", "yaml"),
         ("vmt", "yaml"), ("vmt", "json")]


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_print_params(name: str, fmt: str, update_goldens: bool) -> None:
    out, err, status = invoke_cli(["template", "process", "-f", f"{name}.yaml", "--print-params", "-o", fmt], DATA)
    assert (err, status) == ("", 0)
    check_golden(DATA, {f"{name}.params.{fmt}": out}, update_goldens)


@pytest.mark.parametrize(("name", "fmt"), [c for c in CASES if c[0] != "vmt"])
def test_convert(name: str, fmt: str, update_goldens: bool) -> None:
    out, err, status = invoke_cli(["template", "convert", "-f", f"{name}.yaml", "-o", fmt], DATA)
    assert (err, status) == ("", 0)
    check_golden(DATA, {f"{name}.vmt.{fmt}": out}, update_goldens)


def test_converted_template_processes_to_the_same_vm(tmp_path: Path) -> None:
    out, _err, _status = invoke_cli(["template", "convert", "-f", str(DATA / "rhel9-server-small.yaml")], tmp_path)
    (tmp_path / "vmt.yaml").write_text(out)
    args = ["template", "process", "-p", "NAME=vm1", "--seed", "3", "-o", "json", "-f"]
    direct = invoke_cli([*args, str(DATA / "rhel9-server-small.yaml")], tmp_path)
    converted = invoke_cli([*args, "vmt.yaml"], tmp_path)
    assert direct[2] == converted[2] == 0 and json.loads(direct[0]) == json.loads(converted[0])


def test_print_params_of_a_template_without_parameters_is_null(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("apiVersion: template.kubevirt.io/v1beta1\nkind: VirtualMachineTemplate\n"
                                     "spec:\n  virtualMachine: {kind: VirtualMachine}\n")
    assert invoke_cli(["template", "process", "-f", "t.yaml", "--print-params"], tmp_path) == ("null\n", "", 0)
    assert invoke_cli(["template", "process", "-f", "t.yaml", "--print-params", "-o", "json"],
                      tmp_path) == ("null", "", 0)


ERRORS = {
    "print-params-decode": (["process", "-f", "t.json", "--print-params"], 3,
                            "t.json:1:74: error: error printing template parameters: error decoding "
                            "VirtualMachineTemplate: json: cannot unmarshal object into Go struct field "
                            "VirtualMachineTemplate.spec.parameters.0.value of type string\n"),
    "convert-no-object": (["convert", "-f", "vmt.yaml"], 1,
                          "vmt.yaml:1:1: error: template must contain exactly one object, found 0\n"),
    "convert-output": (["convert", "-f", "vmt.yaml", "-o", "table"], 2, "not supported output format: table"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_in_virtctls_words(name: str, tmp_path: Path) -> None:
    (tmp_path / "vmt.yaml").write_text((DATA / "vmt.yaml").read_text())
    (tmp_path / "t.json").write_text('{"kind": "VirtualMachineTemplate", "spec": {"parameters": [{"name": "A", '
                                     '"value": {"x": 1}}]}}')
    args, status, expected = ERRORS[name]
    out, err, got = invoke_cli(["template", *args], tmp_path)
    assert (out, got) == ("", status) and expected in err, err


def test_convert_points_an_openshift_template_to_template_convert() -> None:
    """N9: ``convert -f`` (instancetype API versions) printed an OpenShift Template back unchanged, silently."""
    out, err, status = invoke_cli(["convert", "-f", "rhel9-server-small.yaml"], DATA)
    assert status == 0 and out == (DATA / "rhel9-server-small.yaml").read_text()
    assert err == ("rhel9-server-small.yaml:1:1: note: an OpenShift Template, left as it is: `kubectl instancetype "
                   "template convert -f rhel9-server-small.yaml` converts it into a VirtualMachineTemplate\n")
