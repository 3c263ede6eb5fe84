"""What a newcomer runs into (issue 24), each situation a directory of testdata/newcomer driving the CLI.

A case holds its input files, ``args`` (one argument a line) and the goldens ``stdout``, ``stderr`` and
``status`` (the exit status). The case is copied to a temporary directory and run there, so paths in the
messages are relative and files a command writes stay out of the tree; ``expected/`` holds the files a case
must have written (compared byte for byte). ``pytest --update-goldens`` rewrites the goldens.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import TESTDATA, invoke_cli

CASES = TESTDATA / "newcomer"
GOLDENS = ("args", "stdout", "stderr", "status", "env", "stdin", "expected", "read-only")


def case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "args").is_file())


@pytest.mark.parametrize("name", case_names())
def test_case(name: str, tmp_path: Path, update_goldens: bool) -> None:
    case = CASES / name
    work = tmp_path / name
    shutil.copytree(case, work, ignore=lambda _d, names: [n for n in names if n in GOLDENS and _d == str(case)])
    # git keeps no read-only bit: a case names the files to make read-only in its copy.
    read_only = case / "read-only"
    for relative in read_only.read_text().split() if read_only.exists() else ():
        (work / relative).chmod(0o444)
    args = (case / "args").read_text().splitlines()
    env_file = case / "env"
    env = dict(line.split("=", 1) for line in env_file.read_text().splitlines()) if env_file.exists() else {}
    stdin = (case / "stdin").read_text() if (case / "stdin").exists() else None
    stdout, stderr, status = invoke_cli(args, work, env=env, stdin=stdin)
    stderr = stderr.replace(str(tmp_path), "$TMP")
    actual = {"stdout": stdout, "stderr": stderr, "status": f"{status}\n"}
    if update_goldens:
        for key, text in actual.items():
            (case / key).write_text(text)
    for key, text in actual.items():
        assert text == (case / key).read_text(), f"{name}: {key} differs:\n{text}"
    expected = case / "expected"
    if expected.is_dir():
        for file in sorted(p for p in expected.rglob("*") if p.is_file()):
            written = work / file.relative_to(expected)
            if update_goldens:
                file.write_bytes(written.read_bytes())
            assert written.read_bytes() == file.read_bytes(), f"{name}: {file.name} differs"


def test_the_config_file_is_found_upward_and_its_paths_are_relative_to_it(tmp_path: Path) -> None:
    """As ruff and yamllint find theirs: from vms/, the .kubectl-instancetype.yaml one directory up, whose
    catalog/ is beside it, not below the working directory."""
    shutil.copytree(CASES / "config-file", tmp_path / "repo")
    stdout, stderr, status = invoke_cli(["validate", "-f", "vm.yaml", "--summary"], tmp_path / "repo" / "vms")
    assert (stdout, stderr, status) == ("", "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings\n", 0)
    stdout, stderr, status = invoke_cli(["validate", "--config", "", "-f", "vm.yaml"], tmp_path / "repo" / "vms")
    assert status == 1 and '.instancetype.kubevirt.io "small" not found' in stderr  # --config '': no file


def test_pyproject_without_the_table_is_passed_over(tmp_path: Path) -> None:
    shutil.copytree(CASES / "config-file", tmp_path / "repo")
    (tmp_path / "repo" / "vms" / "pyproject.toml").write_text('[tool.ruff]\nline-length = 100\n')
    _out, stderr, status = invoke_cli(["validate", "-f", "vm.yaml", "--summary"], tmp_path / "repo" / "vms")
    assert (stderr, status) == ("1 VM in 1 file: 1 rendered, 0 refused, 0 warnings\n", 0)


INFERRED = (CASES / "diff-infer-from-volume" / "vm.yaml")


def test_diff_names_the_instancetype_and_preference_inferred_from_a_volume(tmp_path: Path) -> None:
    """The summary table's instancetype and preference columns of an inferFromVolume VM: what was inferred."""
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "vm.yaml").write_text(INFERRED.read_text())
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=repo, check=True)
    (repo / "vm.yaml").write_text(INFERRED.read_text().replace("u1.medium", "u1.large"))
    stdout, _err, status = invoke_cli(["diff", "vm.yaml", "--format", "markdown"], repo)
    assert status == 1
    assert "| `default/fedora` | u1.medium → u1.large | fedora | 1 → 2 | 4Gi → 8Gi | changed (catalog) |\n" in stdout
    # -o/--output, as every command that prints spells it: the same option
    assert invoke_cli(["diff", "vm.yaml", "-o", "markdown"], repo) == (stdout, _err, status)
    assert invoke_cli(["diff", "vm.yaml", "--output", "markdown"], repo) == (stdout, _err, status)


@pytest.mark.parametrize("command", ["render", "validate", "diff", "suggest", "krm"])
def test_version_on_every_command(command: str, tmp_path: Path) -> None:
    top = invoke_cli(["--version"], tmp_path)
    assert top[0].startswith("kubectl-instancetype ") and top[2] == 0
    assert invoke_cli([command, "--version"], tmp_path) == top


def test_a_pyproject_that_does_not_parse_is_a_usage_error(tmp_path: Path) -> None:
    """Found on the way up from the working directory: a one-line error at its line, exit 2, never a crash."""
    (tmp_path / "pyproject.toml").write_text("[tool.kubectl-instancetype\nfoo = 1\n")
    stdout, stderr, status = invoke_cli(["render", "-f", "vm.yaml"], tmp_path)
    assert (status, stdout) == (2, "")
    assert stderr.splitlines()[-1] == ("Error: pyproject.toml:1:27: error: cannot read the config: Expected ']' at "
                                       "the end of a table declaration")


def _committed(repo: Path, files: dict[str, str]) -> None:
    import subprocess

    repo.mkdir()
    for name, text in files.items():
        (repo / name).write_text(text)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=repo, check=True)


@pytest.mark.parametrize(("case", "expected"), [
    ("kubevirt-cr-dumped", ""),  # virt-operator's own finalizer: nothing to say
    ("kubevirt-cr-twice-read", 'kv.yaml:8:3: warning: KubeVirt kubevirt/kubevirt: metadata.finalizers: "myfinalizer": '
                               "prefer a domain-qualified finalizer name to avoid accidental conflicts with other "
                               "finalizer writers\n"),  # the user's own: once, though both revisions read it twice
])
def test_diff_says_what_a_dumped_kubevirt_cr_gives_once(case: str, expected: str, tmp_path: Path) -> None:
    files = {name: (CASES / case / name).read_text() for name in ("kv.yaml", "vm.yaml")}
    _committed(tmp_path / "repo", files)
    (tmp_path / "repo" / "vm.yaml").write_text(files["vm.yaml"].replace("u1.medium", "u1.large"))
    args = ["diff", "--base", "main", ".", "--kubevirt-config", "kv.yaml"]
    _out, stderr, status = invoke_cli(args, tmp_path / "repo")
    assert (stderr, status) == (expected, 1)
