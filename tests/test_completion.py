"""Shell completion: the Cobra answers of ``__complete``, names in scope, and the shipped executables for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import ROOT

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.cli.complete import (
    FILTER_FILE_EXT,
    NO_FILE_COMP,
    Completion,
    catalog_names,
    complete,
    instancetype_names,
    kubectl_complete,
    preference_names,
)

PLUGINS = ROOT / "plugins"
VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
MANIFESTS = (("yaml", ""), ("yml", ""), ("json", ""))

INSTANCETYPE = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineInstancetype
metadata:
  name: {name}
spec: {{cpu: {{guest: 1}}, memory: {{guest: 1Gi}}}}
"""
PREFERENCE = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterPreference
metadata:
  name: {name}
spec: {{}}
"""


def values(words: list[str]) -> list[str]:
    return [value for value, _ in complete(main_group, words).candidates]


@pytest.mark.parametrize(("words", "expected", "directive"), [
    (["ren"], ["render"], NO_FILE_COMP),
    (["k"], ["krm"], NO_FILE_COMP),
    (["render", "-o", ""], ["yaml", "json", "patch"], NO_FILE_COMP),
    (["validate", "-o", ""], ["text", "json", "sarif", "junit", "github"], NO_FILE_COMP),
    (["validate", "--output-format", "s"], ["sarif"], NO_FILE_COMP),
    (["diff", "-o", ""], ["json", "markdown", "text"], NO_FILE_COMP),
    (["diff", "--format", "m"], ["markdown"], NO_FILE_COMP),
    (["render", "--arch", "a"], ["amd64", "arm64"], NO_FILE_COMP),
    (["render", "--vm"], ["--vmi"], NO_FILE_COMP),
    (["krm", "--no-"], ["--no-builtin-catalog"], NO_FILE_COMP),
    (["--no"], ["--no-builtin-catalog"], NO_FILE_COMP),
])
def test_candidates(words: list[str], expected: list[str], directive: int) -> None:
    answer = complete(main_group, words)
    assert [v for v, _ in answer.candidates] == expected
    assert answer.directive == directive


@pytest.mark.parametrize("words", [
    ["render", "-f", ""],
    ["render", "--filename", "vm"],
    ["render", "-f", "a.yaml", "--catalog", ""],
    ["render", "--kubevirt-config", ""],
    ["catalog", "list", "--catalog", ""],
])
def test_manifest_paths_complete_as_yaml_and_json_files(words: list[str]) -> None:
    assert complete(main_group, words) == Completion(MANIFESTS, FILTER_FILE_EXT)


def test_hidden_commands_are_not_offered() -> None:
    offered = values([""])
    assert "__complete" not in offered
    assert {"render", "krm", "catalog", "config"} <= set(offered)


def test_subcommands_come_with_their_short_help() -> None:
    answer = dict(complete(main_group, ["re"]).candidates)
    assert answer["render"].startswith("Expand VirtualMachines")
    assert all("\t" not in d and "\n" not in d for d in dict(complete(main_group, ["render", "-"]).candidates).values())


class BrokenGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        raise ImportError("a command module that cannot be imported")


def test_a_failing_completion_gets_the_error_directive_not_a_traceback() -> None:
    assert complete(BrokenGroup(), [""]) == Completion((), 1)


@pytest.mark.parametrize(("words", "stdout"), [
    (["render", "--arch", "s"], "s390x\n:4\n"),
    (["render", "-f", "x"], "yaml\nyml\njson\n:8\n"),
    (["krm", ""], ":0\n"),
    ([], None),
])
def test_cobra_answer(words: list[str], stdout: str | None) -> None:
    result = CliRunner().invoke(main_group, ["__complete", *words])
    assert result.exit_code == 0
    if stdout is not None:
        assert result.stdout == stdout
    else:
        assert result.stdout.endswith("\n:4\n") and "render\t" in result.stdout


@click.command()
@click.option("-f", "--filename", "filenames", multiple=True, metavar="PATH")
@click.option("-R", "--recursive", is_flag=True)
@click.option("--catalog", "catalogs", multiple=True, metavar="PATH")
@click.option("--no-builtin-catalog", "no_builtin", is_flag=True)
@click.option("--instancetype", shell_complete=instancetype_names)
@click.option("--preference", shell_complete=preference_names)
@click.argument("name", required=False, shell_complete=catalog_names)
def names_command(**_: object) -> None:
    """A command whose parameters take names, as a command of ours would declare them."""


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cat").mkdir()
    (tmp_path / "cat" / "it.yaml").write_text(INSTANCETYPE.format(name="ours.small"))
    (tmp_path / "cat" / "deep").mkdir()
    (tmp_path / "cat" / "deep" / "pref.yaml").write_text(PREFERENCE.format(name="ours-os"))
    (tmp_path / "vm.yaml").write_text(INSTANCETYPE.format(name="local.large") + "---\n" + PREFERENCE.format(
        name="local-os"))
    return tmp_path


@pytest.mark.parametrize(("words", "expected"), [
    (["--instancetype", "ours"], []),  # nothing named in scope: the built-in catalog only
    (["--catalog", "cat", "--instancetype", "ours"], ["ours.small"]),
    (["--catalog", "cat", "--no-builtin-catalog", "--instancetype", ""], ["ours.small"]),
    (["-f", "vm.yaml", "--no-builtin-catalog", "--instancetype", ""], ["local.large"]),
    (["-f", "vm.yaml", "--no-builtin-catalog", "--preference", ""], ["local-os"]),
    (["--catalog", "cat", "--no-builtin-catalog", "--preference", ""], ["ours-os"]),  # --catalog dirs recurse
    (["-f", ".", "--no-builtin-catalog", "--preference", ""], ["local-os"]),  # -f dirs only with -R
    (["-f", ".", "-R", "--no-builtin-catalog", "--preference", ""], ["local-os", "ours-os"]),
    (["-f", "vm.yaml", "--catalog", "cat", "--no-builtin-catalog", ""], ["local-os", "local.large", "ours-os",
                                                                          "ours.small"]),
    (["-f", "-", "--catalog", "https://example.invalid/c.yaml", "--no-builtin-catalog", ""], []),
])
def test_names_in_scope(catalogs: Path, words: list[str], expected: list[str]) -> None:
    assert values_of(words) == expected


def test_builtin_names_complete_without_any_file(catalogs: Path) -> None:
    assert "u1.medium" in values_of(["--instancetype", "u1.m"])
    assert {"fedora", "rhel.9"} <= set(values_of(["--preference", ""]))
    assert "u1.medium" not in values_of(["--no-builtin-catalog", "--instancetype", "u1.m"])
    assert {"u1.medium", "fedora"} <= set(values_of([""]))


def values_of(words: list[str]) -> list[str]:
    return [v for v, _ in complete(names_command, words).candidates]


def _env(path_first: Path | None = None) -> dict[str, str]:
    """PATH with the virtualenv (its python3 has the dependencies) and, first, ``path_first``."""
    dirs = [str(d) for d in (path_first, VENV_BIN) if d is not None]
    return {**os.environ, "PATH": os.pathsep.join([*dirs, os.environ.get("PATH", "")])}


@pytest.mark.slow
def test_kubectl_complete_executable() -> None:
    done = subprocess.run([str(PLUGINS / "kubectl_complete-instancetype"), "render", "--ar"], env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "--arch\tThe cluster's default architecture.\n:4\n"), done.stderr


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_completes_the_plugin_through_it() -> None:
    """kubectl (1.26+) finds kubectl_complete-instancetype on PATH and passes its answer on."""
    done = subprocess.run(["kubectl", "__complete", "instancetype", "render", "-o", ""], env=_env(PLUGINS),
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "yaml\njson\npatch\n:4\n", done.stderr


@pytest.mark.slow
def test_click_completion_of_the_launcher_in_bash() -> None:
    """click's own completion for the executable, sourced into a real bash."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    script = (
        'source <(_KUBECTL_INSTANCETYPE_COMPLETE=bash_source kubectl-instancetype)\n'
        'COMP_WORDS=(kubectl-instancetype render --ar); COMP_CWORD=2\n'
        '_kubectl_instancetype_completion kubectl-instancetype --ar render\n'  # bash passes: command, word, previous
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "-c", script], env=_env(PLUGINS), capture_output=True, text=True, timeout=60)
    assert done.stdout == "--arch\n", done.stderr


def test_console_script_entry_point(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.argv", ["kubectl_complete-instancetype", "render", "--arch", "arm"])
    kubectl_complete()
    assert capsys.readouterr().out == "arm64\n:4\n"
