"""``--output-format sarif``: every report validates against the official SARIF 2.1.0 JSON schema
(testdata/sarif), has rules with ids and help, results with physical locations and no ``region.snippet``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import TESTDATA, invoke_cli

SCHEMA = json.loads((TESTDATA / "sarif" / "sarif-schema-2.1.0.json").read_text())
CASES = TESTDATA / "newcomer"
# Situations: a misspelt instancetype (a note), a refusal with three causes, a file that does not parse, a
# warning, a refused catalog object.
SITUATIONS = ["misspelt-instancetype", "multi-cause-github", "namespaced-not-passed", "summary", "quiet-off"]


def sarif(case: str, tmp_path: Path, *extra: str) -> tuple[dict[str, Any], int]:
    work = tmp_path / case
    shutil.copytree(CASES / case, work)
    args = [a for a in (CASES / case / "args").read_text().splitlines() if a != "--summary"]  # a line of its own
    if "--output-format" in args:
        del args[args.index("--output-format"):args.index("--output-format") + 2]
    out, err, status = invoke_cli([*args, *extra, "--output-format", "sarif"], work)
    return json.loads(out if args[0] == "validate" else err), status  # validate prints it on stdout


def snippets(value: Any) -> list[Any]:
    if isinstance(value, dict):
        found = [value["snippet"]] if "snippet" in value else []
        return found + [s for v in value.values() for s in snippets(v)]
    if isinstance(value, list):
        return [s for v in value for s in snippets(v)]
    return []


@pytest.mark.parametrize("case", SITUATIONS)
def test_sarif_validates_against_the_schema(case: str, tmp_path: Path) -> None:
    log, _status = sarif(case, tmp_path)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    run = log["runs"][0]
    assert all(rule["id"] and rule["help"]["text"] and rule["helpUri"] for rule in run["tool"]["driver"]["rules"])
    for result in run["results"]:
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    assert snippets(log) == []


def test_sarif_puts_each_cause_at_its_line(tmp_path: Path) -> None:
    log, status = sarif("multi-cause-github", tmp_path)
    assert status == 1
    where = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in log["runs"][0]["results"]]
    assert where == [("vm.yaml", 136), ("vm.yaml", 168), ("vm.yaml", 169)]


def test_sarif_names_the_missing_instancetype_as_a_related_location(tmp_path: Path) -> None:
    log, _status = sarif("misspelt-instancetype", tmp_path)
    (result,) = log["runs"][0]["results"]
    (related,) = result["relatedLocations"]
    assert related["message"]["text"] == ('virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.meduim" '
                                          'not found (did you mean "u1.medium"?)')
    assert related["physicalLocation"]["region"] == {"startLine": 6, "startColumn": 3}


def test_the_output_file_holds_a_valid_sarif_log(tmp_path: Path) -> None:
    shutil.copytree(CASES / "output-file", tmp_path / "case")
    invoke_cli((CASES / "output-file" / "args").read_text().splitlines(), tmp_path / "case")
    jsonschema.Draft4Validator(SCHEMA).validate(json.loads((tmp_path / "case" / "report.sarif").read_text()))


def test_sarif_paths_are_relative_to_the_repository_root(tmp_path: Path) -> None:
    """Run in a subdirectory of a git checkout, as a workflow's `working-directory: vms` does: code scanning
    resolves a result's URI against the checkout's root, so it names vms/web.yaml, based on %SRCROOT%."""
    from conftest import git

    repo = tmp_path / "repo"
    shutil.copytree(CASES / "misspelt-instancetype", repo / "vms")
    git(repo, "init", "-q", "-b", "main")
    out, _err, status = invoke_cli(["validate", "-f", "vm.yaml", "-f", str(repo / "vms" / "vm.yaml"), "-o", "sarif"],
                                   repo / "vms")
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    artifacts = [loc["physicalLocation"]["artifactLocation"] for result in log["runs"][0]["results"]
                 for loc in result["locations"] + result.get("relatedLocations", [])]
    assert status == 1 and artifacts and all(a == {"uri": "vms/vm.yaml", "uriBaseId": "%SRCROOT%"} for a in artifacts)


def test_sarif_paths_outside_a_repository_stay_as_given(tmp_path: Path) -> None:
    log, _status = sarif("misspelt-instancetype", tmp_path)
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "vm.yaml"}
