"""``render --write``, ``--output-dir``, ``--check`` and ``--diff``: goldens per style variant, the sample GitOps
repository, atomic writes, and the options that cannot be combined.

Each ``testdata/gitops/styles/<variant>/`` holds ``input.yaml`` (or ``input.json``), ``expected.yaml`` (or
``.json``): the file after ``render --write``, ``expected.stderr`` and, when it is not 0, ``exit``.
``pytest --update-goldens`` writes the expected files again. Files are compared as bytes.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import ROOT, TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio.load import load_stream

STYLES = sorted(p for p in (TESTDATA / "gitops" / "styles").iterdir() if p.is_dir())
GITOPS = TESTDATA / "gitops"
REPO_ARGS = ["-f", "vms", "-R", "--catalog", "catalog", "--no-builtin-catalog"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, ["render", *args], prog_name="kubectl instancetype")


def _input(case: Path) -> Path:
    return next(case.glob("input.*"))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample GitOps repository, as the working directory."""
    shutil.copytree(GITOPS / "repo", tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "repo")
    return tmp_path / "repo"


@pytest.mark.parametrize("case", STYLES, ids=[c.name for c in STYLES])
def test_write_golden(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, update_goldens: bool) -> None:
    name = _input(case).name
    shutil.copy(_input(case), tmp_path / name)
    monkeypatch.chdir(tmp_path)
    result = run("--write", name)
    written = (tmp_path / name).read_bytes()
    expected = case / name.replace("input", "expected")
    if update_goldens:
        expected.write_bytes(written)
        (case / "expected.stderr").write_text(result.stderr)
    status = int((case / "exit").read_text()) if (case / "exit").exists() else 0
    assert (result.exit_code, result.stdout) == (status, "")
    assert result.stderr == (case / "expected.stderr").read_text()
    assert written == expected.read_bytes()


@pytest.mark.parametrize("case", STYLES, ids=[c.name for c in STYLES])
def test_second_write_changes_nothing_and_check_passes(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = next(case.glob("expected.*[!r]"))  # expected.yaml or expected.json, not expected.stderr
    shutil.copy(expected, tmp_path / expected.name)
    monkeypatch.chdir(tmp_path)
    before = expected.read_bytes()
    assert "wrote" not in run("--write", expected.name).stderr
    assert (tmp_path / expected.name).read_bytes() == before
    check = run("--check", expected.name)
    assert check.stdout == ""
    assert check.exit_code == (1 if (case / "exit").exists() else 0)  # a failing VM still fails


@pytest.mark.parametrize("case", STYLES, ids=[c.name for c in STYLES])
def test_check_lists_the_file_and_diff_shows_the_write(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _input(case).name
    shutil.copy(_input(case), tmp_path / name)
    monkeypatch.chdir(tmp_path)
    check = run("--check", name)
    assert (check.exit_code, check.stdout) == (1, f"{name}\n")
    assert check.stderr.endswith("1 file would be rewritten\n")
    diff = run("--diff", "--color", "never", name)
    assert diff.exit_code == 1  # it shows changes: as black --diff --check, ruff format --diff, git diff --exit-code
    assert diff.stdout.startswith(f"--- {name}\n+++ {name}\n@@ ")
    assert "\x1b[" in run("--diff", "--color", "always", name).stdout
    assert (tmp_path / name).read_bytes() == _input(case).read_bytes()  # nothing written


def _nothing_to_expand(path: Path) -> bool:
    """Whether ``path`` is a manifest file without a VM (or pool template) that names an instancetype or
    preference."""
    try:
        text = path.read_bytes().decode("utf-8")
        docs = load_stream(text, str(path))
    except Exception:
        return True  # files that do not load are refused, and must stay as they are too
    stack = [d.data for d in docs]
    while stack:
        data = stack.pop()
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            stack.extend(data["items"])
        elif isinstance(data, dict) and data.get("kind") == "VirtualMachinePool":
            stack.append({"kind": "VirtualMachine", **((data.get("spec") or {}).get("virtualMachineTemplate") or {})})
        elif isinstance(data, dict) and data.get("kind") == "VirtualMachine":
            spec = data.get("spec") or {}
            if isinstance(spec, dict) and ("instancetype" in spec or "preference" in spec):
                return False
    return True


# KubeVirt's corpora and answers and the reproducers of what KubeVirt does to a running VM, run by their own
# tests (a VM without matchers there may well come back
# re-encoded, as KubeVirt prints it: machine: {} gains type: "")
CORPORA = (TESTDATA / "conformance", TESTDATA / "conformance-releases", TESTDATA / "validation",
           TESTDATA / "kubevirt-answers", TESTDATA / "wild", TESTDATA / "conformance-restart",
           TESTDATA / "newcomer-t6", TESTDATA / "conformance-pods", TESTDATA / "launcher-answers",
           TESTDATA / "launcher-releases")
UNEXPANDABLE = sorted(
    p for p in TESTDATA.rglob("*")
    if p.suffix in (".yaml", ".yml", ".json") and p.is_file()
    and not any(p.is_relative_to(corpus) for corpus in CORPORA) and _nothing_to_expand(p)
)


def test_every_testdata_file_with_nothing_to_expand_stays_byte_identical(tmp_path: Path) -> None:
    assert len(UNEXPANDABLE) > 50
    copies = []
    for i, path in enumerate(UNEXPANDABLE):
        copy = tmp_path / f"{i:04d}{path.suffix}"
        shutil.copyfile(path, copy)
        copies.append((path, copy))
    result = run("--write", "--no-builtin-catalog", *(str(c) for _, c in copies))
    assert "wrote" not in result.stderr, result.stderr
    for path, copy in copies:
        assert copy.read_bytes() == path.read_bytes(), path


def test_output_dir_holds_what_write_writes(repo: Path) -> None:
    assert run(*REPO_ARGS, "--output-dir", "rendered").exit_code == 0
    assert run(*REPO_ARGS, "--write").exit_code == 0
    for written in (repo / "vms").rglob("*.yaml"):
        assert (repo / "rendered" / written.relative_to(repo / "vms")).read_bytes() == written.read_bytes()


def test_check_with_output_dir_compares_the_rendered_outputs(repo: Path) -> None:
    missing = run(*REPO_ARGS, "--output-dir", "rendered", "--check")
    assert missing.exit_code == 1
    outputs = ["rendered/legacy.yaml", "rendered/team-a/db.yaml", "rendered/team-a/web.yaml"]
    assert missing.stdout.splitlines() == outputs
    assert missing.stderr == "3 files would be written\n"
    run(*REPO_ARGS, "--output-dir", "rendered")
    assert run(*REPO_ARGS, "--output-dir", "rendered", "--check").exit_code == 0
    catalog = repo / "catalog" / "instancetypes.yaml"
    catalog.write_text(catalog.read_text().replace("guest: 4Gi", "guest: 8Gi"))  # a catalog bump
    stale = run(*REPO_ARGS, "--output-dir", "rendered", "--check")
    assert (stale.exit_code, stale.stdout) == (1, "rendered/team-a/web.yaml\n")
    assert (repo / "vms" / "team-a" / "web.yaml").read_bytes() == (GITOPS / "repo/vms/team-a/web.yaml").read_bytes()


def test_output_dir_names_single_files_by_their_base_name(repo: Path) -> None:
    result = run("vms/legacy.yaml", "vms/team-a/web.yaml", "--output-dir", "out", "--check")
    assert result.stdout == "out/legacy.yaml\nout/web.yaml\n"
    clash = run("vms/legacy.yaml", "vms/team-a/web.yaml", "vms/team-a/../legacy.yaml", "--output-dir", "out")
    assert clash.exit_code == 2
    assert "vms/legacy.yaml and vms/team-a/../legacy.yaml would both be written to out/legacy.yaml" in clash.stderr


def test_the_sample_repository_end_to_end(repo: Path, update_goldens: bool) -> None:
    """--check fails, --write fixes it with a minimal git diff, --check passes."""
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "diff.noprefix=false",
           "-c", "diff.mnemonicPrefix=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "sample"], check=True)
    check = run(*REPO_ARGS, "--check")
    assert (check.exit_code, check.stdout) == (1, "vms/team-a/db.yaml\nvms/team-a/web.yaml\n")
    write = run(*REPO_ARGS, "--write")
    assert (write.exit_code, write.stdout) == (0, "")
    assert write.stderr == "wrote vms/team-a/db.yaml\nwrote vms/team-a/web.yaml\n"
    diff = subprocess.run([*git, "diff", "--no-color"], capture_output=True, text=True, check=True).stdout
    if update_goldens:
        (GITOPS / "write.diff").write_text(diff)
    assert diff == (GITOPS / "write.diff").read_text()
    assert run(*REPO_ARGS, "--check").exit_code == 0


def test_failing_vm_with_check_exits_1_with_its_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(GITOPS / "styles" / "failing-vm" / "expected.yaml", tmp_path / "vm.yaml")
    monkeypatch.chdir(tmp_path)
    result = run("--check", "vm.yaml")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("vm.yaml:14:11: error: VirtualMachine default/conflicting: VM field(s)")


def test_files_that_cannot_be_processed_are_not_written(repo: Path) -> None:
    (repo / "vms" / "broken.yaml").write_text("kind: [\n")
    result = run(*REPO_ARGS, "--write")
    assert result.exit_code == 3
    assert result.stderr.startswith("vms/broken.yaml:2:1: error: ")
    assert "wrote vms/team-a/web.yaml" in result.stderr  # the other files still are
    assert (repo / "vms" / "broken.yaml").read_text() == "kind: [\n"


def test_writes_keep_permissions_follow_symlinks_and_leave_no_temporary_files(repo: Path) -> None:
    web = repo / "vms" / "team-a" / "web.yaml"
    web.chmod(0o640)
    os.symlink("team-a/web.yaml", repo / "vms" / "link.yaml")
    assert run("vms/link.yaml", "--catalog", "catalog", "--write").exit_code == 0
    assert (repo / "vms" / "link.yaml").is_symlink()
    assert stat.S_IMODE(web.stat().st_mode) == 0o640
    assert "spec:\n  runStrategy: Always\n  # Sized by" in web.read_text()
    assert sorted(p.name for p in web.parent.iterdir()) == ["db.yaml", "web.yaml"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--write", "-f", "-"], "cannot write the expansion of <stdin>"),
        (["--write", "--output-dir", "out", "vms"], "--write and --output-dir exclude each other"),
        (["--write", "-o", "json", "vms"], "drop -o/--vmi"),
        (["--check", "--vmi", "vms"], "drop -o/--vmi"),
        ([], "no input: give -f PATH or PATH arguments"),
    ],
)
def test_usage_errors(repo: Path, args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert (repo / "vms" / "team-a" / "web.yaml").read_bytes() == (GITOPS / "repo/vms/team-a/web.yaml").read_bytes()


def test_printing_is_unchanged_by_the_write_options(repo: Path) -> None:
    assert run(*REPO_ARGS, "-o", "json").stdout == run(*REPO_ARGS[2:], "-f", "vms", "-o", "json").stdout
    assert run("vms/team-a/db.yaml", "--catalog", "catalog", "-o", "json").exit_code == 0


@pytest.mark.slow
def test_installed_executable_checks_and_writes(repo: Path) -> None:
    exe = str(Path(sys.executable).with_name("kubectl-instancetype"))
    check = subprocess.run([exe, "render", *REPO_ARGS, "--check"], capture_output=True, text=True)
    assert (check.returncode, check.stdout) == (1, "vms/team-a/db.yaml\nvms/team-a/web.yaml\n")
    subprocess.run([exe, "render", *REPO_ARGS, "--write"], capture_output=True, check=True)
    assert subprocess.run([exe, "render", *REPO_ARGS, "--check"], capture_output=True).returncode == 0
    assert ROOT.exists()
