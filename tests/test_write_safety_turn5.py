"""The turn-5 attack round's defects in what the tool writes (issue 30: D1-D4, W1, W7, T5, M4-M6), one
regression test each.

The reproducers are ``testdata/repros-t5/<id>/`` (copied from the team's ``shared/reliability/repros-t5/``, whose
README indexes them; each folder's ``cmd`` is the shell form of its test). Every failure is one line with
its documented exit status: never exit 4, never a damaged file, never a file written where it was not asked.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import CONFORMANCE, TESTDATA, invoke_cli
from kubevirt_case import case_names, release_of_case

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.cli.render import vm_renderer
from kubectl_instancetype.gitops.drift import differences
from kubectl_instancetype.gitops.plan import rendered_text, would_change
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render
from kubectl_instancetype.schemas import header
from kubectl_instancetype.yamlio.load import load_stream

REPROS = TESTDATA / "repros-t5"


def repro(name: str, where: Path, *files: str) -> Path:
    """The files of reproducer ``name`` copied (writable) into ``where``; ``where``."""
    folder = next(REPROS.glob(f"{name}-*"))
    for file in files or [p.name for p in folder.iterdir() if p.name != "cmd"]:
        shutil.copyfile(folder / file, where / file)
    return where


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[str, str, int]:
    out, err, status = invoke_cli(list(args), cwd, env=env)
    assert status != 4 and "Traceback" not in err and "internal error" not in err, err
    return out, err, status


# --- D1: a pin writes only what the cluster keeps ---------------------------------------------------------


@pytest.mark.parametrize("name", ["infer-from-volume.yaml", "refpolicy-expand.yaml", "template-spec-null.yaml"])
def test_d1_a_pinned_vm_is_admitted_as_it_was(tmp_path: Path, name: str) -> None:
    repro("D1", tmp_path, name)
    assert cli("validate", "-f", name, cwd=tmp_path)[2] == 0
    _, err, status = cli("render", "--write", "--pin", "-f", name, cwd=tmp_path)
    assert (status, err) == (0, f"wrote {name}\n")
    _, err, status = cli("validate", "-f", name, cwd=tmp_path)
    assert (status, err) == (0, ""), err
    assert "inferFromVolume" not in (tmp_path / name).read_text()
    # pinned once, pinned for good: --check --pin agrees with the file it wrote
    assert cli("render", "--check", "--pin", "-f", name, cwd=tmp_path)[2] == 0


def test_d1_inference_and_expand_are_left_to_what_the_cluster_stores(tmp_path: Path) -> None:
    repro("D1", tmp_path)
    for name in ("infer-from-volume.yaml", "refpolicy-expand.yaml"):  # (the KubeVirt CR is the second file's)
        cli("render", "--write", "--pin", "-f", name, cwd=tmp_path)
    inferred = load_stream((tmp_path / "infer-from-volume.yaml").read_text(), "f")[1].data["spec"]
    assert inferred["instancetype"]["name"] == "u1.medium" and "inferFromVolume" not in inferred["instancetype"]
    assert inferred["preference"]["name"] == "fedora" and "inferFromVolume" not in inferred["preference"]
    expanded = load_stream((tmp_path / "refpolicy-expand.yaml").read_text(), "f")[1].data["spec"]
    assert "instancetype" not in expanded  # referencePolicy: expand replaces the reference by its values
    assert expanded["template"]["spec"]["domain"]["memory"] == {"guest": "4Gi"}


def _admitted_cases() -> list[str]:
    return [c for c in case_names(CONFORMANCE / "cases") if not (CONFORMANCE / "cases" / c / "error.txt").exists()]


def _stored(path: Path, release: str) -> list[dict[str, object]] | None:
    """The VMs of ``path`` as the cluster stores them; None when one is refused (or nothing loads)."""
    loaded = gather(Request((str(path),), builtin=False, kubevirt_version=release), FILES)
    if loaded.problems:
        return None
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config), vm_renderer(False, stored=True))
    vms = [item.rendered for item in result.items if item.is_vm]
    return None if result.problems or not vms else vms


CHUNKS = 8  # the corpus in parts, so that parallel workers share it


def test_d1_the_corpus_has_the_admitted_vms() -> None:
    assert len(_admitted_cases()) > 400  # the admitted VMs of testdata/conformance (412 at kubevirt/kubevirt d923fdb8)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_d1_pin_property_over_the_conformance_corpus(tmp_path: Path, chunk: int) -> None:
    """Every VM of the corpus KubeVirt admits, pinned through the writer: the pinned file is admitted, the
    cluster stores it as it stores the original, and pinning it again changes nothing (--check --pin)."""
    pinned = 0
    names = _admitted_cases()[chunk::CHUNKS]
    for name in names:
        case = CONFORMANCE / "cases" / name
        release = release_of_case(case)
        before = _stored(case / "input.yaml", release)
        if before is None:
            continue
        text = (case / "input.yaml").read_text(encoding="utf-8")
        loaded = gather(Request((str(case / "input.yaml"),), builtin=False, kubevirt_version=release), FILES)
        items = render(loaded.documents, loaded.catalog, Options(config=loaded.config),
                       vm_renderer(False, pin=True)).items
        target = tmp_path / f"{name}.yaml"
        target.write_text(rendered_text(text, str(case / "input.yaml"), items), encoding="utf-8")
        after = _stored(target, release)
        assert after is not None, f"{name}: the pinned VM is refused"
        for was, now in zip(before, after, strict=True):
            assert differences(was, now) == [], name  # (generation aside: bookkeeping)
        again = gather(Request((str(target),), builtin=False, kubevirt_version=release), FILES)
        repinned = render(again.documents, again.catalog, Options(config=again.config), vm_renderer(False, pin=True))
        assert not would_change(repinned.items), f"{name}: --check --pin disagrees with the pinned file"
        pinned += 1
    assert pinned >= len(names) - 2  # all but the few whose stored form the cluster refuses (1 of 412)


# --- D3, T5: the writer's own checks ----------------------------------------------------------------------


def test_d3_pin_edits_the_template_it_has(tmp_path: Path) -> None:
    repro("D3", tmp_path)
    _, err, status = cli("render", "--pin", "--write", "-f", "vm.yaml", cwd=tmp_path)
    assert (status, err) == (0, "wrote vm.yaml\n")
    text = (tmp_path / "vm.yaml").read_text()
    assert len(re.findall(r"(?m)^  template:", text)) == 1
    assert text.startswith("apiVersion: kubevirt.io/v1   \nkind: VirtualMachine   \n")  # untouched lines as they were
    # the pinned keys where kubectl get -o yaml shows them (sorted), the file's own lines as they were
    assert "        devices: {}   \n        machine:\n          type: q35\n        resources: {}\n" in text
    assert text.endswith("---")
    assert load_stream(text, "vm.yaml")[0].warnings == ()
    _, err, status = cli("render", "--write", "-f", "vm.yaml", cwd=tmp_path)
    assert (status, err) == (0, "wrote vm.yaml\n")


def test_d3_a_rewrite_that_repeats_a_key_is_refused() -> None:
    """A text that writes a key twice reads as its last value: the check after a rewrite does not take it for
    the new data (the merge of D3 did exactly that)."""
    from kubectl_instancetype.yamlio import roundtrip

    assert roundtrip._loads_as("a: 1\nb: 2\n", {"a": 1, "b": 2}, "x")
    assert not roundtrip._loads_as("a: 0\nb: 2\na: 1\n", {"a": 1, "b": 2}, "x")


@pytest.mark.parametrize("args", [("--write",), ("--pin", "--write"), ("--diff",), ("--check",)])
def test_t5_tag_directive_and_a_blank_last_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    repro("T5", tmp_path)
    out, err, status = cli("render", *args, "-f", "vm.yaml", cwd=tmp_path)
    assert status in (0, 1), err
    text = (tmp_path / "vm.yaml").read_text()
    if "--write" in args:
        assert err == "wrote vm.yaml\n"
        assert text.startswith("%TAG !k! tag:yaml.org,2002:\n---\n") and "  name: !k!str web\n" in text
        assert load_stream(text, "vm.yaml")[0].data["metadata"]["name"] == "web"
    if "--diff" in args:
        assert out.startswith("--- vm.yaml\n+++ vm.yaml\n")


# --- D2, D4: a report never replaces an input, never follows a link -----------------------------------------


@pytest.mark.parametrize("args", [
    ("render", "--write", "--output-format", "json", "--output-file", "vm.yaml"),
    ("render", "--output-format", "json", "--output-file", "vm.yaml"),
    ("render", "--write", "--junit-xml", "vm.yaml"),
    ("validate", "--output-format", "sarif", "--output-file", "./vm.yaml"),
    ("convert", "--write", "--output-format", "json", "--output-file", "vm.yaml"),
    ("suggest", "--write", "--output-format", "json", "--output-file", "vm.yaml"),
])
def test_d2_a_report_naming_an_input_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    repro("D2", tmp_path)
    before = (tmp_path / "vm.yaml").read_text()
    _, err, status = cli(*args, "-f", "vm.yaml", cwd=tmp_path)
    option, path = args[-2:]
    assert status == 2
    assert err.endswith(f"Error: {option} {path} is the input vm.yaml: the report would replace it\n")
    assert (tmp_path / "vm.yaml").read_text() == before  # neither rendered nor replaced by a report


@pytest.mark.parametrize(("args", "name"), [
    (("validate", "--output-format", "sarif", "--output-file", "results.sarif"), "results.sarif"),
    (("render", "--junit-xml", "report.xml"), "report.xml"),
    (("render", "--output-format", "json", "--output-file", "out/report.json"), "out"),
])
def test_d4_a_report_is_never_written_through_a_planted_link(tmp_path: Path, args: tuple[str, ...],
                                                             name: str) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    repro("D4", checkout)
    (tmp_path / "outside.txt").write_text("precious\n")
    (tmp_path / "outside").mkdir()
    (checkout / name).symlink_to("../outside" if name == "out" else "../outside.txt")
    _, err, status = cli(*args, "-f", "vm.yaml", cwd=checkout)
    assert status == 3
    assert err.endswith(f"{name}:1:1: error: refusing to write through a symbolic link: a pull request can plant "
                        "one where a report goes\n")
    assert (tmp_path / "outside.txt").read_text() == "precious\n"
    assert list((tmp_path / "outside").iterdir()) == []


def test_d4_a_report_file_is_replaced_whole(tmp_path: Path) -> None:
    repro("D4", tmp_path)
    (tmp_path / "results.sarif").write_text("old\n" * 10_000)
    _, _, status = cli("validate", "-f", "vm.yaml", "--output-format", "sarif", "--output-file", "results.sarif",
                       cwd=tmp_path)
    assert status == 0
    assert json.loads((tmp_path / "results.sarif").read_text())["version"] == "2.1.0"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.sarif", "vm.yaml"]  # no temporary file left


# --- W7: what the cluster assigns is no patch ------------------------------------------------------------------


def test_w7_stored_patches_are_refused_as_stored_writes(tmp_path: Path) -> None:
    repro("W7", tmp_path)
    out, err, status = cli("render", "-f", "vm.yaml", "--stored", "-o", "patch", cwd=tmp_path)
    assert (status, out) == (2, "")
    assert err.endswith("Error: --stored prints what the cluster stores (with values it assigns): it cannot be a "
                        "patch; use --pin\n")
    _, err, status = cli("render", "-f", "vm.yaml", "--stored", "--write", cwd=tmp_path)
    assert status == 2 and "it cannot be written into files; use --pin" in err


# --- M5: a relative XDG_CACHE_HOME is ignored ---------------------------------------------------------------


def test_m5_a_relative_cache_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from kubectl_instancetype.cli import fetch
    from kubectl_instancetype.cli.fetch import cache_dir

    monkeypatch.setattr(fetch, "_deadline", [])  # each run of the tool its own download deadline
    served, tree, home = tmp_path / "srv", tmp_path / "tree", tmp_path / "home"
    for folder in (served, tree, home):
        folder.mkdir()
    repro("M5", served, "catalog.yaml")
    repro("M5", tree, "vm.yaml")
    monkeypatch.setenv("HOME", str(home))
    for relative in (".", "cache", "./x/.."):
        monkeypatch.setenv("XDG_CACHE_HOME", relative)
        assert cache_dir() == home / ".cache" / "kubectl-instancetype" / "catalogs"

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(served), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        sha = hashlib.sha256((served / "catalog.yaml").read_bytes()).hexdigest()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/catalog.yaml#sha256={sha}"
        for _ in range(2):
            _, err, status = cli("render", "-R", "-f", ".", "--summary", "--catalog", url, cwd=tree,
                                 env={"XDG_CACHE_HOME": ".", "HOME": str(home)})
            assert (status, err) == (0, "1 VM in 1 file: 1 rendered, 0 refused, 0 warnings\n")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert [p.name for p in tree.iterdir()] == ["vm.yaml"]
    assert (home / ".cache" / "kubectl-instancetype" / "catalogs" / f"sha256-{sha}.yaml").is_file()


# --- M6: a report on standard error is the only thing there, the out-of-date file a result in it ------------


def _parsed(fmt: str, text: str) -> list[tuple[str, str]]:
    """(file, message) of each result of a report in ``fmt``."""
    import xml.etree.ElementTree as ET

    if fmt == "sarif":
        results = json.loads(text)["runs"][0]["results"]
        return [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["message"]["text"])
                for r in results]
    if fmt == "json":
        files = {k: v for k, v in json.loads(text).items() if k not in ("apiVersion", "kind")}
        return [(file, status["message"]) for file, statuses in files.items() for status in statuses
                if status["status"] == "Failure"]
    if fmt == "junit":
        return [(case.get("file", ""), failure.get("message", "")) for case in ET.fromstring(text).iter("testcase")
                for failure in case.iter("failure")]
    lines = text.splitlines()
    assert all(line.startswith(("::error file=", "::warning file=")) for line in lines), text  # the report alone
    return [(re.sub(r"^::error file=([^,]*),.*", r"\1", line), line.split("::")[-1]) for line in lines
            if line.startswith("::error")]


@pytest.mark.parametrize("fmt", ["sarif", "json", "junit", "github"])
def test_m6_check_report_on_standard_error_is_the_report_alone(tmp_path: Path, fmt: str) -> None:
    repro("M6", tmp_path)
    out, err, status = cli("render", "--check", "--summary", "--output-format", fmt, "-f", "ok.yaml",
                           "-f", "refused.yaml", cwd=tmp_path)
    assert (status, out) == (1, "ok.yaml\n")
    results = _parsed(fmt, err)  # nothing but the report: "1 file would be rewritten" and the summary left out
    assert ("ok.yaml", "not up to date: kubectl instancetype render --write would rewrite this file") in results
    assert any(file == "refused.yaml" and "conflicts with selected instance type" in message
               for file, message in results)


def test_m6_the_out_of_date_file_is_in_every_report_file(tmp_path: Path) -> None:
    repro("M6", tmp_path)
    out, err, status = cli("render", "--check", "--output-format", "sarif", "--output-file", "r.sarif",
                           "--junit-xml", "r.xml", "-f", "ok.yaml", cwd=tmp_path)
    assert (status, out) == (1, "ok.yaml\n")
    assert err == "1 file would be rewritten\n"  # the text lines as before
    wanted = ("ok.yaml", "not up to date: kubectl instancetype render --write would rewrite this file")
    assert _parsed("sarif", (tmp_path / "r.sarif").read_text()) == [wanted]
    assert _parsed("junit", (tmp_path / "r.xml").read_text()) == [wanted]
    rule = json.loads((tmp_path / "r.sarif").read_text())["runs"][0]["results"][0]["ruleId"]
    assert rule == "KIT005"
    _, err, status = cli("render", "--write", "--output-format", "json", "-f", "ok.yaml", cwd=tmp_path)
    report = {**header("Report"), "ok.yaml": [json.loads(err)["ok.yaml"][0]]}
    assert (status, json.loads(err)) == (0, report)  # no "wrote" line
    _, err, status = cli("render", "--check", "--output-format", "json", "-f", "ok.yaml", cwd=tmp_path)
    assert status == 0 and json.loads(err)["ok.yaml"][0]["status"] == "Success"


# --- W1: a pool's replicas each get their own identity ----------------------------------------------------


def test_w1_pin_writes_nothing_into_a_pool_template(tmp_path: Path) -> None:
    repro("W1", tmp_path)
    before = (tmp_path / "pool.yaml").read_text()
    out, err, status = cli("render", "--pin", "--pin-firmware", "-f", "pool.yaml", cwd=tmp_path)
    assert (status, err) == (0, "")
    printed = load_stream(out, "out")[0].data
    assert printed == load_stream(before, "pool.yaml")[0].data  # no firmware uuid/serial shared by web-0, web-1…
    assert "firmware" not in out
    _, err, status = cli("render", "--pin", "--pin-firmware", "--write", "-f", "pool.yaml", cwd=tmp_path)
    assert (status, err) == (0, "")
    assert (tmp_path / "pool.yaml").read_text() == before


def test_w1_stored_pool_is_the_pool_as_written(tmp_path: Path) -> None:
    """No mutating webhook is registered for pools (virt-operator's webhooks.go): the pool's template keeps no
    architecture, machine type or firmware of the VM webhook; the pool controller's own finalizer is added."""
    repro("W1", tmp_path)
    out, err, status = cli("render", "--stored", "-f", "pool.yaml", cwd=tmp_path)
    assert (status, err) == (0, "")
    stored = load_stream(out, "out")[0].data
    written = load_stream((tmp_path / "pool.yaml").read_text(), "pool.yaml")[0].data
    assert stored["spec"] == written["spec"]
    assert stored["metadata"] == {**written["metadata"], "uid": "<assigned by the cluster>",
                                  "finalizers": ["pool.kubevirt.io/finalizer"]}
    # the pool's VMs are still checked: a template KubeVirt refuses is refused in every mode
    (tmp_path / "bad.yaml").write_text((tmp_path / "pool.yaml").read_text().replace(
        "            devices: {}\n", "            devices: {}\n            cpu: {sockets: 3}\n"))
    for mode in ("--stored", "--pin"):
        _, err, status = cli("render", mode, "-f", "bad.yaml", cwd=tmp_path)
        assert status == 1 and "conflicts with selected instance type" in err, err


# --- M4: --check says what --write does ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tagged-root.yaml", "tab-in-flow.yaml", "tagged-root-full.yaml",
                                  "tab-in-flow-full.yaml"])
def test_m4_valid_files_are_written_and_check_agrees(tmp_path: Path, name: str) -> None:
    repro("M4", tmp_path, name)
    original = load_stream((tmp_path / name).read_text(), name)
    assert cli("render", "-q", "--check", "-f", name, cwd=tmp_path)[:2] == (f"{name}\n", "1 file would be rewritten\n")
    _, err, status = cli("render", "-q", "--write", "-f", name, cwd=tmp_path)
    assert (status, err) == (0, "")  # -q: no "wrote" line
    written = load_stream((tmp_path / name).read_text(), name)
    assert [d.data for d in written if d.data.get("kind") != "VirtualMachine"] == \
        [d.data for d in original if d.data.get("kind") != "VirtualMachine"]  # the neighbours as they were
    assert cli("render", "-q", "--check", "-f", name, cwd=tmp_path)[2] == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_m4_check_refuses_what_write_refuses(tmp_path: Path, jobs: str) -> None:
    repro("M4", tmp_path, "tagged-root.yaml")
    text = (tmp_path / "tagged-root.yaml").read_text().replace("  runStrategy: Always\n",
                                                               "  runStrategy: Always\n  runStrategy: Always\n")
    (tmp_path / "vm.yaml").write_text(text)
    results = [cli("render", "-q", mode, "--jobs", jobs, "-f", "vm.yaml", cwd=tmp_path)
               for mode in ("--check", "--write")]
    refusal = "vm.yaml:5:1: error: cannot rewrite a document whose mapping keys repeat: remove the repeated keys\n"
    for out, err, status in results:
        assert (out, status) == ("", 3) and err.endswith(refusal), err
    assert (tmp_path / "vm.yaml").read_text() == text
