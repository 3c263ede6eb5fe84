"""The reporters over one run's result: GitHub workflow annotations and JUnit XML, parsed back."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.errors import InputError, KubeVirtError, Location, Notice
from kubectl_instancetype.reporters import Checked, RunResult
from kubectl_instancetype.reporters.github import annotation, workflow_commands
from kubectl_instancetype.reporters.junit import junit_xml

CLI_DATA = TESTDATA / "cli"


def test_annotations_escape_what_would_end_them() -> None:
    assert annotation("error", "50% off\nnext line", Location("a,b:c.yaml", 3, 7)) == (
        "::error file=a%2Cb%3Ac.yaml,line=3,col=7::50%25 off%0Anext line")


def test_standard_input_and_urls_are_not_files_of_the_repository() -> None:
    assert annotation("error", "x", Location("<stdin>", 2, 1)) == "::error::x"
    assert annotation("warning", "x", Location("https://example.com/a.yaml")) == "::warning::x"


def test_notes_are_not_annotations() -> None:
    result = RunResult((InputError("bad", Location("a.yaml", 1, 1)),),
                       (Notice("skipped", Location("v.yaml"), "note"), Notice("deprecated", Location("c.yaml", 2, 1))))
    assert workflow_commands(result) == ["::warning file=c.yaml,line=2,col=1::deprecated",
                                         "::error file=a.yaml,line=1,col=1::bad"]


def test_junit_has_one_case_per_vm_and_one_per_problem_of_no_vm() -> None:
    refused = KubeVirtError("VirtualMachine default/db: no such instancetype").with_location(Location("vms.yaml", 9, 3))
    broken = InputError("did not find expected key", Location("other.yaml", 4, 1))
    result = RunResult((broken, refused), checked=(Checked("VirtualMachine default/web", "vms.yaml"),
                                                   Checked("VirtualMachine default/db", "vms.yaml", refused)))
    root = ET.fromstring(junit_xml(result, "suite"))
    (suite,) = root
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == ("suite", "3", "2")
    cases = {c.get("name"): c for c in suite}
    assert list(cases) == ["VirtualMachine default/web", "VirtualMachine default/db", "other.yaml:4:1"]
    assert cases["VirtualMachine default/web"].find("failure") is None
    failure = cases["VirtualMachine default/db"].find("failure")
    assert failure is not None and failure.get("message") == refused.message and failure.get("type") == "rejected"
    assert failure.text == "vms.yaml:9:3: error: VirtualMachine default/db: no such instancetype"
    assert cases["VirtualMachine default/db"].get("file") == "vms.yaml"
    assert cases["VirtualMachine default/db"].get("line") == "9"
    broken_failure = cases["other.yaml:4:1"].find("failure")
    assert broken_failure is not None and broken_failure.get("type") == "unprocessable"


def test_render_writes_the_junit_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        update_goldens: bool) -> None:
    report = tmp_path / "report.xml"
    monkeypatch.chdir(CLI_DATA)
    result = CliRunner().invoke(main_group, ["render", "-f", "inputs/conflict.yaml", "-f", "inputs/example.yaml",
                                             "--junit-xml", str(report)])
    assert result.exit_code == 1
    golden = CLI_DATA / "junit" / "render.xml"
    if update_goldens:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(report.read_text())
    assert report.read_text() == golden.read_text()
    suite = ET.parse(report).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "kubectl-instancetype render"
    verdicts = {c.get("name"): c.find("failure") is not None for c in suite}
    assert verdicts["VirtualMachine prod/db"] is True and verdicts["VirtualMachine prod/web"] is False
    assert len(verdicts) == sum(1 for c in suite) > 2
    failure = next(c for c in suite if c.get("name") == "VirtualMachine prod/db").find("failure")
    assert failure is not None and failure.text is not None
    assert failure.text.startswith("inputs/conflict.yaml:16:11: error: VirtualMachine prod/db: ")


def test_an_unwritable_report_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CLI_DATA)
    result = CliRunner().invoke(main_group, ["render", "-f", "inputs/example.yaml", "--junit-xml",
                                             str(tmp_path / "no" / "such" / "dir.xml")])
    assert result.exit_code == 3
    assert "error: cannot write the JUnit report: No such file or directory" in result.stderr
