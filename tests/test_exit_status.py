"""The same situation gets the same exit status from every command (the table in ``--help`` and the README).

Each situation is a directory of a git repository committed on ``main`` (so ``diff`` has a base); each
command reads that directory its own way. ``None`` marks a command the situation does not concern (the
catalog does not render VMs, ``config`` only reads a KubeVirt CR).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_instancetype.cli import main_group

VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: {name}
spec:
  instancetype:
    name: {instancetype}
  runStrategy: Always
  template:
    spec:
      domain:
        devices: {{}}
"""
SITUATIONS = {
    "clean": VM.format(name="ok", instancetype="u1.small"),
    "refused": VM.format(name="bad", instancetype="no.such.size"),
    "unparsable": "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: [\n",
    "other-yaml": "replicaCount: 2\n",
}
COMMANDS: dict[str, list[str]] = {
    "render": ["render", "-f", "{dir}", "-R"],
    "render --check": ["render", "-f", "{dir}", "-R", "--check"],
    "revision": ["revision", "-f", "{dir}", "-R"],
    "catalog list": ["catalog", "list", "-f", "{dir}"],
    "config": ["config", "-f", "{dir}", "-R"],
    "krm": ["krm"],
    # diff scans directories only for files that load and hold objects a render uses (gitops/relevance.py);
    # a file it is given by name it always reads, as render does
    "diff": ["diff", "{dir}/manifest.yaml", "--base", "main"],
    # suggest leaves alone every VM that names an instancetype or preference, refused or not
    "suggest": ["suggest", "-f", "{dir}", "-R"],
    "capacity": ["capacity", "-f", "{dir}", "-R"],
}
# situation -> command -> status
TABLE: dict[str, dict[str, int | None]] = {
    "clean": {"render": 0, "render --check": 1, "revision": 0, "catalog list": 0, "config": 0, "krm": 0, "diff": 0,
              "suggest": 0, "capacity": 0},
    "refused": {"render": 1, "render --check": 1, "revision": 1, "catalog list": None, "config": None, "krm": 1,
                "diff": 1, "suggest": None, "capacity": 1},
    "unparsable": {"render": 3, "render --check": 3, "revision": 3, "catalog list": 3, "config": 3, "krm": 3,
                   "diff": 3, "suggest": 3, "capacity": 3},
    "other-yaml": {"render": 0, "render --check": 0, "revision": 0, "catalog list": 0, "config": 0, "krm": 0,
                   "diff": 0, "suggest": 0, "capacity": 0},
}
GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("situations")
    for name, text in SITUATIONS.items():
        (root / name).mkdir()
        (root / name / "manifest.yaml").write_text(text)
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "."], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "situations"], cwd=root, check=True)
    return root


@pytest.mark.parametrize("situation", TABLE)
@pytest.mark.parametrize("command", COMMANDS)
def test_exit_status(repo: Path, situation: str, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = TABLE[situation][command]
    if expected is None:
        pytest.skip(f"{command} does not look at what makes {situation} special")
    if command == "diff" and situation == "clean":
        expected = 0  # same at both revisions
    monkeypatch.chdir(repo)
    args = [arg.format(dir=situation) for arg in COMMANDS[command]]
    stdin = (repo / situation / "manifest.yaml").read_text() if command == "krm" else None
    result = CliRunner().invoke(main_group, args, input=stdin)
    assert result.exit_code == expected, result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_options_are_usage_errors(command: str) -> None:
    result = CliRunner().invoke(main_group, [*command.split(), "--no-such-option"])
    assert result.exit_code == 2


@pytest.mark.parametrize("command", ["render", "revision", "catalog list", "catalog show", "config", "krm", "diff",
                                     "capacity"])
def test_help_speaks_only_of_the_commands_own_options(command: str) -> None:
    text = CliRunner().invoke(main_group, [*command.split(), "--help"]).stdout
    assert "Exit status (the same for every command):" in text
    for option in ("--check", "--write", "--output-dir"):
        if option in text:
            assert command == "render", f"{command} --help mentions {option}"
