"""Standard output in a GitHub Actions log: a line of the user's files that the runner would read as a workflow
command (`` ::notice::…`` in a block scalar, printed as it is by ``render --diff``, ``render`` and ``diff -o
markdown``) comes after ``::stop-commands::TOKEN`` and the output ends with ``::TOKEN::``; every other output, and
every run outside GitHub Actions, is byte for byte what it was (testdata/ci-log: a VM whose cloud-init holds
such lines)."""

from __future__ import annotations

import io
import secrets
import shutil
from pathlib import Path

import pytest
from conftest import invoke_cli

from kubectl_instancetype.cli import ci_log

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "ci-log"
ACTIONS = {"GITHUB_ACTIONS": "true"}
STOP, RESUME = "::stop-commands::T0KEN\n", "::T0KEN::\n"


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "token_hex", lambda _n: "T0KEN")  # ci_log imports it when it guards


@pytest.fixture
def here(tmp_path: Path) -> Path:
    for name in ("vm.yaml", "head.yaml", "template.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("args", [["render", "--diff", "-f", "vm.yaml"], ["render", "-f", "vm.yaml"],
                                  ["diff", "--base", "vm.yaml", "head.yaml", "-o", "markdown"],
                                  ["diff", "--restart-impact", "--base", "vm.yaml", "head.yaml", "-o", "markdown"],
                                  ["suggest", "vm.yaml"], ["template", "process", "-f", "template.yaml"]])
def test_file_text_is_no_workflow_command(args: list[str], here: Path) -> None:
    plain, plain_err, plain_status = invoke_cli(args, here)
    assert any(line.lstrip().startswith("::notice::") for line in plain.split("\n"))  # the file's line as it is
    out, _err, status = invoke_cli(args, here, env=ACTIONS)
    assert (out, status) == (STOP + plain + RESUME, plain_status), plain_err


def test_the_diff_still_applies(here: Path) -> None:
    """The stop goes before a file's diff, not into its hunk: patch and git apply skip lines between files."""
    out, _err, status = invoke_cli(["render", "--diff", "-f", "vm.yaml"], here, env=ACTIONS)
    assert status == 1 and out.startswith(STOP + "--- vm.yaml\n+++ vm.yaml\n@@ ") and out.endswith("\n" + RESUME)


@pytest.mark.parametrize("args", [["render", "-f", "head.yaml"], ["diff", "--base", "vm.yaml", "head.yaml"]])
def test_output_without_commands_is_unchanged(args: list[str], here: Path) -> None:
    """No line the runner reads as a command (diff's text view escapes the manifests' lines anyway)."""
    (here / "head.yaml").write_text((here / "head.yaml").read_text().replace("::notice::", "notice::"))
    assert invoke_cli(args, here, env=ACTIONS) == invoke_cli(args, here)


def test_pieces_and_a_last_line_without_newline() -> None:
    out = io.StringIO()
    guard = ci_log._Guarded(out, "T0KEN")
    for piece in ("a\n", "b", "\n ::x::y\nc\n", "  ##[group]d"):
        guard.write(piece)
    guard.close()
    # the stop before the piece the command completes (from the start of the line it continues)
    assert out.getvalue() == "a\n" + STOP + "b\n ::x::y\nc\n  ##[group]d\n" + RESUME


def test_a_file_is_written_as_it_is(tmp_path: Path) -> None:
    """Output redirected to a file is no log the runner reads: no stop there."""
    with open(tmp_path / "out", "w") as file:
        assert ci_log._regular_file(file)
    assert not ci_log._regular_file(io.StringIO())
