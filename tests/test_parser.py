"""One YAML parser wherever the tool runs: libyaml, or a clean refusal (issue #16 item 19)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import kubectl_instancetype.yamlio.load as load
from kubectl_instancetype.cli import main_group

# Inputs on which ruamel's pure-Python parser and libyaml disagree: the tool answers as libyaml does.
DISPUTED = [
    ("flow-colon", "apiVersion: v1\nkind: Pod\nspec: {image: quay.io/x:41}\n", "found unexpected ':'"),
    ("surrogate-escape", 'apiVersion: v1\nkind: Pod\nmetadata: {name: "\\ud800"}\n', "YAML syntax error"),
    ("flow-colon-in-list", "apiVersion: v1\nkind: Pod\nspec: [a:1]\n", "found unexpected ':'"),
]


def render(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main_group, ["render", "-f", str(path)])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("name", "text", "message"), DISPUTED, ids=[d[0] for d in DISPUTED])
def test_disputed_inputs_are_read_as_libyaml_reads_them(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    status, stderr = render(path)
    assert status == 3 and message in stderr and stderr.count("\n") == 1, stderr


def test_without_libyaml_nothing_is_parsed_another_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n")
    monkeypatch.setattr(load, "_CParser", None)
    status, stderr = render(path)
    assert (status, stderr) == (3, f"{path}:1:1: error: {load.NO_LIBYAML}\n")
