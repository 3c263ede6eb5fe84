"""``kubectl instancetype capacity`` and the node-level part of ``diff``, end to end: exact stdout, stderr and exit
status for each case in testdata/capacity/cli/cases (``args`` run from testdata/capacity/cli; --update-goldens
rewrites the expected files). The VMs there are rendered to their launcher Pods by the tool itself."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from conftest import TESTDATA, check_golden, invoke_cli

DATA = TESTDATA / "capacity" / "cli"
CASES = sorted(p.name for p in (DATA / "cases").iterdir())


@pytest.mark.parametrize("case", CASES)
def test_capacity_case(case: str, update_goldens: bool) -> None:
    folder = DATA / "cases" / case
    stdout, stderr, status = invoke_cli(shlex.split((folder / "args").read_text()), DATA)
    check_golden(folder, {"stdout": stdout, "stderr": stderr, "exit": f"{status}\n"}, update_goldens)


@pytest.mark.parametrize("case", [c for c in CASES if "-o json" in (DATA / "cases" / c / "args").read_text()])
def test_json_goldens_follow_the_shipped_schema(case: str) -> None:
    import jsonschema

    from kubectl_instancetype.capacity import views

    schema = json.loads((Path(views.__file__).parent / "capacity-report.schema.json").read_text())
    jsonschema.validate(json.loads((DATA / "cases" / case / "stdout").read_text()), schema)
