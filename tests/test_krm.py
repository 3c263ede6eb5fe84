"""``kubectl instancetype krm``: goldens under testdata/krm, the functionConfig rules, and kpt for real.

Each directory of testdata/krm is one run: ``in.yaml`` on stdin, the arguments in ``args`` (one a line,
run from that directory), and the exact ``out.yaml``, ``err.txt`` and ``status`` expected.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ROOT, TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.errors import InputError, Location
from kubectl_instancetype.krm import Settings, open_input, settings_from
from kubectl_instancetype.yamlio import load_stream

VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
CASES = sorted(p for p in (TESTDATA / "krm").iterdir() if p.is_dir())
KUSTOMIZE = ROOT / "plugins" / "kustomize"
WHERE = Location("<stdin>")


def run_case(case: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, int]:
    args = (case / "args").read_text().split("\n") if (case / "args").exists() else []
    monkeypatch.chdir(case)
    result = CliRunner().invoke(main_group, ["krm", *filter(None, args)], input=(case / "in.yaml").read_text())
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.stdout, result.stderr, result.exit_code


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, monkeypatch: pytest.MonkeyPatch, update_goldens: bool) -> None:
    out, err, status = run_case(case, monkeypatch)
    if update_goldens:
        (case / "out.yaml").write_text(out)
        (case / "err.txt").write_text(err)
        (case / "status").write_text(f"{status}\n")
    assert out == (case / "out.yaml").read_text()
    assert err == (case / "err.txt").read_text()
    assert status == int((case / "status").read_text())


def test_every_case_has_its_goldens() -> None:
    assert len(CASES) >= 8
    for case in CASES:
        assert {"in.yaml", "out.yaml", "err.txt", "status"} <= {p.name for p in case.iterdir()}, case


def test_rendered_items_keep_their_place_and_annotations(monkeypatch: pytest.MonkeyPatch) -> None:
    out, _, status = run_case(TESTDATA / "krm" / "resource-list", monkeypatch)
    (rl,) = [d.data for d in load_stream(out, "out")]
    assert status == 0 and [i["kind"] for i in rl["items"]] == ["VirtualMachineInstancetype", "VirtualMachine",
                                                                  "Service"]
    vm = rl["items"][1]
    assert "namespace" not in vm["metadata"]
    assert vm["metadata"]["annotations"]["config.k8s.io/id"] == "1"
    assert vm["spec"]["template"]["spec"]["domain"]["memory"] == {"guest": "1Gi"}
    assert "results" not in rl


def test_results_name_resource_field_and_file(monkeypatch: pytest.MonkeyPatch) -> None:
    out, _, status = run_case(TESTDATA / "krm" / "resource-list-error", monkeypatch)
    (rl,) = [d.data for d in load_stream(out, "out")]
    first, second = rl["results"]
    assert status == 1
    assert first["severity"] == "error"
    assert first["resourceRef"] == {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "name": "db",
                                    "namespace": "data"}
    assert first["field"] == {"path": "spec.template.spec.domain.cpu.sockets"}
    assert first["file"] == {"path": "db/vm.yaml", "index": 2}
    assert "namespace" not in second["resourceRef"] and second["field"] == {"path": "spec.instancetype"}


SETTINGS: list[tuple[Any, Settings]] = [
    (None, Settings()),
    ({}, Settings()),
    ({"kind": "ConfigMap", "metadata": {"name": "x"}}, Settings()),
    ({"kind": "ConfigMap", "data": {"catalogs": "a/, b.yaml ,", "vmi": "true", "builtinCatalog": "false"}},
     Settings(catalogs=("a/", "b.yaml"), vmi=True, builtin_catalog=False)),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render",
      "spec": {"catalogs": ["c/"], "namespace": "ns", "kubevirtConfig": "kv.yaml", "arch": "s390x"}},
     Settings(catalogs=("c/",), namespace="ns", kubevirt_config="kv.yaml", arch="s390x")),
    ({"kind": "ConfigMap", "data": {"acceptRemovedVersions": "true"}}, Settings(accept_removed_versions=True)),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render", "spec": {"acceptRemovedVersions": True}},
     Settings(accept_removed_versions=True)),
    ({"kind": "ConfigMap", "data": {"validate": "false"}}, Settings(validate="ignore")),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render", "spec": {"validate": "warn"}},
     Settings(validate="warn")),
]


@pytest.mark.parametrize(("config", "expected"), SETTINGS)
def test_settings(config: Any, expected: Settings) -> None:
    assert settings_from(config, WHERE) == expected


REFUSED: list[tuple[Any, str]] = [
    ({"kind": "Deployment"}, "functionConfig must be a ConfigMap or a kubectl-instancetype/v1alpha1 Render"),
    ({"apiVersion": "other/v1", "kind": "Render"}, "must be a ConfigMap or"),
    ({"kind": "ConfigMap", "data": ["x"]}, "functionConfig data must be a mapping"),
    ({"kind": "ConfigMap", "data": {"vmi": "yes"}}, "vmi must be true or false"),
    ({"kind": "ConfigMap", "data": {"arch": "ppc64le"}}, "arch must be one of amd64, arm64, s390x"),
    ({"kind": "ConfigMap", "data": {"catalog": "x"}}, "unknown setting 'catalog'"),
    ({"kind": "ConfigMap", "data": {"validate": "lax"}}, "validate must be one of strict, true, warn, ignore, false"),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render", "spec": {"catalogs": "x"}},
     "catalogs must be a list of paths"),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render", "spec": {"vmi": "true"}},
     "vmi must be true or false"),
    ({"apiVersion": "kubectl-instancetype/v1alpha1", "kind": "Render", "spec": {"namespace": ""}},
     "namespace must be a non-empty string"),
]


@pytest.mark.parametrize(("config", "message"), REFUSED)
def test_settings_refused(config: Any, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        settings_from(config, WHERE)


@pytest.mark.parametrize(("text", "is_list", "count"), [
    ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [{a: 1}, {b: 2}]\n", True, 2),
    ("apiVersion: config.kubernetes.io/v1beta1\nkind: ResourceList\n", True, 0),
    ("apiVersion: v1\nkind: ResourceList\nitems: [{kind: A}]\n", False, 1),
    ("kind: List\napiVersion: v1\nitems: [{kind: A}, {kind: B}]\n---\nkind: C\n", False, 3),
])
def test_open_input(text: str, is_list: bool, count: int) -> None:
    envelope = open_input(load_stream(text, "<stdin>"))
    assert (envelope.resource_list is not None) == is_list
    assert len(envelope.items) == count


def test_items_must_be_a_list() -> None:
    with pytest.raises(InputError, match="ResourceList items must be a list"):
        open_input(load_stream("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {}\n", "x"))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kpt") is None, reason="kpt is not installed")
def test_kpt_fn_eval_exec(tmp_path: Path) -> None:
    """The README's `kpt fn eval --exec`: the example package, rendered to stdout (nothing rewritten)."""
    package = tmp_path / "pkg"
    shutil.copytree(KUSTOMIZE / "vm", package)
    exe = shutil.which("kubectl-instancetype", path=str(VENV_BIN)) or "kubectl-instancetype"
    done = subprocess.run(["kpt", "fn", "eval", str(package), "-o", "stdout", "--exec", f"{exe} krm", "--",
                           "vmi=true"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (rl,) = [d.data for d in load_stream(done.stdout, "kpt")]
    kinds = {i.get("kind"): i for i in rl["items"]}
    assert kinds["VirtualMachineInstance"]["spec"]["domain"]["memory"]["guest"] == "3Gi"
    assert kinds["VirtualMachineInstance"]["metadata"]["annotations"]["config.kubernetes.io/path"] == "vm.yaml"
    assert (package / "vm.yaml").read_text() == (KUSTOMIZE / "vm" / "vm.yaml").read_text()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kpt") is None, reason="kpt is not installed")
def test_kpt_shows_our_results(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "vm.yaml").write_text(
        "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: bad\nspec:\n  runStrategy: Halted\n"
        "  instancetype:\n    name: nope\n  template:\n    spec:\n      domain:\n        devices: {}\n")
    exe = shutil.which("kubectl-instancetype", path=str(VENV_BIN)) or "kubectl-instancetype"
    done = subprocess.run(["kpt", "fn", "eval", str(package), "-o", "stdout", "--exec", f"{exe} krm"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert ('[error] kubevirt.io/v1/VirtualMachine/bad spec.instancetype: VirtualMachine default/bad: '
            'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "nope" not found') in done.stderr


def test_items_go_through_the_api_server_under_the_validate_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo the server refuses is a result; with validate: warn the field is pruned from the item and the
    warning is a result."""
    vm = ("- apiVersion: kubevirt.io/v1\n  kind: VirtualMachine\n  metadata: {name: a}\n  spec:\n"
          "    runStrategy: Halted\n    preferance: {name: x}\n    template: {spec: {domain: {devices: {}}}}\n")
    head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
    strict = CliRunner().invoke(main_group, ["--no-builtin-catalog", "krm"], input=head + "items:\n" + vm)
    assert strict.exit_code == 1 and 'strict decoding error: unknown field "spec.preferance"' in strict.stdout
    config = "functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {validate: warn}}\n"
    warn = CliRunner().invoke(main_group, ["--no-builtin-catalog", "krm"], input=head + config + "items:\n" + vm)
    assert warn.exit_code == 0 and "    preferance:" not in warn.stdout and "devices: {}" in warn.stdout
    assert 'unknown field "spec.preferance"\'\n' in warn.stdout and "severity: warning" in warn.stdout
