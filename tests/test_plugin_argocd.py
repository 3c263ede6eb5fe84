"""plugins/argocd: plugin.yaml's generate command run as Argo CD runs it, its parameters, and the sidecar image.

Argo CD's CMP server runs `generate.command` in the application directory with the build environment
(ARGOCD_APP_NAME, ARGOCD_APP_NAMESPACE, …), the Application's `plugin.env` as ARGOCD_ENV_<NAME> and its
`plugin.parameters` as ARGOCD_APP_PARAMETERS (JSON) and PARAM_<NAME>. The tests set the same.
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import ROOT, load_script
from hosts import PLUGINS, assert_expanded, by_kind, documents, env

ARGOCD = PLUGINS / "argocd"
EXAMPLE = ARGOCD / "example"
GENERATE = ARGOCD / "kubectl-instancetype-argocd"


def argocd_plugin() -> dict[str, Any]:
    (doc,) = documents((ARGOCD / "plugin.yaml").read_text())
    assert (doc["apiVersion"], doc["kind"]) == ("argoproj.io/v1alpha1", "ConfigManagementPlugin")
    return doc["spec"]


def generate_module() -> ModuleType:
    return load_script(GENERATE, "argocd_generate")


def generate(app: Path = EXAMPLE, parameters: list[dict[str, Any]] | None = None,
             **extra: str) -> subprocess.CompletedProcess[str]:
    """plugin.yaml's generate command, with the sidecar's PATH (the generate script and the tool on it)."""
    spec = argocd_plugin()["generate"]
    environment = env(**{"ARGOCD_APP_NAME": "web", "ARGOCD_APP_NAMESPACE": "apps", **extra})
    environment["PATH"] = os.pathsep.join([str(ARGOCD), environment["PATH"]])
    if parameters is not None:
        environment["ARGOCD_APP_PARAMETERS"] = json.dumps(parameters)
    return subprocess.run([*spec["command"], *spec.get("args", [])], cwd=app, env=environment, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_discovers_the_example_by_its_marker() -> None:
    pattern = argocd_plugin()["discover"]["fileName"]
    assert glob.glob(pattern, root_dir=EXAMPLE, include_hidden=True)
    assert not glob.glob(pattern, root_dir=PLUGINS / "kustomize" / "vm", include_hidden=True)


def test_parameters_announced_are_the_ones_mapped() -> None:
    """plugin.yaml announces exactly the script's table, with Argo CD's fields and valid defaults."""
    static = argocd_plugin()["parameters"]["static"]
    table = generate_module().PARAMETERS
    assert [p["name"] for p in static] == list(table)
    for announced in static:
        assert set(announced) <= {"name", "title", "tooltip", "required", "itemType", "collectionType", "string",
                                  "array", "map"}
        assert announced["title"] and announced["tooltip"]
        assert announced["collectionType"] == table[announced["name"]][0]
    defaults = [{"name": p["name"], p["collectionType"]: p[p["collectionType"]]} for p in static
                if p["collectionType"] in p]
    assert generate_module().options(json.dumps(defaults), "apps", EXAMPLE.resolve()) == [
        "--namespace=apps", "--arch=amd64"]  # the announced defaults are what the render does unset


def test_generate_command_runs_no_shell() -> None:
    command = argocd_plugin()["generate"]["command"]
    assert command == ["kubectl-instancetype-argocd"] and "args" not in argocd_plugin()["generate"]


@pytest.mark.slow
@pytest.mark.parametrize(("vmi", "kind"), [(None, "VirtualMachine"), ("true", "VirtualMachineInstance")])
def test_generate_prints_only_kubernetes_objects(vmi: str | None, kind: str) -> None:
    done = generate(parameters=None if vmi is None else [{"name": "vmi", "string": vmi}])
    assert (done.returncode, done.stderr) == (0, "")
    docs = documents(done.stdout)
    for doc in docs:
        assert isinstance(doc, dict) and doc.get("apiVersion") and doc.get("kind") and doc["metadata"].get("name")
    objects = by_kind(docs)
    assert set(objects) == {kind, "VirtualMachineInstancetype", "Service"}
    if kind == "VirtualMachine":
        assert_expanded(objects[kind], "2Gi", "apps")  # VMs land in the destination namespace
    else:
        assert objects[kind]["metadata"]["namespace"] == "apps"


@pytest.mark.slow
def test_generate_maps_each_parameter(tmp_path: Path) -> None:
    """catalogs, kubevirt-config, namespace, arch and builtin-catalog reach the render as their options."""
    app = tmp_path / "app"
    app.mkdir()
    shutil.copy(EXAMPLE / "vm.yaml", app / "vm.yaml")
    (app / "catalog").mkdir()
    shutil.copy(EXAMPLE / "instancetype.yaml", app / "catalog" / "instancetype.yaml")
    fedora = app / "catalog" / "fedora.yaml"  # with SMM: KubeVirt refuses SecureBoot without it
    fedora.write_text("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\n"
                      "metadata:\n  name: fedora\nspec:\n  firmware:\n    preferredUseEfi: true\n"
                      "    preferredUseSecureBoot: true\n  features:\n    preferredSmm: {}\n")
    kubevirt = app / "kubevirt.yaml"
    kubevirt.write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n  name: kubevirt\n"
                        "spec:\n  configuration: {}\n")
    parameters = [{"name": "catalogs", "array": ["catalog"]}, {"name": "kubevirt-config", "string": "kubevirt.yaml"},
                  {"name": "namespace", "string": "team-a"}, {"name": "arch", "string": "arm64"},
                  {"name": "builtin-catalog", "string": "false"}]
    done = generate(app, parameters)
    assert (done.returncode, done.stderr) == (0, "")
    (vm,) = [d for d in documents(done.stdout) if d["kind"] == "VirtualMachine"]
    assert_expanded(vm, "2Gi", "team-a")
    assert vm["spec"]["template"]["spec"]["architecture"] == "arm64"
    fedora.unlink()
    assert "not found" in generate(app, parameters).stderr  # --no-builtin-catalog: the app's fedora was used
    assert generate(app, parameters[:-1]).returncode == 0  # the built-in one, by default
    kubevirt.write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n  name: kubevirt\n"
                        "spec:\n  configuration: 5\n")
    assert ('kubevirt.yaml:6:3: error: KubeVirt.kubevirt.io "kubevirt" is invalid: spec.configuration: Invalid value: '
            '"integer"') in generate(app, parameters).stderr  # the API server refuses the CR (--validate)


HOSTILE = [
    ("catalogs", {"array": ["--output-dir=/tmp/kit-argocd-pwned"]}),
    ("catalogs", {"array": ["catalog", "--write"]}),
    ("catalogs", {"array": ["../../etc"]}),
    ("catalogs", {"array": ["catalog/../../../etc/passwd"]}),
    ("catalogs", {"array": ["/etc/passwd"]}),
    ("catalogs", {"array": ["~/.kube/config"]}),
    ("catalogs", {"array": ["https://example.invalid/catalog.yaml"]}),
    ("catalogs", {"array": ["github.com/kubevirt/common-instancetypes//?ref=main"]}),
    ("catalogs", {"array": ["file:/etc/passwd"]}),
    ("catalogs", {"array": ["vm.yaml\n--output-dir=/tmp/kit-argocd-pwned"]}),
    ("catalogs", {"array": ["vm.yaml; rm -rf /"]}),
    ("catalogs", {"array": [""]}),
    ("catalogs", {"string": "vm.yaml"}),
    ("catalogs", {"array": [{"path": "vm.yaml"}]}),
    ("kubevirt-config", {"string": "$(touch /tmp/kit-argocd-pwned)"}),
    ("kubevirt-config", {"string": "/var/run/argocd/token"}),
    ("namespace", {"string": "; rm -rf /"}),
    ("namespace", {"string": "apps\n--output-dir=/tmp/kit-argocd-pwned"}),
    ("namespace", {"string": "--output-dir=/tmp/kit-argocd-pwned"}),
    ("namespace", {"string": "Apps"}),
    ("arch", {"string": "amd64 --write"}),
    ("vmi", {"string": "--output-dir=/tmp/kit-argocd-pwned"}),
    ("vmi", {"string": "yes"}),
    ("builtin-catalog", {"string": "false --write"}),
    ("render-args", {"string": "--output-dir=/tmp/kit-argocd-pwned"}),
    ("output-dir", {"string": "/tmp/kit-argocd-pwned"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), HOSTILE, ids=[f"{n}={json.dumps(v)}"[:60] for n, v in HOSTILE])
def test_generate_refuses_hostile_parameters(name: str, value: dict[str, Any], tmp_path: Path) -> None:
    app = tmp_path / "app"
    shutil.copytree(EXAMPLE, app)
    (app / "catalog").mkdir()
    before = {p: p.read_bytes() for p in app.rglob("*") if p.is_file()}
    done = generate(app, [{"name": name, **value}])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("kubectl-instancetype-argocd: error: ") and done.stderr.count("\n") == 1
    assert not Path("/tmp/kit-argocd-pwned").exists()
    assert {p: p.read_bytes() for p in app.rglob("*") if p.is_file()} == before


@pytest.mark.slow
def test_generate_refuses_a_symlink_out_of_the_app(tmp_path: Path) -> None:
    app = tmp_path / "app"
    shutil.copytree(EXAMPLE, app)
    (tmp_path / "outside.yaml").write_text((EXAMPLE / "instancetype.yaml").read_text())
    (app / "catalog.yaml").symlink_to(tmp_path / "outside.yaml")
    done = generate(app, [{"name": "catalogs", "array": ["catalog.yaml"]}])
    assert done.returncode == 2 and "leads out of the application directory" in done.stderr


@pytest.mark.slow
def test_generate_ignores_what_no_parameter_maps(tmp_path: Path) -> None:
    """PARAM_* variables, other ARGOCD_ENV_* and ARGOCD_APP_* values reach no command line."""
    baseline = generate()
    noisy = generate(PARAM_CATALOGS_0="--output-dir=/tmp/kit-argocd-pwned", PARAM_OUTPUT_DIR="/tmp/x",
                     ARGOCD_ENV_EXTRA="--write", ARGOCD_APP_NAME="; rm -rf /", ARGOCD_APP_SOURCE_PATH="../..")
    assert (noisy.returncode, noisy.stdout, noisy.stderr) == (0, baseline.stdout, "")


@pytest.mark.slow
def test_generate_refuses_the_old_render_args() -> None:
    done = generate(ARGOCD_ENV_RENDER_ARGS="--catalog catalog/")
    assert done.returncode == 2 and "RENDER_ARGS is no longer read" in done.stderr


@pytest.mark.slow
def test_generate_refuses_a_hostile_destination_namespace() -> None:
    done = generate(ARGOCD_APP_NAMESPACE="apps --write")
    assert done.returncode == 2 and "namespace" in done.stderr


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of plugins/argocd/Dockerfile, continuation lines joined, comments dropped."""
    lines = (ARGOCD / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    parsed = [line.strip().split(maxsplit=1) for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return [(words[0].upper(), words[1] if len(words) > 1 else "") for words in parsed]


def test_dockerfile_runs_the_cmp_server_as_argo_cds_user() -> None:
    steps = dockerfile()
    final = steps[max(i for i, (op, _) in enumerate(steps) if op == "FROM"):]
    assert ("USER", "999") in final
    assert [json.loads(args) for op, args in final if op == "ENTRYPOINT"] == [["/var/run/argocd/argocd-cmp-server"]]
    targets = {shlex.split(args)[-1] for op, args in final if op == "COPY"}
    assert "/home/argocd/cmp-server/config/plugin.yaml" in targets
    assert "/usr/local/bin/kubectl-instancetype-argocd" in targets


def test_dockerfile_copies_files_that_exist() -> None:
    for op, args in dockerfile():
        if op == "COPY" and not args.startswith("--from="):
            words = shlex.split(args)
            sources = [w for w in words[:-1] if not w.startswith("--")]
            for source in sources:
                assert glob.glob(source, root_dir=ROOT), f"COPY {source}: not in the repository"


def test_dockerfile_runs_the_documented_build(tmp_path: Path) -> None:
    """The builder stage runs `python -m build --wheel`, the final stage installs that wheel; the README says so."""
    runs = [args for op, args in dockerfile() if op == "RUN"]
    assert any("python -m build --wheel" in run for run in runs)
    assert any(run.startswith("pip install --no-cache-dir /tmp/wheels/") for run in runs)
    readme = (ARGOCD / "README.md").read_text()
    assert "docker build -f plugins/argocd/Dockerfile" in readme


@pytest.mark.slow
def test_dockerfile_copies_enough_to_build_the_wheel(tmp_path: Path) -> None:
    """The builder stage's COPY set alone builds, with the stage's `python -m build --wheel`, a wheel with the CLI."""
    steps = dockerfile()
    builder = steps[:[i for i, (op, _) in enumerate(steps) if op == "FROM"][1]]
    src = tmp_path / "src"
    for op, args in builder:
        if op == "COPY":
            *sources, target = shlex.split(args)
            for source in sources:
                destination = src / Path(target).relative_to("/src") / (Path(source).name if len(sources) > 1
                                                                        or target.endswith("/") else "")
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, destination, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(ROOT / source, destination)
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("kubectl_instancetype-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next(archive.read(n).decode() for n in names if n.endswith("entry_points.txt"))
    assert "kubectl_instancetype/cli/__init__.py" in names and "kubectl_instancetype/templates/diff.md.j2" in names
    assert "kubectl-instancetype = kubectl_instancetype.command:main" in entry_points


def test_generate_reads_the_config_file_of_the_repository(tmp_path: Path) -> None:
    """Argo CD checks the repository out and runs the plugin in the application's directory: the
    .kubectl-instancetype.yaml at the repository's root names a catalog outside the application."""
    repo = tmp_path / "repo"
    app = repo / "apps" / "web"
    app.mkdir(parents=True)
    shutil.copy(EXAMPLE / "vm.yaml", app / "vm.yaml")
    (repo / "catalog").mkdir()
    shutil.copy(EXAMPLE / "instancetype.yaml", repo / "catalog" / "instancetype.yaml")
    missing = generate(app)
    assert missing.returncode == 1 and '"web-small" not found' in missing.stderr
    (repo / ".kubectl-instancetype.yaml").write_text("catalog: [catalog/]\n")
    done = generate(app)
    assert done.returncode == 0, done.stderr
    assert [d["kind"] for d in documents(done.stdout)] == ["VirtualMachine"]
