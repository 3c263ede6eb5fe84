"""Restart impact as KubeVirt decides it: every case of testdata/conformance-restart (made by running KubeVirt's
own VM controller, webhooks and VMI controller), through ``diff --restart-impact`` in-process, compared as the
corpus runner compares (outcome, the exact RestartRequired message, the refusal's message, and ``live``)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import invoke_cli, load_script

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "conformance-restart"
CASES = sorted(p.name for p in (ROOT / "cases").iterdir() if p.is_dir()) if (ROOT / "cases").exists() else []
COMMAND = ("kubectl-instancetype --kubevirt-version main --no-builtin-catalog diff --restart-impact --base {base} "
           "{head} -o json {vmi_flags}")


@pytest.fixture(scope="module")
def runner() -> object:
    return load_script(ROOT / "runner.py", "restart_runner")


@pytest.mark.skipif(not CASES, reason="testdata/conformance-restart is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("name", CASES)
def test_restart_case(name: str, runner: object) -> None:
    case = ROOT / "cases" / name
    meta = json.loads((case / "meta.json").read_text())
    expected = json.loads((case / "expected.json").read_text())
    args = SimpleNamespace(not_migratable_flag="--assume-not-migratable", arch_flag="--assume-arch")
    argv = runner.build_argv(COMMAND, case, meta, args)  # type: ignore[attr-defined]
    stdout, stderr, code = invoke_cli(argv[1:], case)
    answer = json.loads(stdout)
    assert answer["outcome"] == expected["outcome"], stderr
    if expected["outcome"] == "restart-required":
        assert answer["restart_message"] == expected["restart_message"]
    if expected["outcome"] == "error":
        assert expected["error"]["message"] in answer["error"]["message"]
    assert runner._same_live(expected["live"], answer["live"]) == []  # type: ignore[attr-defined]
    assert code in (0, 1)  # 1: some expansion changed (diff's findings)
