"""``validate --param-sets``: the sets start from the template's own values (N10), the annotation's product is
counted before it is made (H2), a set's map or list value is an input error (T2), an empty file says so (M1),
and a machine report alone on standard output, the sets counted by --summary (W6).

The reproducers are ``testdata/repros-t6/<id>-*/`` and ``testdata/newcomer-t6/N10`` (copied from the team's
reliability folders, whose README tables say what is expected); each case runs in its folder, as its ``cmd`` does.
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TESTDATA, invoke_cli

REPROS = TESTDATA / "repros-t6"


def folder(name: str) -> Path:
    [found] = [p for p in REPROS.iterdir() if p.name.startswith(f"{name}-")]
    return found


def cli(args: list[str], cwd: Path) -> tuple[str, str, int]:
    out, err, status = invoke_cli(args, cwd)
    assert status != 4 and "internal error" not in err, err
    return out, err, status


def test_n10_sets_start_from_the_params_file_beside_the_template() -> None:
    out, err, status = cli(["validate", "-f", "templates/web.yaml", "--param-sets", "annotation"],
                           TESTDATA / "newcomer-t6" / "N10")
    assert status == 1
    assert out.splitlines()[0] == ("templates/web.yaml: VirtualMachineTemplate web (over the values of "
                                   "templates/web.params.yaml): 9 parameter sets, 7 admitted, 2 refused")
    assert "is required" not in out + err
    refused = [line for line in out.splitlines() if line.startswith("  refused")]
    assert refused == ["  refused   INSTANCETYPE=u1.small PREFERENCE=windows.11",
                       "  refused   INSTANCETYPE=u1.medium PREFERENCE=windows.11"]
    assert "preference requires 2 vCPU" in out


def test_n10_sets_start_from_template_values_without_a_params_file(tmp_path: Path) -> None:
    (tmp_path / "web.yaml").write_text((TESTDATA / "newcomer-t6" / "N10" / "templates" / "web.yaml").read_text())
    (tmp_path / "values.yaml").write_text("web.yaml: {NAME: web-02}\n")
    out, _err, status = cli(["validate", "-f", "web.yaml", "--param-sets", "annotation",
                             "--template-values", "values.yaml"], tmp_path)
    assert status == 1 and "(over the values of values.yaml (web.yaml)): 9 parameter sets, 7 admitted" in out


def test_n10_a_set_overrides_the_params_file(tmp_path: Path) -> None:
    source = TESTDATA / "newcomer-t6" / "N10" / "templates"
    for name in ("web.yaml", "web.params.yaml"):
        (tmp_path / name).write_text((source / name).read_text())
    (tmp_path / "sets.yaml").write_text("- {NAME: other, INSTANCETYPE: u1.small, PREFERENCE: windows.11}\n- {}\n")
    out, _err, status = cli(["validate", "-f", "web.yaml", "--param-sets", "sets.yaml"], tmp_path)
    assert status == 1 and "2 parameter sets, 1 admitted, 1 refused" in out
    assert "  admitted  (defaults)" in out


def test_h2_a_product_over_the_cap_is_refused_at_once() -> None:
    started = time.monotonic()
    _out, err, status = cli(["validate", "--param-sets", "annotation", "template.yaml"], folder("H2"))
    assert status == 3 and time.monotonic() - started < 10
    assert err == ("template.yaml:6:5: error: annotation kubectl-instancetype.io/parameter-values: 10^12 parameter "
                   "sets (10 × 10 × 10 × 10 × 10 × 10 × 10 × 10 × 10 × 10 × 10 × 10 values), more than the limit "
                   "of 10000\n")


@pytest.mark.parametrize(("args", "expected"), [
    (["--param-sets", "sets.yaml", "windows.yaml"],
     "sets.yaml:2:4: error: parameter set 2: json: cannot unmarshal object into Go struct field .INSTANCETYPE of "
     "type string\n"),
    (["--param-sets", "annotation", "ann.yaml"],
     "ann.yaml:7:5: error: annotation kubectl-instancetype.io/parameter-values: INSTANCETYPE[1]: json: cannot "
     "unmarshal object into Go struct field .INSTANCETYPE of type string\n"),
])
def test_t2_a_map_value_is_an_input_error_naming_the_set(args: list[str], expected: str) -> None:
    out, err, status = cli(["validate", *args], folder("T2"))
    assert (out, err, status) == ("", expected, 3)


def test_m1_an_empty_sets_file_is_named() -> None:
    out, err, status = cli(["validate", "--param-sets", "sets.yaml", "windows.yaml"], folder("M1"))
    assert (out, err, status) == ("", "sets.yaml:1:1: error: no parameter sets (an empty list)\n", 3)


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit"])
def test_w6_only_the_report_on_standard_output(fmt: str) -> None:
    out, err, status = cli(["validate", "--param-sets", "annotation", "windows.yaml", "--output-format", fmt],
                           folder("W6"))
    assert status == 1 and "3 parameter sets, 1 admitted, 2 refused" in err
    if fmt == "junit":
        suite = ET.fromstring(out)
        assert suite.find(".//testsuite") is not None or suite.tag == "testsuite"
    else:
        json.loads(out)


def test_w6_the_summary_counts_the_sets() -> None:
    _out, err, status = cli(["validate", "--param-sets", "annotation", "windows.yaml", "--summary"], folder("W6"))
    assert status == 1 and err.splitlines()[-1] == "3 VMs in 1 file: 1 rendered, 2 refused, 0 warnings"


def test_n13_a_directory_with_a_params_file_draws_no_skipped_note() -> None:
    _out, err, status = cli(["validate", "-f", "templates/"], TESTDATA / "newcomer-t6" / "N10")
    assert status == 0 and "not a Kubernetes object" not in err
    _out, err, _status = cli(["validate", "-f", "templates/web.params.yaml"], TESTDATA / "newcomer-t6" / "N10")
    assert "skipped: not a Kubernetes object" in err  # alone, it is no template's values


def test_n10_sets_start_from_the_config_files_template_values(tmp_path: Path) -> None:
    (tmp_path / "web.yaml").write_text((TESTDATA / "newcomer-t6" / "N10" / "templates" / "web.yaml").read_text())
    (tmp_path / "values.yaml").write_text("web.yaml: {NAME: web-03}\n")
    (tmp_path / ".kubectl-instancetype.yaml").write_text("template-values: values.yaml\n")
    out, _err, status = cli(["validate", "-f", "web.yaml", "--param-sets", "annotation"], tmp_path)
    assert status == 1 and "(over the values of values.yaml (web.yaml)): 9 parameter sets, 7 admitted" in out
