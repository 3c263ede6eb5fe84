"""A repository holds more YAML than Kubernetes objects: CI workflows, Helm charts, kustomizations.

Documents that are no Kubernetes objects are skipped with a note; ``--exclude`` leaves files out entirely
(a Helm template is not even YAML), for printing, ``--check`` and ``--write`` alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kubectl_instancetype.cli import main_group

FILES = {
    ".github/workflows/ci.yaml": "name: ci\non:\n  pull_request: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "chart/values.yaml": "replicaCount: 2\nimage:\n  tag: v1\n",
    "chart/templates/vm.yaml": "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n"
                               "  name: {{ .Release.Name }}\n",
    "kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
                          "- vms/web.yaml\n",
    "vms/web.yaml": "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: web\nspec:\n"
                    "  instancetype:\n    name: u1.small\n  runStrategy: Always\n  template:\n    spec:\n"
                    "      domain:\n        devices: {}\n",
}
TEMPLATES = ("chart/templates",)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, list(args), prog_name="kubectl instancetype")


def test_other_yaml_is_skipped_with_notes(repo: Path) -> None:
    result = run("render", "-f", ".", "-R", "--exclude", "templates")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        ".github/workflows/ci.yaml:1:1: note: skipped: not a Kubernetes object (no kind)",
        "chart/Chart.yaml:1:1: note: skipped: not a Kubernetes object (no kind)",
        "chart/values.yaml:1:1: note: skipped: not a Kubernetes object (no kind)",
        "kustomization.yaml:1:1: note: skipped: kustomize configuration, not a Kubernetes object",
    ]
    assert result.stdout.count("kind: VirtualMachine") == 1 and "instancetype:" not in result.stdout


def test_without_exclude_a_helm_template_is_an_error(repo: Path) -> None:
    result = run("render", "-f", ".", "-R")
    assert result.exit_code == 3
    assert "chart/templates/vm.yaml:4:" in result.stderr


@pytest.mark.parametrize("patterns", [
    ("templates", ".github", "values.yaml", "kustomization.yaml", "Chart.yaml"),
    ("chart", ".github/**", "kustomization.*"),
    ("**/*.yaml",),
])
def test_excluded_files_give_no_notes(repo: Path, patterns: tuple[str, ...]) -> None:
    args = [arg for pattern in patterns for arg in ("--exclude", pattern)]
    result = run("render", "-f", ".", "-R", *args)
    assert (result.exit_code, result.stderr) == (0, "")


def test_check_and_write_leave_excluded_files_alone(repo: Path) -> None:
    before = {name: (repo / name).read_text() for name in FILES}
    check = run("render", "-f", ".", "-R", "--exclude", "templates", "--check")
    assert check.exit_code == 1 and check.stdout.splitlines() == ["vms/web.yaml"], check.stdout + check.stderr
    write = run("render", "-f", ".", "-R", "--exclude", "templates", "--write")
    assert write.exit_code == 0, write.stderr
    changed = [name for name in FILES if (repo / name).read_text() != before[name]]
    assert changed == ["vms/web.yaml"]


def test_pre_commit_style_file_arguments_are_matched_by_base_name(repo: Path) -> None:
    result = run("render", "--check", "--exclude", "values.yaml", "--exclude", "vm.yaml", "chart/values.yaml",
                 "chart/templates/vm.yaml", "vms/web.yaml")
    assert result.exit_code == 1 and result.stdout == "vms/web.yaml\n", result.stdout + result.stderr


@pytest.mark.parametrize("command", [["revision", "-R"], ["catalog", "list"], ["config", "-R"]])
def test_every_command_that_takes_f_takes_exclude(repo: Path, command: list[str]) -> None:
    result = run(*command, "-f", ".", "--exclude", "templates", "--exclude", ".github")
    assert result.exit_code == 0, result.stderr
    assert "templates" not in result.stderr and ".github" not in result.stderr
