"""The turn-6 reproducers of diff's base revision, render's write modes, the jq worker, template processing's
costs, deep parameter values and the config file's seed (issue 36: W3, W4, H1, H3, H4, H5, T1, M2), one
regression test each.

The reproducers are ``testdata/repros-t6/<id>-*/`` (copied from the team's ``shared/reliability/repros-t6/``,
whose README indexes them); each case runs in a copy of its folder, as its ``cmd`` does. No test here measures
time: the costs are checked by counting work (see also ``bench/template_scaling.py`` for the ratios).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TESTDATA, git, invoke_cli

REPROS = TESTDATA / "repros-t6"


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


def repository(here: Path) -> Path:
    """``here`` made a git repository with one commit of everything in it."""
    git(here, "init", "-q", "-b", "main")
    git(here, "add", ".")
    git(here, "commit", "-qm", "base")
    return here


# --- W3: a directory diff skipped a HEAD file whose YAML broke -------------------------------------------------

BROKEN = "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web\nspec:\n  runStrategy: Always\n"


@pytest.mark.parametrize("fail_on", ["restart", "error"])
@pytest.mark.parametrize("named", ["vms", "vms/web.yaml"])
def test_w3_a_broken_head_file_in_a_directory_is_an_input_error(fail_on: str, named: str, tmp_path: Path) -> None:
    here = folder("W3", tmp_path)
    (here / "vms").mkdir()
    (here / "vm.yaml").rename(here / "vms" / "web.yaml")
    repository(here)
    (here / "vms" / "web.yaml").write_text(BROKEN)
    _out, err, status = cli(["diff", "--restart-impact", "--fail-on", fail_on, "--base", "HEAD", named,
                             "-o", "markdown"], here)
    assert status == 3, err
    assert "vms/web.yaml:4:5: error: YAML syntax error" in err


def test_w3_a_broken_head_file_deletes_no_vm(tmp_path: Path) -> None:
    """A sync of an unreadable file fails: its VM is an error at the syntax error, not a deletion."""
    here = folder("W3", tmp_path)
    (here / "vms").mkdir()
    (here / "vm.yaml").rename(here / "vms" / "web.yaml")
    repository(here)
    (here / "vms" / "web.yaml").write_text(BROKEN)
    out, err, status = cli(["diff", "--restart-impact", "--base", "HEAD", "vms"], here)
    said = ("error: HEAD's file cannot be read, so nothing of it can be applied: YAML syntax error: while parsing a "
            "flow mapping, did not find expected ',' or '}'")
    assert status == 3, err
    assert out.startswith(f"default/web (vms/web.yaml:4:5): {said}\nrestart impact: 0 restart required, 0 "
                          "live-updated, 0 without effect on the running VM, 1 refused\n")
    assert err == "vms/web.yaml:4:5: error: " + said.split(": ", 2)[2] + "\n"  # the YAML error, once


def test_w3_helm_templates_and_other_files_of_a_directory_stay_out_of_the_diff(tmp_path: Path) -> None:
    """A Helm template is not YAML, and a broken ``.json`` file is somebody else's: both stay skipped."""
    here = folder("W3", tmp_path)
    (here / "vms").mkdir()
    (here / "vm.yaml").rename(here / "vms" / "web.yaml")
    repository(here)
    (here / "vms" / "chart.yaml").write_text("kind: VirtualMachine\nmetadata: {{ .Values.meta }}\n")
    (here / "vms" / "tsconfig.json").write_text("{ // comments\n")
    _out, err, status = cli(["diff", "--base", "HEAD", "vms"], here)
    assert (status, err) == (0, "")


def test_w3_a_file_broken_at_the_base_is_not_the_pull_requests_fault(tmp_path: Path) -> None:
    """The pull request that repairs a broken file passes: the base side still skips what does not load."""
    here = folder("W3", tmp_path)
    (here / "vms").mkdir()
    (here / "vm.yaml").rename(here / "vms" / "web.yaml")
    (here / "vms" / "web.yaml").write_text(BROKEN)
    repository(here)
    shutil.copy(REPROS / "W3-dir-diff-skips-broken-head-file" / "vm.yaml", here / "vms" / "web.yaml")
    _out, err, status = cli(["diff", "--restart-impact", "--fail-on", "error", "--base", "HEAD", "vms"], here)
    assert status == 0, err


# --- W4: render --check / --write passed a template that render refuses ----------------------------------------


@pytest.mark.parametrize("mode", [["--check"], ["--write"], ["--diff"], ["--output-dir", "out"]])
def test_w4_the_write_modes_report_what_render_refuses_of_a_template(mode: list[str], tmp_path: Path) -> None:
    here = folder("W4", tmp_path)
    before = (here / "template.yaml").read_text()
    _out, err, status = cli(["render", *mode, "-f", "template.yaml"], here)
    assert status == 1
    assert "template.yaml:9:5: error: processing validation failed: spec.parameters[0].from" in err
    assert (here / "template.yaml").read_text() == before  # a template is never written as its VM
    assert not (here / "out" / "template.yaml").exists() or \
        (here / "out" / "template.yaml").read_text() == before


def test_w4_a_template_render_admits_passes_the_write_modes_unchanged(tmp_path: Path) -> None:
    here = folder("W4", tmp_path)
    template = here / "template.yaml"
    template.write_text(template.read_text().replace("[a-z]{99999999}", "[a-z]{5}"))
    before = template.read_text()
    assert cli(["render", "--check", "-f", "template.yaml"], here)[1:] == ("", 0)
    assert cli(["render", "--write", "-f", "template.yaml"], here)[2] == 0
    assert template.read_text() == before


def test_w4_a_refused_vm_in_the_write_modes_as_before(tmp_path: Path) -> None:
    here = folder("W4", tmp_path)
    assert cli(["render", "--check", "-f", "vm.yaml"], here)[2] == 1


# --- H1: git-mode diff read every blob at the base whole -------------------------------------------------------


def test_h1_a_disk_image_at_the_base_is_not_read(tmp_path: Path) -> None:
    """Only the files the working tree's side reads are taken from the base: the manifests of the directories
    named, and the files named whatever their names."""
    from kubectl_instancetype.cli.diff import _blobs_at

    here = folder("H1", tmp_path)
    (here / "vms").mkdir()
    (here / "vm.yaml").rename(here / "vms" / "web.yaml")
    (here / "vms" / "disk.img").write_bytes(b"\0" * 4096)
    (here / "vms" / "notes.txt").write_text("kind: VirtualMachine\n")
    repository(here)
    git(here, "rm", "-q", "vms/disk.img")
    (here / "vms" / "web.yaml").write_text((here / "vms" / "web.yaml").read_text().replace("sockets: 1", "sockets: 2"))
    git(here, "commit", "-qam", "head")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(here)
        assert [(parts, size) for parts, _oid, size in _blobs_at("HEAD~1", ("vms",))] == \
            [(("vms", "web.yaml"), (REPROS / "H1-diff-base-reads-every-blob-whole" / "vm.yaml").stat().st_size)]
        assert [parts for parts, _oid, _size in _blobs_at("HEAD~1", ("vms/notes.txt",))] == [("vms", "notes.txt")]
    out, err, status = cli(["diff", "--restart-impact", "--base", "HEAD~1", "vms"], here)
    assert status == 1 and "default/web" in out, err


def test_h1_a_base_blob_over_the_limit_is_refused_by_its_size_unread(tmp_path: Path) -> None:
    """A blob larger than the input limit becomes a sparse file of its size, which the reading refuses as it
    refuses the working tree's file; the blob itself is never read."""
    from kubectl_instancetype.cli.diff import _blobs_at, _materialise_all

    here = tmp_path / "repo"
    (here / "vms").mkdir(parents=True)
    (here / "vms" / "big.yaml").write_text("# " + "x" * 5000 + "\n")
    (here / "vms" / "small.yaml").write_text("kind: ConfigMap\n")
    repository(here)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(here)
        out = tmp_path / "out"
        out.mkdir()
        _materialise_all(str(out), _blobs_at("HEAD", ("vms",)), cap=1000)
    assert (out / "vms" / "small.yaml").read_text() == "kind: ConfigMap\n"
    big = out / "vms" / "big.yaml"
    assert big.stat().st_size == 5003 and big.stat().st_blocks * 512 < 5003  # its size, no content


# --- H3: the jq worker outlived its parent -----------------------------------------------------------------------

EXE = str(Path(sys.executable).parent / "kubectl-instancetype")
LOOPING = """
import sys
from kubectl_instancetype.cli import jqrun
if sys.argv[1] == "watchdog":  # the pipe watchdog alone, as where there is no prctl
    jqrun.kernel_kills_orphan = lambda: False
jqrun.JqRunner(limit=600)(("def f: f; f",), {})
"""


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for init to reap it has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _worker_ends_with(parent: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """Kill ``parent`` while its jq worker runs a program that never ends: the worker (and its watchdog) end
    within a bound."""
    try:
        for _ in range(400):  # the worker, then its watchdog, started
            workers = _children(parent.pid)
            if workers and _children(workers[0]):
                break
            time.sleep(0.05)
        [worker] = workers
        helpers = _children(worker)
        time.sleep(0.3)  # inside libjq
        assert _running(worker)
    finally:
        parent.send_signal(sig)
        parent.wait(10)
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in (worker, *helpers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in (worker, *helpers) if _running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after SIG{sig.name} to the parent: {left}"


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree in /proc")


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_h3_the_jq_worker_of_drift_ends_with_its_parent(sig: signal.Signals, tmp_path: Path) -> None:
    here = folder("H3", tmp_path)
    parent = subprocess.Popen([EXE, "drift", "-f", "vm.yaml", "--against", "loop.yaml"], cwd=here,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _worker_ends_with(parent, sig)


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.parametrize("guard", ["watchdog", "both"])
def test_h3_each_guard_alone_ends_the_worker(guard: str, sig: signal.Signals) -> None:
    """The pipe watchdog is enough where the kernel's PR_SET_PDEATHSIG is not available."""
    parent = subprocess.Popen([sys.executable, "-c", LOOPING, guard])
    _worker_ends_with(parent, sig)


# --- H4, H5: template substitution, generation and the unused parameters' warnings were quadratic ----------------


class Scanning:
    """A compiled pattern that counts the characters its searches start from (the work of a regex walk)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.scanned = pattern, 0

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        self.scanned += len(text) - pos
        return self.pattern.finditer(text, pos)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self.scanned += len(text) - pos
        return self.pattern.search(text, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.pattern.match(text, pos)


@pytest.mark.parametrize("n", [1000, 4000])
def test_h4_substitution_reads_the_string_a_bounded_number_of_times(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_instancetype.vmtemplate import substitution

    scanning = Scanning(substitution.STRING_REFERENCE)
    monkeypatch.setattr(substitution, "STRING_REFERENCE", scanning)
    replaced: list[int] = []
    original = substitution._step_by_step
    monkeypatch.setattr(substitution, "_step_by_step", lambda *a: replaced.append(1) or original(*a))
    text = "${NAME}-" * n
    assert substitution.substitute(text, {"NAME": "web"}) == ("web-" * n, True)
    assert not replaced and scanning.scanned <= 2 * len(text)  # two passes, whatever n: linear


@pytest.mark.parametrize(("text", "values", "expected"), [
    ("${A}-${B}", {"A": "${B}", "B": "x"}, "x-${B}"),  # the engine's own example: a value holding a reference
    ("${A}{B}-${B}", {"A": "$", "B": "x"}, "x-${B}"),  # a reference spelt by a value and the text after it
    ("${${A}}${B}", {"A": "B", "B": "x"}, "x${B}"),  # ... by the text around a value
    ("${A}${A}", {"A": "${A}"}, "${A}${A}"),
])
def test_h4_the_one_pass_keeps_the_engines_answer_where_values_spell_references(
        text: str, values: dict[str, str], expected: str) -> None:
    from kubectl_instancetype.vmtemplate.substitution import substitute

    assert substitute(text, values) == (expected, True)


@pytest.mark.parametrize("n", [1000, 4000])
def test_h4_the_expression_generator_reads_its_source_a_bounded_number_of_times(
        n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_instancetype.vmtemplate import generator

    scanning = Scanning(generator._EXPRESSION)
    monkeypatch.setattr(generator, "_EXPRESSION", scanning)
    text = "[a]{1}-" * n
    assert generator.generate(text, generator.Entropy(1)) == "a-" * n
    assert scanning.scanned <= 2 * len(text)


def test_h4_drawn_characters_that_spell_an_expression_are_drawn_again_as_go_does() -> None:
    """``[[a]{1}]{2}``: the drawn ``a`` makes ``[a]{2}``, which Go's search from the start finds next."""
    from kubectl_instancetype.vmtemplate.generator import Entropy, generate

    seeded = Entropy(7)
    assert generate("[[a]{1}]{2}", seeded) == "aa"
    again = Entropy(7)
    generate("[a]{1}", again)
    generate("[a]{2}", again)
    assert seeded.read(8) == again.read(8)  # the same draws, in Go's order


@pytest.mark.parametrize("n", [200, 800])
def test_h5_each_unused_parameter_is_located_by_its_index_without_a_search(
        n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_instancetype.api.releases import resolve
    from kubectl_instancetype.vmtemplate import source, stage
    from kubectl_instancetype.yamlio import load_stream

    def searched(*_args: object) -> None:
        raise AssertionError("a parameter located by scanning every parameter for its name")

    monkeypatch.setattr(source, "parameter_location", searched)
    monkeypatch.setattr(stage, "parameter_location", searched, raising=False)
    here = REPROS / "H5-template-unused-params-quadratic"
    text = subprocess.run([sys.executable, str(here / "make.py"), str(n)], capture_output=True, text=True,
                          check=True).stdout
    staged = stage.stage(load_stream(text, "t.yaml"), lambda _path, _name: ("{}", "t.params.yaml"), resolve("main"),
                         True, seed=1)
    lines = [notice.location.line for notice in staged.notices if notice.location is not None]
    assert sorted(lines) == list(range(7, 7 + 2 * n, 2))  # each at its own parameter (two lines each)


# --- T1: a ${{D}} value nested 5,000 deep was exit 4 (RecursionError) ---------------------------------------------

DEEP = "template parameter D: its value, read as JSON for a ${{D}} reference, is nested deeper than the limit of 512"


@pytest.mark.parametrize("command", [["template", "process", "-f"], ["render", "-f"], ["validate"],
                                     ["render", "--check", "-f"], ["drift", "-f"]])
def test_t1_a_value_nested_beyond_the_limit_is_refused_at_its_parameter(command: list[str], tmp_path: Path) -> None:
    here = folder("T1", tmp_path)
    for name in ("template.yaml", "template-4000.yaml"):
        _out, err, status = cli([*command, name], here)
        assert status == 3 and f"{name}:9:5: error: {DEEP}" in err, err
        assert "Go template action" not in err  # ${{D}} is the template's reference, not Helm's


@pytest.mark.parametrize("command", [["template", "process", "-f"], ["render", "-f"], ["render", "-o", "json", "-f"],
                                     ["render", "--vmi", "-f"], ["render", "--stored", "-f"],
                                     ["render", "--explain", "-f"], ["validate", "--output-format", "sarif"],
                                     ["diff", "--base"]])
def test_t1_a_value_at_the_limit_gets_kubevirts_refusal_from_every_walk(command: list[str], tmp_path: Path) -> None:
    here = folder("T1", tmp_path)
    text = (here / "template.yaml").read_text()
    (here / "t512.yaml").write_text(re.sub(r"value: '\[.*\]'", f"value: '{'[' * 512}{']' * 512}'", text))
    (here / "empty.yaml").write_text("")
    args = [*command, "empty.yaml", "t512.yaml"] if command[0] == "diff" else [*command, "t512.yaml"]
    out, err, status = cli(args, here)
    assert status == 1 and "failed to convert unstructured object to VirtualMachine" in out + err, err


@pytest.mark.parametrize(("text", "depth"), [("1", 0), ("[]", 1), ('{"a": [[1], {"b": "[[[["}]}', 3),
                                              ('["\\"[[["]', 1), ("[" * 600 + "]" * 600, 600)])
def test_t1_json_depth_counts_brackets_outside_strings(text: str, depth: int) -> None:
    from kubectl_instancetype.vmtemplate.substitution import json_depth

    assert json_depth(text) == depth


# --- M2: the config's seed and --seed took different numbers -------------------------------------------------------


@pytest.mark.parametrize("config", ["config.yaml", "pyproject.toml"])
def test_m2_the_config_seed_and_the_option_take_the_same_numbers(config: str, tmp_path: Path) -> None:
    here = folder("M2", tmp_path)
    for seed, status in ((2**64, 2), (2**64 - 1, 0), (-(2**63), 0), (-(2**63) - 1, 2)):
        text = f"seed: {seed}\n" if config == "config.yaml" else f"[tool.kubectl-instancetype]\nseed = {seed}\n"
        (here / config).write_text(text)
        by_config = cli(["--config", config, "render", "-f", "template.yaml"], here)
        (here / config).unlink()  # found by itself otherwise
        by_option = cli(["render", "--seed", str(seed), "-f", "template.yaml"], here)
        assert (by_config[2], by_option[2]) == (status, status), (seed, by_config, by_option)
        if status == 0:
            assert by_config == by_option
        else:
            assert "seed: must be a whole number from -2^63 to 2^64-1 (it is out of range)" in by_config[1]
            assert "is not in the range -9223372036854775808<=x<=18446744073709551615" in by_option[1]


# --- generateName: a VM named only by metadata.generateName (issue 36, item 5) ------------------------------------

GENERATED_VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  generateName: web-
spec:
  instancetype:
    name: u1.small
  runStrategy: Always
  template:
    spec:
      domain:
        devices: {}
"""
APPLY_REFUSES = ('vm.yaml:1:1: warning: VirtualMachine default/web-<assigned by the cluster>: named only by '
                 'metadata.generateName: the API server names it on create, as this answer assumes (kubectl create); '
                 'kubectl apply refuses it ("from web-: cannot use generate name with apply")\n')


@pytest.mark.parametrize("command", [["validate"], ["render", "-f"], ["render", "--vmi", "-f"],
                                     ["render", "--stored", "-f"], ["suggest", "-f"]])
def test_generate_name_is_answered_as_kubectl_create(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text(GENERATED_VM)
    _out, err, status = cli([*command, "vm.yaml"], tmp_path)
    assert status == 0 and err.startswith(APPLY_REFUSES), err


def test_generate_name_the_cluster_picks_the_name_and_what_derives_from_it(tmp_path: Path) -> None:
    from kubectl_instancetype.yamlio import load_stream

    (tmp_path / "vm.yaml").write_text(GENERATED_VM)
    stored = load_stream(cli(["render", "--stored", "-f", "vm.yaml"], tmp_path)[0], "-")[0].data
    assert stored["metadata"]["name"] == "web-<assigned by the cluster>"  # 5 random characters on create
    assert stored["metadata"]["generateName"] == "web-"
    vmi = load_stream(cli(["render", "--vmi", "-f", "vm.yaml"], tmp_path)[0], "-")[0].data
    assert vmi["metadata"]["name"] == "web-<assigned by the cluster>"
    assert vmi["spec"]["domain"]["firmware"]["uuid"] == "<assigned by the cluster>"  # derived from a random name
    expanded = load_stream(cli(["render", "-f", "vm.yaml"], tmp_path)[0], "-")[0].data
    assert "name" not in expanded["metadata"]  # the VM as written: what --write keeps


def test_generate_name_pins_no_firmware_identity_all_created_vms_would_share(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text(GENERATED_VM)
    _out, err, status = cli(["render", "--pin", "--pin-firmware", "--write", "-f", "vm.yaml"], tmp_path)
    assert status == 0 and "no firmware UUID and serial pinned" in err
    written = (tmp_path / "vm.yaml").read_text()
    assert "firmware" not in written and "generateName: web-" in written and "name: web" not in written


def test_generate_name_diff_says_it_cannot_match_by_name(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text(GENERATED_VM)
    repository(tmp_path)
    (tmp_path / "vm.yaml").write_text(GENERATED_VM.replace("u1.small", "u1.medium"))
    out, err, status = cli(["diff", "--base", "HEAD", "vm.yaml"], tmp_path)
    assert status == 1 and "VirtualMachine default/web-<assigned by the cluster> (vm.yaml): changed" in out
    assert APPLY_REFUSES in err
    assert "diff matches VMs across revisions by name, and this one has none" in err


def test_a_name_is_still_required_without_generate_name(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text(GENERATED_VM.replace("  generateName: web-\n", "  labels: {a: b}\n"))
    _out, err, status = cli(["validate", "vm.yaml"], tmp_path)
    assert status == 1 and "metadata.name: Required value: name or generateName is required" in err
