"""Issue #16: ``--write``, ``--output-dir``, ``--diff`` and ``diff --base`` never damage a file, never write
outside the tree they were given, and never end in a traceback. One regression test per reproducer.
"""

from __future__ import annotations

import json
import os
import pwd
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio.load import load_stream

VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm1
spec:
  runStrategy: Halted
  instancetype:
    name: u1.medium
  template:
    spec:
      domain:
        devices: {}
"""
LIST = "apiVersion: v1\nkind: List\nitems: []\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, list(args), prog_name="kubectl instancetype")


def expanded(text: str) -> bool:
    """Whether the VirtualMachine documents of ``text`` carry no instancetype reference any more."""
    vms = [d.data for d in load_stream(text, "t") if d.data.get("kind") == "VirtualMachine"]
    return bool(vms) and all("instancetype" not in vm["spec"] for vm in vms)


def test_empty_document_before_a_vm_does_not_shift_the_numbering(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(f"--- #\n---\n{VM}---\n{LIST}")
    result = run("render", "--write", str(path))
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert expanded(text)
    assert text.endswith(f"---\n{LIST}")  # the List is untouched, byte for byte
    assert [d.data["kind"] for d in load_stream(text, "t")] == ["VirtualMachine", "List"]


def test_empty_document_before_the_only_vm(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"--- #\n---\n{VM}")
    assert run("render", "--diff", str(path)).exit_code == 1  # it shows a change: git diff --exit-code
    result = run("render", "--write", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith("--- #\n---\n")
    assert expanded(path.read_text())


# Item 2: --output-dir never writes through a symbolic link planted in the output tree.

def _src(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.yaml").write_text(VM)
    return src


def test_output_dir_refuses_a_file_link(tmp_path: Path) -> None:
    src, out, victim = _src(tmp_path), tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("precious\n")
    (out / "a.yaml").symlink_to("../victim.txt")
    for mode in ("--diff", "--check", None):
        result = run("render", "-f", str(src), "--output-dir", str(out), *([mode] if mode else []))
        assert result.exit_code == 3, result.output
        assert "symbolic link" in result.stderr
        assert "precious" not in result.stdout
    assert victim.read_text() == "precious\n"
    assert (out / "a.yaml").is_symlink()


def test_output_dir_refuses_a_dangling_link(tmp_path: Path) -> None:
    src, out = _src(tmp_path), tmp_path / "out"
    out.mkdir()
    (out / "a.yaml").symlink_to(tmp_path / "created-elsewhere.yaml")
    result = run("render", "-f", str(src), "--output-dir", str(out))
    assert result.exit_code == 3 and "symbolic link" in result.stderr
    assert not (tmp_path / "created-elsewhere.yaml").exists()


def test_output_dir_refuses_a_directory_link(tmp_path: Path) -> None:
    src, out, elsewhere = _src(tmp_path), tmp_path / "out", tmp_path / "elsewhere"
    (src / "sub").mkdir()
    (src / "sub" / "b.yaml").write_text(VM.replace("vm1", "vm2"))
    out.mkdir()
    elsewhere.mkdir()
    (out / "sub").symlink_to(elsewhere, target_is_directory=True)
    result = run("render", "-R", "-f", str(src), "--output-dir", str(out))
    assert result.exit_code == 3 and "symbolic link" in result.stderr
    assert list(elsewhere.iterdir()) == []
    assert expanded((out / "a.yaml").read_text())  # the other file is still written


def test_output_dir_that_is_itself_a_link_is_refused(tmp_path: Path) -> None:
    src, elsewhere = _src(tmp_path), tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").symlink_to(elsewhere, target_is_directory=True)
    result = run("render", "-f", str(src), "--output-dir", str(tmp_path / "out"))
    assert result.exit_code == 3 and "symbolic link" in result.stderr
    assert list(elsewhere.iterdir()) == []


# Item 4: --write keeps owner, group, hard links and read-only files, or refuses.

def test_write_keeps_the_owner(tmp_path: Path) -> None:
    nobody = pwd.getpwnam("nobody")
    path = tmp_path / "vm.yaml"
    path.write_text(VM)
    os.chown(path, nobody.pw_uid, nobody.pw_gid)
    assert run("render", "--write", str(path)).exit_code == 0
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (nobody.pw_uid, nobody.pw_gid)
    assert expanded(path.read_text())


def test_write_refuses_to_split_hard_links(tmp_path: Path) -> None:
    path, other = tmp_path / "vm.yaml", tmp_path / "other.yaml"
    path.write_text(VM)
    os.link(path, other)
    result = run("render", "--write", str(path))
    assert result.exit_code == 3 and "hard links" in result.stderr
    assert path.read_text() == VM and os.path.samefile(path, other)


def test_write_refuses_a_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text(VM)
    path.chmod(0o444)  # root could write it: the tool decides from the mode
    result = run("render", "--write", str(path))
    assert result.exit_code == 3 and "read-only" in result.stderr
    assert path.read_text() == VM and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_write_reports_a_directory_that_cannot_take_a_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text(VM)
    real_open = os.open

    def no_temporaries(name: str, flags: int, *args: object, **kwargs: object) -> int:
        if str(name).endswith(".tmp"):
            raise PermissionError(13, "Permission denied")
        return real_open(name, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", no_temporaries)
    result = run("render", "--write", str(path))
    assert result.exit_code == 3
    assert f"{tmp_path}:1:1: error: cannot create a temporary file in this directory" in result.stderr
    assert path.read_text() == VM


# Item 5: an --output-dir inside the -f tree is not an input.

def test_output_dir_inside_the_input_tree_does_not_nest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _src(tmp_path)
    monkeypatch.chdir(src)
    for _ in range(3):
        result = run("render", "-R", "-f", ".", "--output-dir", "rendered")
        assert result.exit_code == 0, result.output
    assert sorted(str(p.relative_to(src)) for p in src.rglob("*")) == ["a.yaml", "rendered", "rendered/a.yaml"]
    result = run("render", "-R", "-f", ".", "--output-dir", "rendered", "--check")
    assert result.exit_code == 0, result.output


# Item 17: a FIFO is read once; --write refuses to replace it.

def test_fifo_with_diff_and_write_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "vm.yaml"
    os.mkfifo(fifo)
    for mode, status in (("--diff", 1), ("--write", 3)):
        writer = subprocess.Popen(["sh", "-c", f"cat > '{fifo}'"], stdin=subprocess.PIPE)
        assert writer.stdin is not None
        writer.stdin.write(VM.encode())
        writer.stdin.close()
        proc = subprocess.run([sys.executable, "-m", "kubectl_instancetype", "render", mode, str(fifo)],
                              capture_output=True, text=True, timeout=30)
        writer.wait(timeout=10)
        assert proc.returncode == status, proc.stderr
        if mode == "--diff":
            assert "+        cpu:" in proc.stdout
        else:
            assert "not a regular file" in proc.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)


# Item 14: symbolic link loops end, and each file is read once.

def test_symlink_loop_with_follow_symlinks(tmp_path: Path) -> None:
    src = _src(tmp_path)
    (src / "loop").symlink_to(src, target_is_directory=True)
    (src / "sub").mkdir()
    (src / "sub" / "up").symlink_to(src, target_is_directory=True)
    proc = subprocess.run([sys.executable, "-m", "kubectl_instancetype", "render", "-R", "--follow-symlinks",
                           "-f", str(src)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("kind: VirtualMachine") == 1


# Item 18: an unreadable directory is reported.

def test_unreadable_directory_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _src(tmp_path)
    (src / "locked").mkdir()
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    result = run("render", "-R", "-f", str(src))
    assert result.exit_code == 3
    assert f"{src / 'locked'}:1:1: error: cannot read directory: Permission denied" in result.stderr


# Item 21: a symbolic link to another input is the same file.

def test_in_tree_alias_is_written_once(tmp_path: Path) -> None:
    src = _src(tmp_path)
    (src / "b.yaml").symlink_to("a.yaml")
    result = run("render", "-R", "-f", str(src), "--write")
    assert result.exit_code == 0, result.output
    assert (src / "b.yaml").is_symlink() and expanded((src / "a.yaml").read_text())
    result = run("render", "-R", "-f", str(src))
    assert result.stdout.count("kind: VirtualMachine") == 1


# Items 3 and 12: diff --base reads the base revision without leaving its temporary tree, and copes with
# submodules and file names that are not UTF-8 or hold a newline.

GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "protocol.file.allow=always"]


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, input=stdin, capture_output=True, check=True).stdout.decode()


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "vms").mkdir(parents=True)
    (repo / "vms" / "vm.yaml").write_text(VM)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    return repo


def test_diff_base_with_dotdot_tree_entries_stays_in_its_temporary_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    blob = _git(repo, "hash-object", "-w", "--stdin", stdin=VM.encode()).strip()
    inner = _git(repo, "mktree", stdin=f"100644 blob {blob}\tESCAPED-BY-DIFF.yaml\n".encode()).strip()
    up = _git(repo, "mktree", stdin=f"040000 tree {inner}\t..\n".encode()).strip()
    vms = _git(repo, "rev-parse", "HEAD:vms").strip()
    top = _git(repo, "mktree", stdin=f"040000 tree {vms}\tvms\n040000 tree {up}\t..\n".encode()).strip()
    commit = _git(repo, "commit-tree", top, "-m", "evil").strip()
    monkeypatch.chdir(repo)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    result = run("diff", "--base", commit, ".")
    assert (result.exit_code, result.exception) == (0, None), result.output
    assert "0 of 1 VirtualMachines change" in result.stdout
    assert not list(tmp_path.rglob("ESCAPED-BY-DIFF.yaml"))
    assert not Path("/ESCAPED-BY-DIFF.yaml").exists()


def test_diff_with_a_submodule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "x.yaml").write_text(VM)
    _git(sub, "init", "-q", "-b", "main")
    _git(sub, "add", ".")
    _git(sub, "commit", "-qm", "sub")
    _git(repo, "submodule", "add", "-q", str(sub), "vms/sub")
    _git(repo, "commit", "-qm", "with submodule")
    monkeypatch.chdir(repo)
    result = run("diff", "--base", "HEAD", "vms")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", [b"new\nline.yaml", b"bad-\xff-utf8.yaml"])
def test_diff_with_odd_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: bytes) -> None:
    repo = _repo(tmp_path)
    path = os.path.join(os.fsencode(repo / "vms"), name)
    with open(path, "wb") as handle:
        handle.write(VM.replace("vm1", "vm2").encode())
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "odd name")
    monkeypatch.chdir(repo)
    result = run("diff", "--base", "HEAD", "vms")
    assert result.exit_code == 0, result.output
    assert "0 of 2 VirtualMachines change" in result.stdout
    with open(path, "ab") as handle:
        handle.write(b"  runStrategy: Always\n")
    result = run("diff", "--base", "HEAD", "vms")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output


def test_a_comment_inside_a_changing_flow_mapping_is_never_dropped(tmp_path: Path) -> None:
    path = tmp_path / "vm.yaml"
    flow = "      domain: {devices: {}, # keep me\n        cpu: {}}\n"
    text = VM.replace("      domain:\n        devices: {}\n", flow)
    path.write_text(text)
    result = run("render", "--write", str(path))
    assert result.exit_code == 3 and "'#keep me'" in result.stderr
    assert path.read_text() == text


def test_json_with_bom_tabs_and_escapes_stays_json_spelled_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "vm.json"
    body = '{\n\t"apiVersion": "kubevirt.io/v1",\n\t"kind": "VirtualMachine",\n\t"metadata": {"name": "vm1", ' \
           '"annotations": {"x": "caf\\u00e9"}},\n\t"spec": {"runStrategy": "Halted", ' \
           '"instancetype": {"name": "u1.medium"}, ' \
           '"template": {"spec": {"domain": {"devices": {}}}}},\n\t"status": {"observedGeneration": 1E2}\n}\n'
    path.write_bytes(("\ufeff" + body).encode())
    assert run("render", "--write", str(path)).exit_code == 0
    out = path.read_bytes().decode()
    assert out.startswith("\ufeff{\n\t\"apiVersion\"")
    # (an annotation and a known status field: the API server refuses "café" as a label and unknown fields)
    assert '"annotations": {"x": "caf\\u00e9"}' in out and '"status": {"observedGeneration": 1E2}' in out
    assert "\n\t\t\"template\": {\n\t\t\t\"spec\"" in out
    assert run("render", "--check", str(path)).exit_code == 0


# Item 6: merge keys, whichever ruamel.yaml version setup.cfg allows.

MERGED = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm1
  labels: &labels
    app: x
spec:
  runStrategy: Halted
  instancetype:
    name: u1.medium
  template:
    metadata:
      labels:
        <<: *labels
        extra: why
    spec:
      domain: &dom
        <<: {devices: {}}
        features: {}
"""


@pytest.mark.parametrize("mode", ["--write", "--diff", "--output-dir"])
def test_merge_keys_in_a_vm(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text(MERGED)
    args = [mode, str(tmp_path / "out")] if mode == "--output-dir" else [mode]
    result = run("render", *args, str(path))
    shows_changes = mode == "--diff"  # exit 1, as git diff --exit-code
    assert (result.exit_code, result.exception is None or shows_changes) == (int(shows_changes), True), result.output
    if mode == "--write":
        assert expanded(path.read_text()) and "<<: *labels" in path.read_text()
        assert run("render", "--check", str(path)).exit_code == 0


def test_the_allowed_ruamel_versions_are_pinned() -> None:
    setup = (Path(__file__).resolve().parent.parent / "setup.cfg").read_text()
    assert "ruamel.yaml>=0.18,<0.20" in setup


# Item 7: nesting up to the documented limit works in every mode; aliases cannot nest past it.

def _deep_vm(levels: int) -> str:
    # The nesting sits in an object the API server does not judge (a VM's unknown status fields it refuses).
    return (VM + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\nbinaryData: "
            + "{a: " * levels + "1" + "}" * levels + "\n")


def _deepest_accepted() -> int:
    from kubectl_instancetype.errors import InternalLimitError

    levels = 500
    while True:
        try:
            load_stream(_deep_vm(levels + 1), "t")
        except InternalLimitError:
            return levels
        levels += 1


@pytest.mark.parametrize("mode", [[], ["-o", "json"], ["-o", "patch"], ["--vmi"], ["--diff"], ["--write"],
                                  ["--output-dir", "out"]])
def test_nesting_up_to_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    levels = _deepest_accepted()
    Path("vm.yaml").write_text(_deep_vm(levels))
    result = run("render", *mode, "vm.yaml")
    shows_changes = mode == ["--diff"]  # exit 1, as git diff --exit-code
    assert (result.exit_code, result.exception is None or shows_changes) == (int(shows_changes), True), \
        result.output[-300:]
    Path("too.yaml").write_text(_deep_vm(levels + 1))
    result = run("render", *mode, "too.yaml")
    assert result.exit_code == 3 and "nested deeper than the limit of 512" in result.stderr


def test_aliases_cannot_nest_past_the_limit() -> None:
    from kubectl_instancetype.errors import InternalLimitError

    text = "a: &a " + "[" * 300 + "1" + "]" * 300 + "\nb: " + "[" * 250 + "*a" + "]" * 250 + "\n"
    with pytest.raises(InternalLimitError, match="through aliases"):
        load_stream(text, "t")


# Item 8: infinities and NaN cannot be JSON: refused where they are read, in every command.

PREFERENCE_NAN = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachinePreference
metadata:
  name: odd
spec:
  cpu:
    preferredCPUTopology: cores
  preferredTerminationGracePeriodSeconds: .nan
"""


@pytest.mark.parametrize("args", [
    ["render", "-o", "json"], ["render", "-o", "patch"], ["render"], ["render", "--vmi", "-o", "json"],
    ["revision", "-o", "json"], ["catalog", "list", "-o", "json"], ["catalog", "show", "odd", "-o", "json"],
])
def test_nan_and_infinity_are_refused_where_they_are_read(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "pref.yaml").write_text(PREFERENCE_NAN)
    vm = VM.replace("        devices: {}\n", "        devices: {}\n      terminationGracePeriodSeconds: .inf\n")
    (tmp_path / "vm.yaml").write_text(vm + "  preference:\n    name: odd\n    kind: VirtualMachinePreference\n")
    sources = ["--catalog", str(tmp_path / "pref.yaml")]
    if args[0] != "catalog":
        sources += ["-f", str(tmp_path / "vm.yaml")]
    result = run(*args, *sources)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 3, result.output
    assert "'.nan' is not a number JSON can hold" in result.stderr
    assert "NaN" not in result.stdout and "Infinity" not in result.stdout


def test_a_float_out_of_range_stays_a_string_as_in_go_yaml() -> None:
    assert load_stream("a: 1e999\nb: -1e999\nc: 1e308\n", "t")[0].data == {"a": "1e999", "b": "-1e999", "c": 1e308}


# Item 15: input limits count bytes, bound standard input and apply to every source.

def test_standard_input_is_read_with_a_bound(tmp_path: Path) -> None:
    start = time.monotonic()
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([sys.executable, "-m", "kubectl_instancetype", "render", "-f", "-",
                               "--max-input-bytes", "100000"], stdin=zero, capture_output=True, text=True,
                              timeout=60)
    assert proc.returncode == 3
    assert "<stdin>:1:1: error: input is larger than the limit of 100000 bytes" in proc.stderr
    assert time.monotonic() - start < 30


def test_the_limit_counts_bytes_not_characters(tmp_path: Path) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text(VM + "# " + "é" * 600 + "\n")  # fewer than 1000 characters, more than 1000 bytes
    assert len(path.read_text()) < 1000 < len(path.read_bytes())
    result = run("render", "-f", str(path), "--max-input-bytes", "1000")
    assert result.exit_code == 3 and "larger than the limit of 1000 bytes" in result.stderr


@pytest.mark.parametrize("option", ["--catalog", "--kubevirt-config"])
def test_the_limit_applies_to_catalogs_and_the_cluster_configuration(tmp_path: Path, option: str) -> None:
    (tmp_path / "vm.yaml").write_text(VM)
    (tmp_path / "big.yaml").write_text("# " + "x" * 5000 + "\n")
    result = run("render", "-f", str(tmp_path / "vm.yaml"), option, str(tmp_path / "big.yaml"),
                 "--max-input-bytes", "4000")
    assert result.exit_code == 3 and f"{tmp_path / 'big.yaml'}:1:1: error: input is larger" in result.stderr


def test_invalid_utf8_on_standard_input_is_an_input_error() -> None:
    result = CliRunner().invoke(main_group, ["render", "-f", "-"], input=b"kind: \xff\n")
    assert result.exit_code == 3
    assert result.stderr.startswith("<stdin>:1:1: error: not UTF-8 text")


# Item 11: what renders but ruamel.yaml's round trip cannot read is refused, located, never a crash; since
# issue 25 the splice path (libyaml's reader, as render's) writes what needs no round trip, tags and tabs kept.

def test_what_ruamel_cannot_edit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vm.yaml"
    # a flow mapping with content that changes (only the editor keeps it flow), in a document ruamel cannot read:
    # a tab inside a plain scalar (tabs between tokens are read as spaces since issue 30)
    text = VM.replace("  name: vm1\n", "  name: vm1\n  annotations:\n    note: a \tb\n", 1).replace(
        "domain:\n        devices: {}\n", "domain: {devices: {}, clock: {utc: {}}}\n")
    path.write_text(text)
    assert run("render", "-f", str(path)).exit_code == 0  # Kubernetes reads it
    for mode in ("--write", "--diff", "--check"):
        result = run("render", mode, str(path))
        assert (result.exit_code, result.exception is None or isinstance(result.exception, SystemExit)) == (3, True)
        assert ":6:13: error: cannot rewrite this document: ruamel.yaml cannot edit it" in result.stderr
        assert len(result.stderr.splitlines()) == 1, result.stderr
    assert path.read_text() == text


@pytest.mark.parametrize("change", [
    ("spec:\n", "spec:\t\n"),
    ("  name: vm1\n", "  name: vm1\n  labels: {a: !!timestamp x}\n"),
    ("  name: vm1\n", "  name: vm1\n  labels: {a: !!timestamp 2001-13-45}\n"),
])
def test_what_ruamel_cannot_edit_is_spliced(tmp_path: Path, change: tuple[str, str]) -> None:
    path = tmp_path / "vm.yaml"
    text = VM.replace(*change)
    path.write_text(text)
    rendered = run("render", "-o", "json", "-f", str(path))
    assert rendered.exit_code == 0
    result = run("render", "--write", str(path))
    assert (result.exit_code, result.stderr) == (0, f"wrote {path}\n")
    written = path.read_text()
    assert change[1].splitlines()[-1] in written  # the tab, the tagged scalar: kept as written
    expected = json.loads(rendered.stdout)
    del expected["metadata"]["namespace"]
    assert load_stream(written, "x")[0].data == expected
# Items 13, 20, 21: krm and List handling.

KRM_LIST = '{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": %s}'


@pytest.mark.parametrize("stdin", [
    KRM_LIST % '[{"kind": []}]', KRM_LIST % '[{"kind": {}}]',
    '{"apiVersion": "v1", "kind": "List", "items": [{"kind": []}]}',
])
def test_krm_with_kinds_that_are_not_strings(stdin: str) -> None:
    result = CliRunner().invoke(main_group, ["krm"], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 3)


def test_two_resource_lists_are_refused() -> None:
    one = KRM_LIST % "[]"
    result = CliRunner().invoke(main_group, ["krm"], input=f"{one}\n---\n{one}\n")
    assert result.exit_code == 3
    assert "a ResourceList must be the only document of its input" in result.stderr


def test_a_custom_kind_ending_in_list_is_not_flattened(tmp_path: Path) -> None:
    allow = "apiVersion: example.com/v1\nkind: AllowList\nmetadata:\n  name: a\nitems:\n- ex\n- why\n"
    vm_list = f"apiVersion: kubevirt.io/v1\nkind: VirtualMachineList\nitems:\n- {VM.replace(chr(10), chr(10) + '  ')}"
    path = tmp_path / "in.yaml"
    path.write_text(f"{allow}---\n{vm_list}")
    result = run("render", "-f", str(path))
    assert result.exit_code == 0, result.output
    docs = [d.data for d in load_stream(result.stdout, "out")]
    assert [d["kind"] for d in docs] == ["AllowList", "VirtualMachine"]
    assert docs[0]["items"] == ["ex", "why"]
    assert run("render", "--write", str(path)).exit_code == 0
    assert path.read_text().startswith(allow) and "VirtualMachineList" in path.read_text()


def test_krm_messages_stay_on_one_line() -> None:
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "a\nb"},
          "spec": {"instancetype": {"name": "no\nsuch"}, "template": {"spec": {"domain": {"devices": {}}}}}}
    import json

    result = CliRunner().invoke(main_group, ["krm", "--no-builtin-catalog"], input=KRM_LIST % json.dumps([vm]))
    assert result.exit_code in (1, 3)
    lines = result.stderr.splitlines()
    assert lines and all(": error: " in line for line in lines), result.stderr


def test_merge_sources_reads_both_shapes_ruamel_yaml_keeps() -> None:
    from ruamel.yaml.comments import CommentedMap

    from kubectl_instancetype.yamlio.edit import merge_sources

    source = CommentedMap(a=1)

    class Old(CommentedMap):  # ruamel.yaml 0.18: (position, mapping) pairs
        merge = [(0, source)]  # noqa: RUF012

    class New(CommentedMap):  # ruamel.yaml 0.19: the mappings themselves
        merge = [source]  # noqa: RUF012

    assert merge_sources(Old()) == merge_sources(New()) == [source]


def test_files_of_the_output_tree_named_as_inputs_are_not_inputs(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    src = _src(tmp_path)
    monkeypatch.chdir(src)
    assert run("render", "-f", "a.yaml", "--output-dir", "rendered").exit_code == 0
    before = Path("rendered/a.yaml").read_bytes()
    result = run("render", "a.yaml", "rendered/a.yaml", "--output-dir", "rendered")  # as pre-commit passes them
    assert result.exit_code == 0, result.output
    assert Path("rendered/a.yaml").read_bytes() == before and not Path("rendered/rendered").exists()


def test_two_byte_order_marks(tmp_path: Path) -> None:
    """Found by the long fuzz run: the parser skips a second mark without counting it in its positions."""
    path = tmp_path / "vm.yaml"
    path.write_text("\ufeff\ufeff" + VM)
    result = run("render", "--write", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith("\ufeff\ufeffapiVersion") and expanded(path.read_text())
    assert run("render", "--check", str(path)).exit_code == 0
