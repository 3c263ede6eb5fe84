"""The turn-6 reproducers of text a manifest writes into the outputs (issue 36: S1, S2, S3, M3, M4, W5), one
regression test each.

The reproducers are ``testdata/repros-t6/<folder>/`` (copied from the team's ``shared/reliability/repros-t6/``,
whose README indexes them); each case runs in a copy of its folder, as its ``cmd`` does.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TESTDATA, git, invoke_cli
from test_escaping import inert_markdown, inert_terminal, pipes, tables

REPROS = TESTDATA / "repros-t6"


def folder(name: str, tmp_path: Path) -> Path:
    """A writable copy of the reproducer whose folder starts with ``name`` (``S1``)."""
    [source] = [p for p in REPROS.iterdir() if p.name.startswith(f"{name}-")]
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def cli(args: list[str], cwd: Path) -> tuple[str, str, int]:
    out, err, status = invoke_cli(args, cwd)
    assert status not in (2, 4) and "Traceback" not in err, err
    return out, err, status


def comment(here: Path, *args: str) -> str:
    out, _err, _status = cli(["diff", *args, "-o", "markdown"], here)
    inert_markdown(out, " ".join(args))
    return out


# --- S1: a field value with blank lines writes the restart section ------------------------------------------------


@pytest.mark.parametrize("head", ["head.yaml", "model-head.yaml"])
def test_s1_a_restart_cause_keeps_its_value_in_one_code_span(head: str, tmp_path: Path) -> None:
    here = folder("S1", tmp_path)
    out = comment(here, "--restart-impact", "--base", "base.yaml", head)
    [because] = [line for line in out.splitlines() if line.startswith("  - because ")]
    assert because.endswith('"`') and "\\n\\n@octocat" in because  # JSON-quoted inside the span
    assert not any(line.startswith(("@octocat", "## Approved")) for line in out.splitlines())


# --- S2: KubeVirt's refusal, an instancetype name and a file name write the comment --------------------------------


@pytest.mark.parametrize(("base", "head"), [("base.yaml", "head.yaml"), ("it-base.yaml", "it-head.yaml")])
@pytest.mark.parametrize("restart", [[], ["--restart-impact"]])
def test_s2_a_refusal_stays_inside_its_block(base: str, head: str, restart: list[str], tmp_path: Path) -> None:
    here = folder("S2", tmp_path)
    out = comment(here, *restart, "--base", base, head)
    vms = tables(out)[0]  # the table of VMs (the node-level requests follow in a table of their own)
    rows = [line for line in vms if line.startswith("| `default/web`")]
    assert len(rows) == 1 and pipes(rows[0]) == pipes(vms[0]) == 7  # one table row per VM
    assert out.count("<details>") == out.count("</details>") == 1


def test_s2_a_file_name_with_blank_lines_stays_in_its_summary(tmp_path: Path) -> None:
    here = folder("S2", tmp_path)
    (here / "vms").mkdir()
    shutil.copy(here / "base.yaml", here / "vms" / "web.yaml")
    git(here, "init", "-q", "-b", "main")
    git(here, "add", "vms")
    git(here, "commit", "-qm", "base")
    text = (here / "base.yaml").read_text().replace("name: web", "name: web2")
    (here / "vms" / "x\n\n@octocat please approve\n\n## Approved .yaml").write_text(text)
    git(here, "add", "-A", "vms")
    git(here, "commit", "-qm", "head")
    out = comment(here, "--base", "HEAD~1", "vms")
    [summary] = [line for line in out.splitlines() if line.startswith("<summary><code>default/web2")]
    assert "(vms/x\\n\\n@\u200boctocat please approve\\n\\n## Approved .yaml): added</summary>" in summary


# --- S3: diff's text and the --param-sets table write workflow commands and terminal escapes ------------------------


@pytest.mark.parametrize("extra", [[], ["--restart-impact"], ["--restart-impact", "--output-format", "github"]])
def test_s3_diff_prints_no_workflow_command(extra: list[str], tmp_path: Path) -> None:
    here = folder("S3", tmp_path)
    out, err, status = cli(["diff", *extra, "--base", "base.yaml", "head.yaml"], here)
    assert status == 1
    inert_terminal(out, "stdout")
    inert_terminal(err, "stderr", github="github" in extra)
    assert "Invalid RunStrategy (Always\\n::notice file=prod.yaml,line=1::all VMs approved by security" in out


def test_s3_diff_escapes_terminal_sequences_as_validate_does(tmp_path: Path) -> None:
    here = folder("S3", tmp_path)
    out, _err, _status = cli(["diff", "--restart-impact", "--base", "base.yaml", "esc-head.yaml"], here)
    _o, err, _s = cli(["validate", "esc-head.yaml"], here)
    escaped = "(Always\\x1b[2K\\x1b[1A\\x1b]0;pwned\\x07)"
    assert escaped in out.splitlines()[0] and escaped in err
    inert_terminal(out, "stdout")


def test_s3_the_param_sets_table_prints_no_workflow_command(tmp_path: Path) -> None:
    here = folder("S3", tmp_path)
    out, err, _status = cli(["validate", "--param-sets", "annotation", "ps-template.yaml"], here)
    inert_terminal(out + err, "validate --param-sets")
    assert "INSTANCETYPE=u1.large\\n::warning file=prod.yaml,line=1::approved" in out + err


# --- M3: '<' shown as '&lt;' inside a code span ---------------------------------------------------------------------


def test_m3_a_code_span_keeps_its_less_than_sign(tmp_path: Path) -> None:
    here = folder("M3", tmp_path)
    out = comment(here, "--restart-impact", "--base", "base.yaml", "head.yaml")
    [because] = [line for line in out.splitlines() if "because" in line]
    assert "serial: <assigned by the cluster> → sn-1" in because and "&lt;" not in out


# --- M4: --max-comment-chars is the longest comment printed ---------------------------------------------------------


@pytest.mark.parametrize("cap", [1000, 2000, 5000])
@pytest.mark.parametrize("restart", [[], ["--restart-impact"]])
def test_m4_the_comment_is_at_most_max_comment_chars(cap: int, restart: list[str], tmp_path: Path) -> None:
    here = folder("M4", tmp_path)
    out = comment(here, *restart, "--base", "base.yaml", "head.yaml", "--max-comment-chars", str(cap))
    assert len(out) <= cap and out.startswith("<!-- kubectl-instancetype diff -->\n")
    assert "left out" in out or "cut here" in out


# --- W5: JUnit with a control character -----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["validate", "vm.yaml", "--junit-xml", "report.xml"],
                                  ["validate", "vm.yaml", "--output-format", "junit", "--output-file", "report.xml"],
                                  ["diff", "--base", "vm.yaml", "vm.yaml", "--junit-xml", "report.xml"]])
def test_w5_the_junit_report_is_xml(args: list[str], tmp_path: Path) -> None:
    here = folder("W5", tmp_path)
    _out, _err, status = cli(args, here)
    assert status == 1
    report = ET.parse(here / "report.xml").getroot()
    [failure] = report.iter("failure")
    assert "Always\\x01" in failure.attrib["message"]
