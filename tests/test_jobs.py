"""``render --jobs N`` (issue 25): the same bytes on stdout and stderr and the same exit status as ``--jobs 1``,
on a tree with refused VMs, webhook warnings, notes, a file that does not parse and multi-document files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_instancetype import parallel
from kubectl_instancetype.cli import jobs, main_group
from kubectl_instancetype.yamlio import Document

CASES = Path(__file__).resolve().parent.parent / "testdata" / "conformance" / "cases"
PICKED = ("adm-running-only", "adm-disk-without-volume", "adm-bad-disk-bus", "real-catalog", "infer", "matchers",
          "no-matcher", "user-overrides")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jobs")
    for prefix in PICKED:  # a few cases of each family: several documents per file, refusals and warnings
        for case in sorted(CASES.glob(f"{prefix}-[0-9]*"))[:4]:
            folder = root / prefix
            folder.mkdir(exist_ok=True)
            shutil.copy(case / "input.yaml", folder / f"{case.name}.yaml")
    (root / "values.yaml").write_text("replicaCount: 2\nimage: nginx\n")  # a note: no Kubernetes object
    (root / "broken.yaml").write_text("kind: VirtualMachine\nmetadata: {name: [\n")  # does not parse
    return root


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("extra", [[], ["-o", "json"], ["--explain"], ["--summary", "--vmi"]])
def test_jobs_change_nothing(tree: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> None:
    monkeypatch.setattr(jobs, "TASK_DOCS", 3)  # many tasks, so that the order of their results matters
    monkeypatch.setattr(parallel, "TASK_ITEMS", 3)
    args = ["render", "-R", "-f", str(tree), *extra]
    one = _run([*args, "--jobs", "1"])
    assert one[0] == 3 and "error:" in one[2] and "warning:" in one[2] and "note:" in one[2]
    assert one[1].count("kind: VirtualMachine") > 20 or one[1].count('"kind"') > 20
    assert _run([*args, "--jobs", "2"]) == one
    assert _run([*args, "--jobs", "3"]) == one


def test_default_is_one_process_for_small_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert parallel.how_many(0, parallel.DEFAULT_FROM - 1) == 1
    assert parallel.how_many(0, parallel.DEFAULT_FROM) == 2
    assert parallel.how_many(3, 1) == 3
    said = _run(["render", "--help"])[1]
    assert f"when there are {parallel.DEFAULT_FROM} documents or more" in " ".join(said.split())


def test_tasks_are_runs_of_whole_files() -> None:
    docs = [Document({}, source, 0, 1, 1) for source in "aaabbcddddde"]
    assert jobs.tasks(docs, 2) == [(0, 3), (3, 5), (5, 11), (11, 12)]
    assert jobs.tasks([], 2) == []


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("mode", [["--check"], ["--diff"], ["--write"], ["--write", "--pin"], ["--output-dir", "out"]])
def test_jobs_write_the_same(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: list[str]) -> None:
    monkeypatch.setattr(jobs, "TASK_DOCS", 3)
    monkeypatch.setattr(parallel, "TASK_ITEMS", 3)
    runs = []
    for n in ("1", "2"):
        copy = tmp_path / f"jobs-{n}"
        shutil.copytree(tree, copy / "vms")
        monkeypatch.chdir(copy)
        said = _run(["render", "-R", "-f", "vms", *mode, "--jobs", n])
        runs.append((said, _files(copy)))
    (status, out, err), written = runs[0]
    assert status == 3 and "error:" in err and "warning:" in err  # the broken file
    assert bool(out) is (mode[0] in ("--check", "--diff"))
    assert (written != {f"vms/{name}": text for name, text in _files(tree).items()}) is (mode[0] != "--check"
                                                                                       and mode[0] != "--diff")
    assert runs[1] == runs[0]


@pytest.mark.parametrize("extra", [[], ["--vmi"], ["--output-format", "json"]])
def test_jobs_validate_the_same(tree: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> None:
    monkeypatch.setattr(jobs, "TASK_DOCS", 3)
    monkeypatch.setattr(parallel, "TASK_ITEMS", 3)
    args = ["validate", "-R", "-f", str(tree), *extra]
    one = _run([*args, "--jobs", "1"])
    assert one[0] == 3 and "error:" in (one[1] + one[2])
    assert _run([*args, "--jobs", "2"]) == one
