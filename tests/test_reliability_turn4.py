"""The defects the turn-4 attack round found (issue 25), one regression test each.

The reproducers are ``testdata/reliability/turn4/`` (copied from the team's ``shared/reliability/repros/``, whose
README indexes them); the shell scripts are run here as Python. Every failure is one line,
``path:line:col: error: message``, with its documented exit status — never exit 4 or a traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TESTDATA, git, invoke_cli

from kubectl_instancetype.cli import fetch
from kubectl_instancetype.yamlio.load import load_stream

REPROS = TESTDATA / "reliability" / "turn4"
ONE_LINE_ERROR = re.compile(r"^[^\n]+:\d+:\d+: error: [^\n]+\n\Z")

VM = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: a\nspec:\n  runStrategy: Always\n"
      "  instancetype:\n    name: {it}\n  template:\n    spec:\n      domain:\n        devices: {{}}\n")


def copy(name: str, where: Path) -> Path:
    target = where / name
    shutil.copyfile(REPROS / name, target)
    return target


def cli(*args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None) -> tuple[str, str, int]:
    out, err, status = invoke_cli(list(args), cwd, env=env, stdin=stdin)
    assert status != 4 and "Traceback" not in err and "internal error" not in err, err
    return out, err, status


# --- data loss ------------------------------------------------------------------------------------------------


def test_d1_an_edit_made_while_write_runs_is_not_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubectl_instancetype.gitops import plan

    f = tmp_path / "vms.yaml"
    f.write_text("---\n".join(VM.format(it="u1.medium").replace("name: a", f"name: vm-{i}") for i in range(3)))
    edit = "---\n# added by a colleague while the tool ran\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: edited}\n"
    original = plan.rendered_text

    def meanwhile(text: str, source: str, items: object) -> str:
        new = original(text, source, items)  # type: ignore[arg-type]
        with open(f, "a") as handle:  # the colleague's edit lands after the file was read
            handle.write(edit)
        return new

    monkeypatch.setattr(plan, "rendered_text", meanwhile)
    _, err, status = cli("render", "--write", "-f", "vms.yaml", cwd=tmp_path)
    assert status == 3
    assert err == f"{os.path.realpath(f)}:1:1: error: file changed while it was being rewritten: left as it is now " \
                  "(run again)\n"
    assert f.read_text().endswith(edit)


def test_d2_suggest_write_keeps_the_fields_validation_pruned(tmp_path: Path) -> None:
    f = copy("suggest-validate-ignore-drops-fields.yaml", tmp_path)
    _, err, status = cli("suggest", "--validate", "ignore", "--write", "-f", f.name, cwd=tmp_path)
    assert status == 0, err
    text = f.read_text()
    assert "  futureField: 1  # keep me\n" in text and "        futureDomainField: x\n" in text
    assert "instancetype:\n    name: u1.medium" in text
    assert "cpu:" not in text  # what the instancetype now provides is removed


# --- wrong answers ---------------------------------------------------------------------------------------------


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "vms").mkdir(parents=True)
    git(repo, "init", "-q", ".")
    (repo / "vms" / "a.yaml").write_text(VM.format(it="u1.medium"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def test_w2_diff_base_with_an_absolute_or_dotted_path_sees_the_change(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "vms" / "a.yaml").write_text(VM.format(it="u1.large"))
    for args, cwd in ((["vms"], repo), ([str(repo / "vms")], repo), (["../vms"], repo / "vms")):
        out, err, status = cli("diff", "--base", "HEAD", *args, cwd=cwd)
        assert status == 1, (args, out, err)
        assert "1 of 1 VirtualMachines change against HEAD" in out + err


def test_w3_diff_of_a_path_on_neither_side_is_an_error(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    for args, name in ((["vsm"], "vsm"), (["vms", "--catalog", "catalgo/"], "catalgo"),
                       (["vms", "--kubevirt-config", "kv.yml"], "kv.yml")):
        _, err, status = cli("diff", "--base", "HEAD", *args, cwd=repo)
        assert status == 3, (args, err)
        assert f"{name}:1:1: error: no such file or directory (neither in the working tree nor at HEAD)\n" in err


def test_w4_yaml_1_1_directive_and_a_flow_colon(tmp_path: Path) -> None:
    out, err, status = cli("render", "-f", str(REPROS / "yaml11-directive-flow-colon.yaml"), cwd=tmp_path)
    assert (status, err) == (0, "")
    assert "  image: quay.io/x:41\n" in out


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a byte-named file system")
def test_w5_t6_non_utf8_file_names_are_escaped_in_reports(tmp_path: Path) -> None:
    name = os.fsdecode(b"bad\xff.yaml")
    (tmp_path / name).write_text(VM.format(it="u1.medium"))
    _, err, status = cli("render", "--junit-xml", "j.xml", "-f", ".", cwd=tmp_path)
    assert status == 0, err
    report = (tmp_path / "j.xml").read_bytes()
    report.decode("utf-8")
    assert "bad\\xff.yaml" in ET.fromstring(report).find(".//testcase").get("name", "") + report.decode()
    out, _, status = cli("suggest", "-o", "json", "-f", ".", cwd=tmp_path)
    assert status == 0
    out.encode("utf-8")  # no lone surrogate: the report is valid UTF-8
    assert "bad\\\\xff.yaml" in out and json.loads(out)


def test_w6_one_flow_colon_does_not_switch_readers(tmp_path: Path) -> None:
    """A text libyaml refuses is refused the same with or without a flow colon elsewhere (one reader)."""
    surrogate = REPROS / "flow-colon-then-surrogate.yaml"
    without = tmp_path / "without.yaml"
    without.write_text(surrogate.read_text().replace("{image: quay.io/x:41}", "{image: quay.io/x}"))
    errors = []
    for f in (surrogate, without):
        _, err, status = cli("render", "-o", "json", "-f", str(f), cwd=tmp_path)
        assert status == 3 and ONE_LINE_ERROR.match(err), err
        errors.append(err.partition(": error: ")[2])
    assert errors[0] == errors[1] == ("YAML syntax error: while parsing a quoted scalar, found invalid Unicode "
                                      "character escape code\n")


# --- valid input refused ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "args"), [
    ("write-null-in-preference.yaml", ()),
    ("write-validate-warn-unknown-field.yaml", ("--validate", "warn")),
])
def test_w1_write_after_validation_pruned_a_field(tmp_path: Path, name: str, args: tuple[str, ...]) -> None:
    f = copy(name, tmp_path)
    _, err, status = cli("render", *args, "--write", "-f", name, cwd=tmp_path)
    assert status == 0 and "file changed" not in err, err
    assert load_stream(f.read_text(), name)[-1].data["spec"]["template"]["spec"]["domain"]["cpu"]
    out, err, status = cli("render", *args, "--check", "-f", name, cwd=tmp_path)
    assert (status, out) == (0, ""), err
    if "unknown" in name:
        assert "  futureField: 1\n" in f.read_text()  # the user's field stays in the file


def test_m3_a_root_map_tag_is_rewritten(tmp_path: Path) -> None:
    f = copy("write-root-map-tag.yaml", tmp_path)
    _, err, status = cli("render", "--write", "-f", f.name, cwd=tmp_path)
    assert status == 0, err
    assert f.read_text().startswith("--- !!map\napiVersion: kubevirt.io/v1\n")


# --- exit 4 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [("render", "--write"), ("render", "--diff"),
                                     ("render", "--output-dir", "out"), ("suggest", "--write"),
                                     ("convert", "--write")])
def test_t2_tag_directives(tmp_path: Path, command: tuple[str, ...]) -> None:
    f = copy("tag-directive-write.yaml", tmp_path)
    _, err, status = cli(*command, "-f", f.name, cwd=tmp_path)
    assert status in (0, 1), err
    assert f.read_text().startswith("%TAG !k! tag:yaml.org,2002:\n---\n")
    if command == ("render", "--write"):
        assert "        devices:\n          interfaces:\n" in f.read_text()


@pytest.mark.parametrize("command", [("--write",), ("--diff",), ("--output-dir", "out")])
def test_t7_unquoted_flow_colon_in_a_multi_document_file(tmp_path: Path, command: tuple[str, ...]) -> None:
    f = copy("flow-colon-in-vm-multidoc.yaml", tmp_path)
    out, err, status = cli("render", *command, "-f", f.name, cwd=tmp_path)
    assert status in (0, 1) and "error" not in err, err
    written = f if command == ("--write",) else tmp_path / "out" / f.name
    if command == ("--diff",):
        assert "+        devices:\n" in out or "image: quay.io/x:41" in out
    else:
        assert load_stream(written.read_text(), "x")[1].data["spec"]["template"]["spec"]["volumes"][0][
            "containerDisk"]["image"] == "quay.io/x:41"


def test_t1_a_number_beyond_float64_is_a_string(tmp_path: Path) -> None:
    _, err, status = cli("render", "-f", str(REPROS / "huge-int-no-apiversion.yaml"), cwd=tmp_path)
    assert status == 1 and ONE_LINE_ERROR.match(err), err  # refused as kubectl refuses it, the number a string
    assert "Object 'apiVersion' is missing" in err


@pytest.mark.parametrize("name", ["hex-int-4000-digits.yaml", "decimal-int-4301-digits.yaml"])
def test_t4_m2_long_integers_read_as_go_yaml_reads_them(tmp_path: Path, name: str) -> None:
    for args in ((), ("-o", "json")):
        out, err, status = cli("render", *args, "-f", str(REPROS / name), cwd=tmp_path)
        assert (status, err) == (0, ""), err
        assert "set_int_max_str_digits" not in out + err
    value = json.loads(cli("render", "-o", "json", "-f", str(REPROS / name), cwd=tmp_path)[0])["x"]
    assert isinstance(value, str) and len(value) > 4000  # go-yaml keeps what ParseFloat refuses as a string


def test_integers_at_the_uint64_and_float64_edges() -> None:
    data = load_stream("a: 18446744073709551615\nb: 18446744073709551616\nc: 0xffffffffffffffff\n"
                       "d: 0x10000000000000000\ne: -9223372036854775809\n", "x")[0].data
    assert data == {"a": 18446744073709551615, "b": 1.8446744073709552e19, "c": 18446744073709551615,
                    "d": "0x10000000000000000", "e": -9.223372036854776e18}


@pytest.mark.parametrize("name", ["line-annotation-superscript.yaml", "line-annotation-5000-digits.yaml"])
def test_t3_line_annotations_that_are_no_number(tmp_path: Path, name: str) -> None:
    _, err, status = cli("render", "-f", "-", cwd=tmp_path, stdin=(REPROS / name).read_text())
    assert status == 1, err
    assert err.startswith("vms/a.yaml:")


def test_t3_krm_line_annotation_superscript(tmp_path: Path) -> None:
    out, err, status = cli("krm", cwd=tmp_path, stdin=(REPROS / "krm-line-annotation-superscript.json").read_text())
    assert status in (0, 1), err
    assert "ResourceList" in out


def test_t5_a_lone_surrogate_escape_is_a_syntax_error(tmp_path: Path) -> None:
    _, err, status = cli("render", "-o", "json", "-f", str(REPROS / "flow-colon-then-surrogate.yaml"), cwd=tmp_path)
    assert status == 3 and ONE_LINE_ERROR.match(err), err


# --- hangs -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_h1_a_cache_entry_that_is_no_regular_file_is_not_read(tmp_path: Path, kind: str) -> None:
    sha = "0" * 64
    entry = tmp_path / "cache" / "kubectl-instancetype" / "catalogs" / f"sha256-{sha}.yaml"
    entry.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to("/dev/zero")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(Path(__file__).parent.parent)}
    done = subprocess.run([sys.executable, "-m", "kubectl_instancetype", "catalog", "list", "--catalog",
                           f"http://127.0.0.1:9/x.yaml#sha256={sha}"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("http://127.0.0.1:9/x.yaml:1:1: error: cannot fetch:")


def test_h1_a_cache_entry_larger_than_the_cap_is_not_used(tmp_path: Path) -> None:
    from kubectl_instancetype.catalog.remote import RemoteSource

    entry = tmp_path / "entry"
    entry.write_bytes(b"x" * 100)
    assert fetch._cached(entry, RemoteSource("http://h/x", None), 99) is None
    assert fetch._cached(entry, RemoteSource("http://h/x", None), 100) == b"x" * 100


def test_h2_one_download_deadline_for_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(fetch, "_deadline", [])
    monkeypatch.setattr("time.monotonic", lambda: clock[0])
    assert fetch._remaining(30.0) == 30.0
    clock[0] += 25
    assert fetch._remaining(30.0) == 5.0  # the second URL gets what the first left
    clock[0] += 10
    assert fetch._remaining(30.0) == 0.0


# --- messages --------------------------------------------------------------------------------------------------


def test_m1_a_control_character_is_named_and_located(tmp_path: Path) -> None:
    f = REPROS / "control-char-message.yaml"
    _, err, status = cli("render", "-f", str(f), cwd=tmp_path)
    assert status == 3
    assert err == (f"{f}:4:13: error: YAML syntax error: unacceptable character #x0001: control characters are "
                   "not allowed\n")


def test_m2_a_url_password_is_masked(tmp_path: Path) -> None:
    for url in ("http://bob:s3cret@127.0.0.1:9/x.yaml", "http://bob:s3cret@127.0.0.1:x/x.yaml",
                "ftp://bob:s3cret@host/x.yaml"):
        out, err, status = cli("catalog", "list", "--catalog", url, cwd=tmp_path)
        assert status == 3, err
        assert "s3cret" not in out + err and "bob:***@" in err
