"""The API server's answers: every case of testdata/validation, in-process, in the three --validate modes.

A case passes as testdata/validation/runner.py decides (that runner drives the installed executable): the
exit status is non-zero exactly when the server refuses an object of the mode (or KubeVirt refuses what the
server stored: ``kubevirt_refuses``), every error key of a refused object is printed, and under ``warn`` every
pruned field is named. Here the run is the CLI's own session and render, without a process per case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, load_script

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.errors import EXIT_OK
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render

CORPUS = ROOT / "testdata" / "validation"
CASES = CORPUS / "cases"
ALL_CASES = sorted(p.name for p in CASES.iterdir()) if CASES.exists() else []


def _runner() -> Any:
    return load_script(CORPUS / "runner.py", "validation_runner")


RUNNER = _runner() if (CORPUS / "runner.py").exists() else None


def run(case: Path, mode: str) -> tuple[int, str]:
    """Exit status and stderr of ``render -f input.yaml --validate=MODE``, as the CLI computes them."""
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False, validate=mode, kubevirt_version="main"), FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config))
    problems = [*loaded.problems, *result.problems]
    lines = [n.render() for n in loaded.notices] + [p.render() for p in problems]
    return max((p.exit_code for p in problems), default=EXIT_OK), "\n".join(lines)


def reasons(case: Path, mode: str) -> list[str]:
    """Why the run of ``case`` under ``mode`` fails the runner's criteria (empty: it passes)."""
    assert RUNNER is not None
    expected = json.loads((case / "expected.json").read_text())
    objects = expected[mode]
    status, stderr = run(case, mode)
    out: list[str] = []
    refused = any(o.get("verdict") == "refused" for o in objects)
    kubevirt = (expected.get("kubevirt_refuses") or {}).get(mode)
    if kubevirt and not refused:
        if status == EXIT_OK or kubevirt not in stderr:
            out.append(f"KubeVirt refuses what the server stores: {kubevirt}")
    elif refused != (status != EXIT_OK):
        out.append(f"exit {status}, expected {'non-zero' if refused else '0'}")
    out += [f"missing: {key}" for key, _text in RUNNER.required_keys(objects) if key not in stderr]
    if mode == "warn":
        out += [f"pruned field not named: {p}" for o in objects for p in o.get("pruned") or [] if p not in stderr]
    return out


@pytest.mark.skipif(not ALL_CASES, reason="validation corpus not present")
@pytest.mark.parametrize("mode", ["strict", "warn", "ignore"])
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_validation_case(case_name: str, mode: str) -> None:
    assert reasons(CASES / case_name, mode) == []
