"""``kubectl instancetype capacity`` and the node-level part of ``diff``, end to end: exact stdout, stderr and exit
status for each case in testdata/capacity/cli/cases (``args`` run from testdata/capacity/cli; --update-goldens
rewrites the expected files). The VMs there are rendered to their launcher Pods by the tool itself."""

from __future__ import annotations

import json
import shlex

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

    from kubectl_instancetype import schemas

    jsonschema.validate(json.loads((DATA / "cases" / case / "stdout").read_text()), schemas.schema("CapacityReport"))


@pytest.mark.slow
def test_the_installed_executable_gives_the_same_report() -> None:
    """Once for real through the console script: byte for byte what the in-process run gives."""
    import os
    import shutil
    import subprocess
    import sys

    found = shutil.which("kubectl-instancetype", path=os.path.dirname(sys.executable))
    if not found:
        pytest.skip("kubectl-instancetype is not installed next to this Python")
    folder = DATA / "cases" / "table"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    proc = subprocess.run([found, *shlex.split((folder / "args").read_text())], cwd=DATA, capture_output=True,
                          text=True, env=env, timeout=300)
    assert (proc.stdout, proc.stderr, proc.returncode) == (
        (folder / "stdout").read_text(), (folder / "stderr").read_text(), int((folder / "exit").read_text()))
