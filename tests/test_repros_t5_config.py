"""The turn-5 reproducers of the config file, diff's paths, --summary, --jobs workers, standard output's encoding
and --repo-catalog (issue 30: W3, W4, W5, W8, M1, M2, M7, T2, T3, T4, T6, H1), one regression test each.

The reproducers are ``testdata/repros-t5/<id>/`` (copied from the team's ``shared/reliability/repros-t5/``, whose README
indexes them, hidden config files included); each case runs in a copy of its folder, as its ``cmd`` does. What
the entry point does (stream encodings, signals, a closed pipe) is run through the installed executable.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import TESTDATA, git, invoke_cli

REPROS = TESTDATA / "repros-t5"
EXE = str(Path(sys.executable).parent / "kubectl-instancetype")

REPORT = '{\n  "apiVersion": "kubectl-instancetype.io/v1",\n  "kind": "Report",\n'  # the head of a JSON report


def folder(name: str, tmp_path: Path) -> Path:
    """A writable copy of the reproducer whose folder starts with ``name`` (``W3``)."""
    [source] = [p for p in REPROS.iterdir() if p.name.startswith(f"{name}-")]
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[str, str, int]:
    out, err, status = invoke_cli(args, cwd, env=env)
    assert status != 4 and "Traceback" not in err and "internal error" not in err, err
    return out, err, status


def last(err: str) -> str:
    return err.splitlines()[-1] if err else ""


# --- W3: a flag before the command loses to the config file ------------------------------------------------------


def test_w3_kubevirt_version_before_the_command_wins_over_the_config_file(tmp_path: Path) -> None:
    here = folder("W3", tmp_path)
    for args in (["--kubevirt-version", "1.9", "config"], ["config", "--kubevirt-version", "1.9"]):
        out, _err, status = cli(args, here)
        assert status == 0 and out.startswith("# KubeVirt v1.9.0 "), out[:80]
    assert cli(["config"], here)[0].startswith("# KubeVirt v1.5.3 ")  # the file, when no flag says otherwise
    before = cli(["--kubevirt-version", "1.9", "render", "--stored", "-f", "vm.yaml"], here)
    after = cli(["render", "--stored", "--kubevirt-version", "1.9", "-f", "vm.yaml"], here)
    assert before == after and before[2] == 0


# --- W5: per-command tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "status"), [("validate", 0), ("drift", 1), ("suggest", 0)])
def test_w5_a_render_table_is_ignored_by_the_other_commands(command: str, status: int, tmp_path: Path) -> None:
    """The README's example config (``render: {output-format: github}``) made every other command (every other
    pre-commit hook) exit 2 "unknown setting 'render'". drift's 1 is its finding: the cluster writes fields."""
    here = folder("W5", tmp_path) / "render-table"
    _out, err, got = cli([command, "-f", "../vm.yaml"], here)
    assert got == status and "unknown setting" not in err, err


def test_w5_a_validate_table_is_the_validate_commands_not_the_validate_option(tmp_path: Path) -> None:
    here = folder("W5", tmp_path) / "validate-table"
    assert cli(["render", "-f", "../vm.yaml"], here)[2] == 0  # was: Invalid value for '--validate': "{'output-...
    out, err, status = cli(["validate", "-f", "../vm.yaml"], here)
    assert (status, err) == (0, "") and out.startswith(REPORT + '  "../vm.yaml": [')  # its table: output-format json


def test_w5_the_validate_key_holding_a_string_is_the_validate_mode(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text((REPROS / "W5-config-command-tables" / "vm.yaml").read_text()
                                      .replace("      domain:\n", "      domain:\n        bogus: 1\n"))
    (tmp_path / ".kubectl-instancetype.yaml").write_text("validate: ignore\n")
    assert cli(["render", "-f", "vm.yaml"], tmp_path)[2] == 0  # the unknown field pruned silently
    (tmp_path / ".kubectl-instancetype.yaml").write_text("validate: {validate: ignore}\n")
    assert cli(["validate", "-f", "vm.yaml"], tmp_path)[2] == 0  # the validate command's table sets its mode
    _out, err, status = cli(["render", "-f", "vm.yaml"], tmp_path)  # render: strict, the default
    assert status == 1 and 'unknown field "spec.template.spec.domain.bogus"' in err


def test_w5_a_mistake_in_any_table_fails_every_command_alike(tmp_path: Path) -> None:
    (tmp_path / ".kubectl-instancetype.yaml").write_text("namespace: apps\nrender:\n  ouput-format: github\n")
    for command in ("render", "validate"):
        _out, err, status = cli([command, "-f", "vm.yaml"], tmp_path)
        assert status == 2
        assert last(err).startswith("Error: .kubectl-instancetype.yaml:3:3: error: unknown setting "
                                    "'render.ouput-format' (did you mean 'output-format' or 'output-dir'? known: "
                                    "accept-removed-versions, arch, ")
    (tmp_path / ".kubectl-instancetype.yaml").write_text("diff: strict\n")
    assert last(cli(["render", "-f", "vm.yaml"], tmp_path)[1]) == (
        "Error: .kubectl-instancetype.yaml:1:1: error: diff: must be a mapping of settings for the diff command")


# --- M1: values of the wrong type ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "message"), [
    ("null", ".kubectl-instancetype.yaml:1:1: error: namespace: must be a string (it is empty: null)"),
    ("list", ".kubectl-instancetype.yaml:1:1: error: namespace: must be a string (it is a list)"),
    ("catalog-null", ".kubectl-instancetype.yaml:1:1: error: catalog: must be a string or a list of strings (it is "
                     "empty: null)"),
    ("version-float", '.kubectl-instancetype.yaml:1:1: error: kubevirt-version: must be a string (it is a number: '
                      'quote it ("1.10"), YAML reads 1.10 as the number 1.1)'),
    ("two-docs", ".kubectl-instancetype.yaml:3:1: error: a second document in the config: its settings are one "
                 "mapping (remove the '---' and what follows, or merge the documents)"),
])
def test_m1_config_values_are_checked_with_yamls_words(case: str, message: str, tmp_path: Path) -> None:
    here = folder("M1", tmp_path) / case
    out, err, status = cli(["render", "-f", "../vm.yaml"], here)
    assert (status, out, last(err)) == (2, "", f"Error: {message}")


def test_m1_booleans_are_checked_too(tmp_path: Path) -> None:
    (tmp_path / ".kubectl-instancetype.yaml").write_text("recursive: 'yes'\n")
    assert last(cli(["render", "-f", "vm.yaml"], tmp_path)[1]) == (
        "Error: .kubectl-instancetype.yaml:1:1: error: recursive: must be true or false")


# --- M2: --config that is no regular file, --output-file - ---------------------------------------------------------


def test_m2_config_that_is_no_regular_file(tmp_path: Path) -> None:
    here = folder("M2", tmp_path)
    os.mkfifo(here / "cfg.yaml")
    for config in ("/dev/zero", "cfg.yaml", "."):
        _out, err, status = cli(["render", "-f", "vm.yaml", "--config", config], here)
        assert (status, last(err)) == (2, f"Error: Invalid value for '--config': {config}: not a regular file")
    assert last(cli(["render", "-f", "vm.yaml", "--config", "nope.yaml"], here)[1]).endswith(
        "nope.yaml: no such file")


def test_m2_output_file_dash_is_standard_output(tmp_path: Path) -> None:
    here = folder("M2", tmp_path)
    out, err, status = cli(["validate", "-f", "vm.yaml", "--output-format", "json", "--output-file", "-"], here)
    assert status == 0 and out.startswith(REPORT + '  "vm.yaml": [') and err == ""
    out, _err, _status = cli(["render", "-f", "vm.yaml", "--junit-xml", "-"], here)
    assert "<testsuite" in out
    assert sorted(p.name for p in here.iterdir()) == ["cmd", "vm.yaml"]  # no file named "-"


# --- T2: a config that is not UTF-8, a pyproject.toml whose tool is no table ---------------------------------------


@pytest.mark.parametrize(("case", "message"), [
    ("latin1", ".kubectl-instancetype.yaml: error: cannot read the config: not UTF-8 (byte 0xe9 at offset 14)"),
    ("pyproject-tool-string", "pyproject.toml: error: cannot read the config: tool: must be a table"),
])
def test_t2_a_config_that_cannot_be_read_is_a_usage_error_naming_it(case: str, message: str, tmp_path: Path) -> None:
    here = folder("T2", tmp_path) / case
    out, err, status = cli(["render", "-f", "../vm.yaml"], here)
    assert (status, out, last(err)) == (2, "", f"Error: {message}")


# --- W4: diff --base-kubevirt-version ------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "missing"), [
    (["vsm/"], "vsm/"),
    (["vm.yaml", "--catalog", "catalgo/"], "catalgo/"),
    (["vm.yaml", "--kubevirt-config", "kv.yml"], "kv.yml"),
])
def test_w4_upgrade_preview_of_a_missing_path_is_exit_3(args: list[str], missing: str, tmp_path: Path) -> None:
    here = folder("W4", tmp_path)
    _out, err, status = cli(["diff", "--base-kubevirt-version", "1.8", *args], here)
    assert status == 3 and err.splitlines()[0] == f"{missing}:1:1: error: no such file or directory", err


def test_w4_upgrade_preview_names_both_releases(tmp_path: Path) -> None:
    here = folder("W4", tmp_path)
    out, _err, status = cli(["diff", "--base-kubevirt-version", "1.8", "vm.yaml"], here)
    assert (status, out.splitlines()[-1]) == (0, "0 of 1 VirtualMachines change against KubeVirt v1.8.4 "
                                                 "(upgrading to v1.9.0)")


def test_w4_a_release_compared_with_itself_is_a_usage_error(tmp_path: Path) -> None:
    """A live CR (status.observedKubeVirtVersion v1.8.4) and no --kubevirt-version: the base is the release the
    files already assume; nothing answers "compared with what?"."""
    here = folder("W4", tmp_path)
    (here / "kubevirt.yaml").write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, "
                                        "namespace: kubevirt}\nspec: {}\nstatus: {observedKubeVirtVersion: v1.8.4}\n")
    out, err, status = cli(["diff", "--base-kubevirt-version", "1.8", "vm.yaml", "kubevirt.yaml"], here)
    assert (status, out) == (2, "")
    assert last(err) == ("Error: --base-kubevirt-version 1.8 is the release the files already assume (v1.8.4: the "
                         "KubeVirt CR's status.observedKubeVirtVersion, else the newest release): give the release "
                         "to compare with, --kubevirt-version VERSION")
    out, err, status = cli(["diff", "--base-kubevirt-version", "1.8", "--kubevirt-version", "1.9", "vm.yaml",
                            "kubevirt.yaml"], here)
    assert status == 0 and out.endswith("change against KubeVirt v1.8.4 (upgrading to v1.9.0)\n"), err
    _out, err, status = cli(["diff", "--base-kubevirt-version", "v1.8.4", "--kubevirt-version", "1.8", "vm.yaml"],
                            here)
    assert (status, last(err)) == (2, "Error: --base-kubevirt-version v1.8.4 and --kubevirt-version 1.8 are one "
                                      "release (v1.8.4): an upgrade preview compares two releases")


# --- W8: --summary counts ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "status", "line"), [
    (["validate", "-f", "vm.yaml"], 0, "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings"),
    (["drift", "-f", "vm.yaml"], 1, "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings"),
    (["suggest", "-f", "vm.yaml"], 0, "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings"),
    (["revision", "-f", "vm.yaml"], 0, "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings"),
    (["convert", "-f", "vm.yaml"], 0, "0 VMs in 1 file: 0 rendered, 0 refused, 0 warnings"),
    (["drift", "-f", "refused.yaml"], 1, "1 VM in 1 file: 0 rendered, 1 refused, 0 warnings"),
    (["render", "-f", "vm.yaml", "-f", "empty.yaml"], 0, "1 VM in 2 files: 1 rendered, 0 refused, 0 warnings"),
])
def test_w8_summary_counts_what_the_run_read(args: list[str], status: int, line: str, tmp_path: Path) -> None:
    here = folder("W8", tmp_path)
    _out, err, got = cli([*args, "--summary"], here)
    assert (got, last(err)) == (status, line)


def test_w8_a_pool_is_counted_as_a_pool(tmp_path: Path) -> None:
    here = folder("W8", tmp_path)
    shutil.copyfile(TESTDATA / "explain" / "pool-yaml" / "pool.yaml", here / "pool.yaml")
    for jobs in ("1", "2"):
        _out, err, status = cli(["validate", "-f", "vm.yaml", "-f", "pool.yaml", "--summary", "--jobs", jobs], here)
        assert (status, last(err)) == (0, "1 VM, 1 pool in 2 files: 2 rendered, 0 refused, 0 warnings")


# --- M7: two KubeVirt CRs ------------------------------------------------------------------------------------------


def test_m7_two_crs_naming_two_clusters_are_an_error_whatever_the_order(tmp_path: Path) -> None:
    here = folder("M7", tmp_path)
    message = ("b-prod-kubevirt.yaml:1:1: error: a second KubeVirt CR, for another cluster than "
               "a-staging-kubevirt.yaml:1:1 (its release or configuration differs): a render assumes one cluster; "
               "give --kubevirt-config FILE to say which, or leave one out (--exclude)\n")
    one = cli(["render", "--stored", "-f", "vm.yaml", "-f", "a-staging-kubevirt.yaml", "-f", "b-prod-kubevirt.yaml"],
              here)
    two = cli(["render", "--stored", "-f", "vm.yaml", "-f", "b-prod-kubevirt.yaml", "-f", "a-staging-kubevirt.yaml"],
              here)
    assert (one[1], one[2]) == (two[1], two[2]) == (message, 2)
    _out, err, status = cli(["render", "--stored", "-f", ".", "--kubevirt-config", "b-prod-kubevirt.yaml"], here)
    assert (status, err) == (0, "")


def test_m7_the_same_cluster_twice_is_no_question(tmp_path: Path) -> None:
    here = folder("M7", tmp_path)
    shutil.copyfile(here / "b-prod-kubevirt.yaml", here / "c-prod-again.yaml")
    (here / "a-staging-kubevirt.yaml").unlink()
    assert cli(["render", "--stored", "-f", "."], here)[1:] == ("", 0)


# --- T3: a --jobs worker killed ------------------------------------------------------------------------------------


def _many_vms(where: Path, files: int = 30, each: int = 200) -> None:
    vm = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: v{i}\nspec:\n  runStrategy: Always\n"
          "  instancetype:\n    name: u1.medium\n  template:\n    spec:\n      domain:\n        devices: {{}}\n")
    for f in range(files):
        (where / f"f{f}.yaml").write_text("---\n".join(vm.format(i=f"{f}-{k}") for k in range(each)))


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = task / "children"
        if children.exists():
            found.extend(int(c) for c in children.read_text().split())
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to find the workers")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_t3_a_killed_worker_is_named_by_its_signal_not_a_bug(sig: signal.Signals, tmp_path: Path) -> None:
    _many_vms(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    proc = subprocess.Popen([EXE, "render", "--jobs", "2", "--write", "-f", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    killed = False
    while not killed and time.monotonic() < deadline and proc.poll() is None:
        for child in _children(proc.pid):
            os.kill(child, sig)
            killed = True
            break
        time.sleep(0.02)
    _out, err = proc.communicate(timeout=120)
    if not killed:
        pytest.skip("the run ended before a worker could be killed")
    assert proc.returncode == 3, err
    assert err == (f"error: a --jobs worker ended unexpectedly: killed by signal {int(sig)} ({sig.name}); the run "
                   "did not finish (files it writes are replaced whole or not at all); if memory ran out, give fewer "
                   "--jobs or split the input\n")
    for path in tmp_path.iterdir():  # each file as it was, or rewritten whole
        assert path.name in before
        text = path.read_bytes()
        assert text == before[path.name] or text.count(b"kind: VirtualMachine") == 200


def test_t3_the_worker_error_says_how_it_ended() -> None:
    from kubectl_instancetype.parallel import WorkerEnded

    assert str(WorkerEnded(-9)) == "a --jobs worker ended unexpectedly: killed by signal 9 (SIGKILL)"
    assert str(WorkerEnded(1)) == "a --jobs worker ended unexpectedly: it exited with status 1"
    assert str(WorkerEnded(None)) == "a --jobs worker ended unexpectedly"


# --- T4: --repo-catalog outside git --------------------------------------------------------------------------------


def test_t4_repo_catalog_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    here = folder("T4", tmp_path)
    env = {"GIT_CEILING_DIRECTORIES": str(tmp_path)}  # tmp_path may lie inside a checkout
    _out, err, status = cli(["validate", "--repo-catalog", "vm.yaml"], here, env=env)
    assert (status, last(err)) == (2, "Error: --repo-catalog: not in a git repository")
    _out, err, status = cli(["validate", "--repo-catalog", "vm.yaml"], here, env={"PATH": str(tmp_path)})
    assert (status, last(err)) == (2, "Error: --repo-catalog: git is not installed (not on PATH)")


# --- T6: standard output that is not UTF-8 -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "POSIX", "PYTHONUTF8": "0"}])
def test_t6_standard_output_is_utf8_whatever_the_locale(env: dict[str, str], tmp_path: Path) -> None:
    here = folder("T6", tmp_path)
    run_env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE")} | env
    done = subprocess.run([EXE, "render", "-f", "unicode.yaml"], cwd=here, env=run_env, capture_output=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (0, b"")
    assert b'd: "caf\xc3\xa9"' in done.stdout or b"d: caf\xc3\xa9" in done.stdout
    for fmt in ("text", "markdown"):
        done = subprocess.run([EXE, "diff", "--base-kubevirt-version", "1.5", "--format", fmt, "ascii.yaml"],
                              cwd=here, env=run_env, capture_output=True, timeout=60)
        assert done.returncode == 1 and b"internal error" not in done.stderr, done.stderr
        assert "→".encode() in done.stdout or "—".encode() in done.stdout


# --- H1: --repo-catalog reads only what is the repository's own, bounded -----------------------------------------


def _repo(tmp_path: Path) -> Path:
    repo = folder("H1", tmp_path)
    git(repo, "init", "-q", "-b", "main")
    return repo


def _commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "x")


CATALOG = ("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n"
           "  name: team.small\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 1Gi}\n")


@pytest.mark.slow
def test_h1_tracked_links_out_of_the_repository_and_fifos_are_not_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "zero.yaml").symlink_to("/dev/zero")
    _commit(repo)
    for args in (["--exclude", "zero.yaml"], []):
        done = subprocess.run([EXE, "validate", "--repo-catalog", *args, "vm.yaml"], cwd=repo, capture_output=True,
                              text=True, timeout=60)
        assert (done.returncode, done.stderr) == (0, "")
    git(repo, "rm", "-q", "--cached", "zero.yaml")
    (repo / "zero.yaml").unlink()
    os.mkfifo(tmp_path / "fifo")
    (repo / "fifo.yaml").symlink_to(tmp_path / "fifo")
    os.mkfifo(repo / "inside-fifo")
    (repo / "inside.yaml").symlink_to("inside-fifo")
    _commit(repo)
    done = subprocess.run([EXE, "validate", "--repo-catalog", "vm.yaml"], cwd=repo, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_h1_links_inside_the_repository_are_followed_and_excluded_files_not_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_instancetype.cli import repo as repo_module

    repo = _repo(tmp_path)
    (repo / "vm.yaml").write_text((repo / "vm.yaml").read_text().replace("u1.medium", "team.small")
                                  .replace("  preference:\n    name: fedora\n", ""))
    (repo / "catalog").mkdir()
    (repo / "catalog" / "team.yaml").write_text(CATALOG)
    (repo / "team-link.yaml").symlink_to("catalog/team.yaml")
    (repo / "other.yaml").write_text(CATALOG.replace("team.small", "other.small"))
    _commit(repo)
    opened: list[str] = []
    holds = repo_module._holds_catalog

    def spy(path: Path, max_bytes: int) -> bool:
        opened.append(path.name)
        return holds(path, max_bytes)

    monkeypatch.setattr(repo_module, "_holds_catalog", spy)
    _out, err, status = cli(["validate", "--repo-catalog", "--exclude", "other.yaml", "vm.yaml"], repo)
    assert (status, err) == (0, "")
    assert "other.yaml" not in opened and "team.yaml" in opened


def test_h1_max_input_bytes_applies_to_the_repository_files(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "catalog.yaml").write_text(CATALOG)
    _commit(repo)
    _out, err, status = cli(["validate", "--repo-catalog", "--max-input-bytes", "100", "vm.yaml"], repo)
    assert status == 3 and "catalog.yaml:1:1: error: input is larger than the limit of 100 bytes" in err, err


# --- friction: -q and wrote lines ----------------------------------------------------------------------------------


def test_quiet_leaves_out_the_wrote_lines(tmp_path: Path) -> None:
    here = folder("W8", tmp_path)
    assert cli(["render", "--write", "-f", "vm.yaml"], here)[1:] == ("wrote vm.yaml\n", 0)
    (here / "vm.yaml").write_text((REPROS / "W8-summary-wrong-counts" / "vm.yaml").read_text())
    assert cli(["render", "--write", "-q", "-f", "vm.yaml"], here)[1:] == ("", 0)
