"""The command line, end to end: exact stdout, stderr and exit status for each case in testdata/cli/cases.

Each case directory holds ``args`` (one line, run from testdata/cli), optionally ``env`` (``NAME=value``
lines set for the run), and the expected ``stdout``, ``stderr`` and ``exit``; ``--update-goldens`` rewrites
them. A few cases also run through the installed executable,
and the conformance runner is run against it on a sample of the corpus.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CONFORMANCE, ROOT, TESTDATA, check_golden, invoke_cli

CLI_DATA = TESTDATA / "cli"
CASES = sorted(p.name for p in (CLI_DATA / "cases").iterdir())


def case_env(folder: Path) -> dict[str, str]:
    path = folder / "env"
    lines = path.read_text().splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines if line)


def run_case(args: list[str], env: dict[str, str] | None = None) -> tuple[str, str, int]:
    return invoke_cli(args, CLI_DATA, env)


@pytest.mark.parametrize("case", CASES)
def test_cli_case(case: str, update_goldens: bool) -> None:
    folder = CLI_DATA / "cases" / case
    args = shlex.split((folder / "args").read_text())
    stdout, stderr, status = run_case(args, case_env(folder))
    check_golden(folder, {"stdout": stdout, "stderr": stderr, "exit": f"{status}\n"}, update_goldens)


def _executable() -> str:
    found = shutil.which("kubectl-instancetype", path=os.path.dirname(sys.executable))
    if not found:
        pytest.skip("kubectl-instancetype is not installed next to this Python")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("case", ["example-yaml", "conflict", "syntax", "usage", "github-annotations"])
def test_installed_executable(case: str) -> None:
    """The console script gives byte for byte what the in-process run gives."""
    folder = CLI_DATA / "cases" / case
    args = shlex.split((folder / "args").read_text())
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"} | case_env(folder)
    proc = subprocess.run([_executable(), *args], cwd=CLI_DATA, capture_output=True, text=True, env=env)
    assert proc.stdout == (folder / "stdout").read_text()
    assert proc.returncode == int((folder / "exit").read_text())
    if case != "usage":  # click names the program after argv[0] in usage errors
        assert proc.stderr == (folder / "stderr").read_text()


@pytest.mark.slow
def test_module_and_launcher_agree() -> None:
    args = ["render", "-f", "inputs/example.yaml"]
    expected = (CLI_DATA / "cases" / "example-yaml" / "stdout").read_text()
    for argv in ([sys.executable, "-m", "kubectl_instancetype", *args],
                 [sys.executable, str(ROOT / "plugins" / "kubectl-instancetype"), *args]):
        proc = subprocess.run(argv, cwd=CLI_DATA, capture_output=True, text=True)
        assert (proc.returncode, proc.stdout) == (0, expected), proc.stderr


@pytest.mark.slow
@pytest.mark.skipif(not (CONFORMANCE / "runner.py").exists(), reason="testdata/conformance is missing")
@pytest.mark.parametrize("mode", [[], ["--vmi"]])
def test_conformance_runner_on_installed_executable(mode: list[str]) -> None:
    """KubeVirt's corpus through the real executable (a sample; every case runs in-process elsewhere)."""
    command = f"{_executable()} --no-builtin-catalog --kubevirt-version main"
    proc = subprocess.run(
        [sys.executable, str(CONFORMANCE / "runner.py"), "--cmd", command, "--cases", str(CONFORMANCE / "cases"),
         "--sample", "24", "--seed", "7", *mode], capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "conformance: 24 passed, 0 failed"


def test_render_imports_only_what_it_needs() -> None:
    """A plain render must not pay for templating, patching, HTTP, round-trip YAML or the standard data classes
    (the package's records are made without them)."""
    code = (
        "import sys\n"
        "from kubectl_instancetype.cli import main\n"
        "try:\n    main(['render', '-f', 'inputs/example.yaml'])\nexcept SystemExit:\n    pass\n"
        "heavy = ['jinja2', 'jsonpatch', 'urllib.request', 'http.client', 'tempfile', 'dataclasses',\n"
        "         'kubectl_instancetype.yamlio.roundtrip', 'kubectl_instancetype.patch']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=CLI_DATA, capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stderr


def test_kubevirt_config_cr_is_validated_like_the_inputs(tmp_path: Path) -> None:
    """--kubevirt-config holding a KubeVirt CR goes through the API server's checks (a bare configuration not)."""
    cr = tmp_path / "kv.yaml"
    cr.write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kv, namespace: kubevirt}\n"
                  "spec:\n  configuration:\n    vmRolloutStrategy: Live\n")
    _, stderr, status = run_case(["render", "-f", "inputs/example.yaml", "--kubevirt-config", str(cr)])
    assert status == 1
    assert stderr == (f'{cr}:6:5: error: KubeVirt.kubevirt.io "kv" is invalid: spec.configuration.vmRolloutStrategy: '
                      'Unsupported value: "Live": supported values: "Stage", "LiveUpdate"\n')
    cr.write_text("vmRolloutStrategy: Stage\n")
    assert run_case(["render", "-f", "inputs/example.yaml", "--kubevirt-config", str(cr)])[1:] == ("", 0)


@pytest.mark.parametrize("mode", ["warn", "ignore"])
def test_a_pruned_or_null_matcher_name_leaves_a_matcher_kubevirt_refuses(tmp_path: Path, mode: str) -> None:
    vms = tmp_path / "vms.yaml"
    vms.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: a}\nspec:\n"
                   "  preference: {name: null}\n  template: {spec: {domain: {devices: {}}}}\n---\n"
                   "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: b}\nspec:\n"
                   "  preference: {nmae: fedora}\n  template: {spec: {domain: {devices: {}}}}\n")
    _, stderr, status = run_case(["render", "-f", str(vms), "--no-builtin-catalog", f"--validate={mode}"])
    refusal = "Either Name or InferFromVolume should be provided within the PreferenceMatcher"
    assert status == 1
    denied = 'admission webhook "virtualmachines-mutator.kubevirt.io" denied the request: '  # before the CRD
    assert f"{vms}:5:3: error: VirtualMachine default/a: {denied}{refusal}" in stderr
    assert f"{vms}:12:3: error: VirtualMachine default/b: {denied}{refusal}" in stderr
