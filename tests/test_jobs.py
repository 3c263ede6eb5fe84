"""``render --jobs N`` (issue 25): the same bytes on stdout and stderr and the same exit status as ``--jobs 1``,
on a tree with refused VMs, webhook warnings, notes, a file that does not parse and multi-document files."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

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


_OLD_INSTANCETYPE = """\
apiVersion: instancetype.kubevirt.io/v1alpha1
kind: VirtualMachineInstancetype
metadata: {name: small, namespace: default}
spec: {cpu: {guest: 2}, memory: {guest: 2Gi}}
"""
_VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: vm-%d}
spec:
  runStrategy: Always
  instancetype: {kind: VirtualMachineInstancetype, name: small}
  template: {spec: {domain: {devices: {}}}}
"""
_KUBEVIRT_1_5 = """\
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata: {name: kubevirt, namespace: kubevirt}
spec: {configuration: {}}
status: {observedKubeVirtVersion: v1.5.2}
"""


@pytest.fixture()
def catalog_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    """VMs in several files using an instancetype of another file (of a version KubeVirt v1.5 still serves, refused
    by the default release), a file broken half-way; one task per file. Also the tasks the reading ran."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "instancetype.yaml").write_text(_OLD_INSTANCETYPE)
    for i in range(6):
        (tmp_path / "a" / f"vms-{i}.yaml").write_text("---\n".join(_VM % (i * 10 + n) for n in range(3)))
    (tmp_path / "a" / "vms-3.yaml").write_text(_VM % 99 + "---\nkind: VirtualMachine\nmetadata: {name: [\n")
    gather_module = sys.modules["kubectl_instancetype.inputs.gather"]
    monkeypatch.setattr(gather_module, "FILES_FROM", 10)
    monkeypatch.setattr(parallel, "TASK_ITEMS", 2)
    monkeypatch.setattr(jobs, "TASK_DOCS", 2)
    ran: list[str] = []
    mapping = parallel.ordered_map

    def recorded(task: Any, work: list[tuple[int, int]], processes: int) -> Any:
        ran.append(task.__name__)
        return mapping(task, work, processes)

    monkeypatch.setattr(parallel, "ordered_map", recorded)
    return tmp_path, ran


def test_the_reading_workers_check_too(catalog_tree: tuple[Path, list[str]]) -> None:
    root, ran = catalog_tree
    args = ["render", "-R", "-f", str(root)]
    one = _run([*args, "--jobs", "1"])
    assert one[0] == 3 and "was removed in KubeVirt v1.7" in one[2]
    assert "vms-3.yaml:11:1: error: YAML syntax error" in one[2]  # the file broken half-way
    assert _run([*args, "--jobs", "2"]) == one
    assert ran == ["_read_span"]  # checked as they were read: no round of their own


def test_a_kubevirt_cr_naming_another_release_has_them_checked_again(catalog_tree: tuple[Path, list[str]]) -> None:
    root, ran = catalog_tree
    (root / "zz").mkdir()
    (root / "zz" / "kubevirt.yaml").write_text(_KUBEVIRT_1_5)  # read last: the guess of the release was wrong
    args = ["render", "-R", "-f", str(root)]
    one = _run([*args, "--jobs", "1"])
    assert one[0] == 3 and "was removed in" not in one[2] and one[1].count("kind: VirtualMachine\n") == 15
    assert _run([*args, "--jobs", "2"]) == one
    assert _run([*args, "--jobs", "3"]) == one
    assert ran == ["_read_span", "_check_span"] * 2


def test_standard_input_among_the_files(catalog_tree: tuple[Path, list[str]]) -> None:
    root, ran = catalog_tree
    args = ["render", "-R", "-f", str(root / "a"), "-f", "-"]
    one = CliRunner().invoke(main_group, [*args, "--jobs", "1"], input=_KUBEVIRT_1_5 + "---\n" + _VM % 7)
    two = CliRunner().invoke(main_group, [*args, "--jobs", "2"], input=_KUBEVIRT_1_5 + "---\n" + _VM % 7)
    assert one.exit_code == 3 and "vm-7" in one.stdout and "was removed in" not in one.stderr
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert ran == ["_check_span"]  # read here, all of them: checked in the workers


def test_a_malformed_list_among_the_files(catalog_tree: tuple[Path, list[str]]) -> None:
    root, _ = catalog_tree
    (root / "a" / "list.yaml").write_text("apiVersion: v1\nkind: List\nitems: {a: 1}\n")  # refuses every document
    (root / "a" / "listed.yaml").write_text("apiVersion: v1\nkind: List\nitems:\n- " + (_VM % 5).replace("\n", "\n  "))
    args = ["render", "-R", "-f", str(root)]
    one = _run([*args, "--jobs", "1"])
    assert one[0] == 3 and "list.yaml:3:1: error: items of a List must be a list" in one[2]
    assert _run([*args, "--jobs", "2"]) == one
