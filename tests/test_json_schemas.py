"""The JSON outputs made for tools: each carries ``apiVersion`` kubectl-instancetype.io/v1 and its ``kind``, and
each validates against the schema the package ships for that kind (``kubectl instancetype schema KIND``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTDATA, invoke_cli
from jsonschema import Draft202012Validator

from kubectl_instancetype.schemas import API_VERSION, KINDS, schema

RESTART = TESTDATA / "conformance-restart" / "cases"
VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: {name}
spec:
  runStrategy: Always
  instancetype:
    name: {instancetype}
  preference:
    name: fedora
  template:
    spec:
      domain:
        devices: {{}}
"""


def _valid(kind: str, text: str) -> dict[str, Any]:
    """The output ``text``, checked to be a ``kind`` of this version that its schema accepts."""
    data = json.loads(text)
    assert (data["apiVersion"], data["kind"]) == (API_VERSION, kind)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in
              Draft202012Validator(schema(kind)).iter_errors(data)]
    assert errors == []
    return dict(data)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_schema_is_a_schema_and_printed_by_the_command(kind: str) -> None:
    Draft202012Validator.check_schema(schema(kind))
    out, err, status = invoke_cli(["schema", kind], Path.cwd())
    assert (status, err) == (0, "") and json.loads(out) == schema(kind)
    listed, _, _ = invoke_cli(["schema"], Path.cwd())
    assert kind in listed and API_VERSION in listed


@pytest.fixture
def revisions(tmp_path: Path) -> Path:
    (tmp_path / "base").mkdir()
    (tmp_path / "head").mkdir()
    for name, before, after in (("web", "u1.medium", "u1.large"), ("db", "u1.small", "u1.meduim"),
                                ("same", "u1.small", "u1.small")):
        (tmp_path / "base" / f"{name}.yaml").write_text(VM.format(name=name, instancetype=before))
        (tmp_path / "head" / f"{name}.yaml").write_text(VM.format(name=name, instancetype=after))
    return tmp_path


def test_diff(revisions: Path) -> None:
    out, _, status = invoke_cli(["diff", "--base", "base", "head", "-o", "json"], revisions)
    assert status == 1
    assert {vm["status"] for vm in _valid("Diff", out)["vms"]} == {"changed", "failing", "unchanged"}


def test_restart_impact(revisions: Path) -> None:
    out, _, _ = invoke_cli(["diff", "--restart-impact", "--base", "base", "head", "-o", "json"], revisions)
    assert _valid("RestartImpact", out)["summary"]["error"] == 1


def test_restart_impact_of_a_halt_and_a_deletion() -> None:
    """The outcomes of a VM the change stops and one whose file it deletes, and their counts (newcomer N2)."""
    out, _, _ = invoke_cli(["diff", "--restart-impact", "--kubevirt-config", "kubevirt.yaml", "--base", "base",
                            "head", "-o", "json"], TESTDATA / "newcomer-t6" / "N2")
    summary = _valid("RestartImpact", out)["summary"]
    assert (summary["shuts-down"], summary["deleted"]) == (1, 1)


@pytest.mark.parametrize("name", sorted(p.name for p in RESTART.iterdir())[::20] if RESTART.is_dir() else [])
def test_restart_impact_of_the_corpus(name: str) -> None:
    out, _, _ = invoke_cli(["--kubevirt-version", "main", "--no-builtin-catalog", "diff", "--restart-impact",
                            "--base", "base.yaml", "head.yaml", "-o", "json"], RESTART / name)
    _valid("RestartImpact", out)


@pytest.mark.parametrize("command", [["render"], ["validate"], ["render", "--vmi"]])
def test_report(revisions: Path, command: list[str]) -> None:
    (revisions / "head" / "broken.yaml").write_text("a: [\n")
    _, _, status = invoke_cli([*command, "-f", "head", "--output-format", "json", "--output-file", "report.json"],
                              revisions)
    report = _valid("Report", (revisions / "report.json").read_text())
    assert status == 3
    assert {"head/db.yaml", "head/broken.yaml"} <= set(report)


def test_report_of_a_file_named_as_its_keys(tmp_path: Path) -> None:
    (tmp_path / "kind").write_text(VM.format(name="odd", instancetype="u1.meduim"))
    out, _, _ = invoke_cli(["validate", "-f", "kind", "-o", "json"], tmp_path)
    report = _valid("Report", out)
    assert report["./kind"][0]["status"] == "Failure"


def test_suggest() -> None:
    case = TESTDATA / "suggest" / "cases" / "json-report"
    out, _, _ = invoke_cli(["suggest", *(case / "args").read_text().split()], TESTDATA / "suggest", stdin="")
    assert len(_valid("SuggestionList", out)["items"]) == 3


def test_drift() -> None:
    out, _, _ = invoke_cli(["drift", "vms.yaml", "--catalog", "catalog.yaml", "--no-builtin-catalog", "-o", "json"],
                           TESTDATA / "drift")
    assert _valid("DriftList", out)["items"]


def test_explanation(revisions: Path) -> None:
    out, _, _ = invoke_cli(["render", "--explain", "-o", "json", "-f", "base/web.yaml"], revisions)
    assert _valid("Explanation", out)["origins"]
    out, _, _ = invoke_cli(["render", "--explain", "-o", "json", "-f", "base"], revisions)
    for item in json.loads(out)["items"]:
        _valid("Explanation", json.dumps(item))
