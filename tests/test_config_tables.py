"""A command's table of the config file accepts that command's options (``diff: {restart-impact: true, fail-on:
restart}``), read from the click command, with the command line's checks; a mistake is one located line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from conftest import invoke_cli

from kubectl_instancetype.cli import COMMANDS, tables
from kubectl_instancetype.cli import settings as config

NAMES = sorted(name for name in COMMANDS if not name.startswith("_"))


def sample(setting: tables.Setting) -> Any:
    """A value of the right type for ``setting``, as a team would write it."""
    option = setting.option
    if option.is_flag:
        return True
    if isinstance(option.type, click.Choice):
        return str(option.type.choices[0])
    if isinstance(option.type, click.types.IntParamType):
        return option.type.min if isinstance(option.type, click.IntRange) and option.type.min is not None else 1
    if isinstance(option.type, click.types.FloatParamType):
        return 1.5
    return "value"


@pytest.mark.parametrize("name", NAMES)
def test_every_option_of_every_command_is_a_key_of_its_table(name: str, tmp_path: Path) -> None:
    command = tables.command(name)
    assert command is not None
    keys = tables.settings(command)
    options = {k: v for k, v in keys.items() if k not in config.KEYS}
    assert options or name in ("config", "schema"), name  # every command but these two has options of its own
    from ruamel.yaml import YAML

    path = tmp_path / ".kubectl-instancetype.yaml"
    with path.open("w") as out:
        YAML().dump({name: {key: sample(setting) for key, setting in options.items()}}, out)
    found = config.default_map(path, name)
    for key, setting in options.items():
        expected = sample(setting)
        got = found[setting.param]
        if setting.option.multiple:
            assert len(got) == 1, key
        elif isinstance(setting.option.type, click.Path):
            assert Path(got).resolve() == tmp_path.resolve() / expected, key  # relative to the file
        else:
            assert got == expected, key


def test_restart_impact_and_fail_on_from_the_diff_table() -> None:
    command = tables.command("diff")
    assert command is not None
    keys = tables.settings(command)
    assert {"restart-impact", "fail-on", "vmi-migratable", "vmi-arch", "format", "base"} <= set(keys)
    assert keys["fail-on"].kind.startswith("one of live, restart, stop, error")


@pytest.mark.parametrize(("text", "message"), [
    ("diff:\n  fail-on: restrat\n",
     ".kubectl-instancetype.yaml:2:3: error: diff.fail-on: must be one of live, restart, stop, error "
     "(it is 'restrat')"),
    ("diff:\n  restart-impact: 'yes'\n",
     ".kubectl-instancetype.yaml:2:3: error: diff.restart-impact: must be true or false (it is 'yes')"),
    ("diff:\n  restart-impact: null\n",
     ".kubectl-instancetype.yaml:2:3: error: diff.restart-impact: must be true or false (it is empty: null)"),
    ("render:\n  max-nodes: 0\n",
     ".kubectl-instancetype.yaml:2:3: error: render.max-nodes: must be a whole number of at least 1 (it is 0)"),
    ("render:\n  jobs: 1.5\n",
     ".kubectl-instancetype.yaml:2:3: error: render.jobs: must be a whole number of at least 0 (it is 1.5)"),
    ("render:\n  jobs: true\n",
     ".kubectl-instancetype.yaml:2:3: error: render.jobs: must be a whole number of at least 0 (it is true)"),
    ("diff:\n  vmi-arch: [amd64]\n",
     ".kubectl-instancetype.yaml:2:3: error: diff.vmi-arch: must be one of amd64, arm64, s390x (it is a list)"),
    ("namespace: apps\ndiff:\n  restart-impact: true\n  fial-on: restart\n",
     ".kubectl-instancetype.yaml:4:3: error: unknown setting 'diff.fial-on' (did you mean 'fail-on'? known: "
     "accept-removed-versions, arch, "),
])
def test_a_wrong_value_is_one_located_line_whichever_command_runs(text: str, message: str, tmp_path: Path) -> None:
    (tmp_path / ".kubectl-instancetype.yaml").write_text(text)
    for command in ("render", "validate"):
        out, err, status = invoke_cli([command, "-f", "vm.yaml"], tmp_path)
        assert (status, out) == (2, "")
        assert err.splitlines()[-1].startswith(f"Error: {message}"), err


VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web
  namespace: apps
spec:
  runStrategy: Always
  template:
    spec:
      domain:
        memory:
          guest: 1Gi
        devices: {devices}
"""


@pytest.mark.parametrize(("table", "status"), [
    ("", 1),  # any change of an expansion
    ("diff:\n  restart-impact: true\n", 1),
    ("diff:\n  restart-impact: true\n  fail-on: restart\n", 1),  # a non-live-updatable field: restart required
    ("diff:\n  restart-impact: true\n  fail-on: error\n", 0),  # no VM refused: the gate passes
])
def test_the_diff_table_is_the_teams_restart_gate(table: str, status: int, tmp_path: Path) -> None:
    for side, devices in (("old", "{}"), ("new", "{autoattachSerialConsole: false}")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "vm.yaml").write_text(VM.format(devices=devices))
    (tmp_path / ".kubectl-instancetype.yaml").write_text(table)
    out, err, got = invoke_cli(["diff", "--base", "old", "new"], tmp_path)
    assert got == status, err
    assert ("restart impact:" in out) == bool(table)
    assert ("VirtualMachine apps/web:" in err) == ("fail-on: restart" in table)  # the gate's finding


@pytest.mark.parametrize(("text", "message"), [
    ('[project]\nname = "x"\n\n[tool.kubectl-instancetype]\nnamespace = "apps"\ncatalogue = ["x"]\n',
     "pyproject.toml:6:1: error: unknown setting 'catalogue' (did you mean 'catalog' or 'catalogs'?"),
    ('[tool.kubectl-instancetype.diff]\nrestart-impact = true\n  fail-on = "restrat"\n',
     "pyproject.toml:3:3: error: diff.fail-on: must be one of live, restart, stop, error (it is 'restrat')"),
    ('[tool.kubectl-instancetype]\ndiff = {restart-impact = "yes"}\n',  # an inline table: the line that holds it
     "pyproject.toml:2:1: error: diff.restart-impact: must be true or false (it is 'yes')"),
    ('[tool."kubectl-instancetype"]\nnamespace = 1\n',
     "pyproject.toml:2:1: error: namespace: must be a string (it is a number)"),
])
def test_a_pyproject_mistake_is_located_too(text: str, message: str, tmp_path: Path) -> None:
    """tomllib keeps no positions: the key's line is found in the text (cli/tomlkeys.py)."""
    (tmp_path / "pyproject.toml").write_text(text)
    out, err, status = invoke_cli(["render", "-f", "vm.yaml"], tmp_path)
    assert (status, out) == (2, "")
    assert err.splitlines()[-1].startswith(f"Error: {message}"), err


def test_fail_on_without_restart_impact_names_the_table(tmp_path: Path) -> None:
    """The usage error of --fail-on without --restart-impact says the config file set it, not the user."""
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "vm.yaml").write_text(VM.format(devices="{}"))
    (tmp_path / ".kubectl-instancetype.yaml").write_text("diff:\n  fail-on: restart\n")
    _out, err, status = invoke_cli(["diff", "--base", "old", "new"], tmp_path)
    assert status == 2 and err.splitlines()[-1].endswith(
        "go with --restart-impact (the config file's diff table sets fail-on: add restart-impact: true there too)")
    _out, err, status = invoke_cli(["diff", "--base", "old", "new", "--config", "", "--fail-on", "live"], tmp_path)
    assert status == 2 and err.splitlines()[-1].endswith("go with --restart-impact")
