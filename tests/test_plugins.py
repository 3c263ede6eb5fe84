"""The shipped integrations under plugins/, run as their hosts run them: kustomize, Argo CD, Helm.

Each test drives the shipped file itself (the kustomization, the exec plugin, plugin.yaml's generate
command, the post-renderer script) with the installed ``kubectl-instancetype`` on PATH.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from kubectl_instancetype.yamlio import load_stream

PLUGINS = ROOT / "plugins"
KUSTOMIZE = PLUGINS / "kustomize"
ARGOCD = PLUGINS / "argocd"
HELM = PLUGINS / "helm"
VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
EXECUTABLES = ["kubectl-instancetype", "kubectl_complete-instancetype", "kustomize/kubectl-instancetype-krm",
               "kustomize/plugin/kubectl-instancetype/v1alpha1/render/Render",
               "helm/kubectl-instancetype-post-renderer"]


def env(**extra: str) -> dict[str, str]:
    """The environment with the installed executable first on PATH."""
    exe = shutil.which("kubectl-instancetype", path=str(VENV_BIN)) or shutil.which("kubectl-instancetype")
    if exe is None:
        pytest.skip("kubectl-instancetype is not installed")
    return {**os.environ, "PATH": os.pathsep.join([str(Path(exe).parent), os.environ.get("PATH", "")]), **extra}


def documents(text: str) -> list[Any]:
    return [d.data for d in load_stream(text, "<stdout>")]


def by_kind(docs: list[Any]) -> dict[str, Any]:
    return {d["kind"]: d for d in docs}


def assert_expanded(vm: dict[str, Any], memory: str, namespace: str | None) -> None:
    assert "instancetype" not in vm["spec"] and "preference" not in vm["spec"]
    domain = vm["spec"]["template"]["spec"]["domain"]
    assert domain["memory"] == {"guest": memory}
    assert domain["firmware"]["bootloader"] == {"efi": {"secureBoot": True}}  # from the fedora preference
    assert vm["metadata"].get("namespace") == namespace


@pytest.mark.parametrize("name", EXECUTABLES)
def test_shipped_executables(name: str) -> None:
    path = PLUGINS / name
    assert os.access(path, os.X_OK), f"{path} is not executable"
    assert path.read_text().startswith("#!/")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_kustomize_runs_the_exec_plugin() -> None:
    """kubectl kustomize runs kustomize's exec plugins (a KRM exec function needs --enable-exec, below)."""
    done = subprocess.run(["kubectl", "kustomize", "--enable-alpha-plugins", str(KUSTOMIZE / "render")],
                          env=env(KUSTOMIZE_PLUGIN_HOME=str(KUSTOMIZE / "plugin")), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    docs = by_kind(documents(done.stdout))
    assert set(docs) == {"VirtualMachine", "VirtualMachineInstancetype"}
    assert_expanded(docs["VirtualMachine"], "3Gi", None)
    assert "annotations" not in docs["VirtualMachine"]["metadata"]  # kustomize's bookkeeping went back to it


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kustomize_reports_a_vm_kubevirt_would_reject(tmp_path: Path) -> None:
    shutil.copytree(KUSTOMIZE, tmp_path / "k")
    vm = tmp_path / "k" / "vm" / "vm.yaml"
    vm.write_text(vm.read_text().replace("name: web-small", "name: web-huge"))
    done = subprocess.run(["kubectl", "kustomize", "--enable-alpha-plugins", str(tmp_path / "k" / "render")],
                          env=env(KUSTOMIZE_PLUGIN_HOME=str(tmp_path / "k" / "plugin")), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0 and done.stdout == ""
    assert 'VirtualMachine default/web: virtualmachineinstancetypes.instancetype.kubevirt.io "web-huge" not found' \
        in done.stderr


def kustomize_with_exec() -> list[str] | None:
    """A kustomize that runs KRM exec functions: kubectl's own when it knows --enable-exec, else kustomize."""
    if shutil.which("kubectl"):
        probe = subprocess.run(["kubectl", "kustomize", "--enable-alpha-plugins", "--enable-exec", "--help"],
                               capture_output=True, text=True, timeout=60)
        if probe.returncode == 0:
            return ["kubectl", "kustomize"]
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    return None


@pytest.mark.slow
def test_kustomize_runs_the_krm_exec_function() -> None:
    command = kustomize_with_exec()
    if command is None:
        pytest.skip("no kustomize here runs exec KRM functions: kubectl kustomize lacks --enable-exec "
                    "(1.31 to 1.33 checked) and no kustomize binary is installed")
    done = subprocess.run([*command, "--enable-alpha-plugins", "--enable-exec", str(KUSTOMIZE / "render-exec")],
                          env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_expanded(by_kind(documents(done.stdout))["VirtualMachine"], "3Gi", None)


def argocd_plugin() -> dict[str, Any]:
    (doc,) = documents((ARGOCD / "plugin.yaml").read_text())
    assert (doc["apiVersion"], doc["kind"]) == ("argoproj.io/v1alpha1", "ConfigManagementPlugin")
    return doc["spec"]


def test_argocd_discovers_the_example_by_its_marker() -> None:
    pattern = argocd_plugin()["discover"]["fileName"]
    assert glob.glob(pattern, root_dir=ARGOCD / "example", include_hidden=True)
    assert not glob.glob(pattern, root_dir=KUSTOMIZE / "vm", include_hidden=True)


@pytest.mark.slow
@pytest.mark.parametrize(("extra", "kind"), [("", "VirtualMachine"), ("--vmi", "VirtualMachineInstance")])
def test_argocd_generate_prints_only_kubernetes_objects(extra: str, kind: str) -> None:
    generate = argocd_plugin()["generate"]
    done = subprocess.run([*generate["command"], *generate.get("args", [])], cwd=ARGOCD / "example",
                          env=env(ARGOCD_APP_NAME="web", ARGOCD_APP_NAMESPACE="apps", ARGOCD_ENV_RENDER_ARGS=extra),
                          capture_output=True, text=True, timeout=120)
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


def post_render(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(HELM / "kubectl-instancetype-post-renderer"), *args], input=stdin, env=env(),
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_helm_post_renderer_stdin_to_stdout() -> None:
    stream = (HELM / "example" / "stream.yaml").read_text()
    done = post_render(stream)
    assert (done.returncode, done.stderr) == (0, "")
    docs = documents(done.stdout)
    assert [d["kind"] for d in docs] == ["VirtualMachineInstancetype", "VirtualMachine"]
    assert docs[0] == documents(stream)[0]
    assert_expanded(docs[1], "2Gi", None)  # no namespace: Helm installs it in the release namespace
    assert docs[1]["metadata"]["labels"] == {"app.kubernetes.io/managed-by": "Helm"}


@pytest.mark.slow
def test_helm_post_renderer_fails_the_release_on_a_rejected_vm() -> None:
    stream = (HELM / "example" / "stream.yaml").read_text().replace("name: fedora", "name: no-such-os")
    done = post_render(stream)
    assert done.returncode == 1
    assert done.stderr == ('<stdin>:27:3: error: VirtualMachine default/web: virtualmachineclusterpreferences.'
                           'instancetype.kubevirt.io "no-such-os" not found\n')


@pytest.mark.slow
def test_helm_post_renderer_passes_arguments_on() -> None:
    done = post_render((HELM / "example" / "stream.yaml").read_text(), "--vmi")
    assert done.returncode == 0, done.stderr
    assert [d["kind"] for d in documents(done.stdout)] == ["VirtualMachineInstancetype", "VirtualMachineInstance"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("helm") is None, reason="helm is not installed")
def test_helm_template_with_the_post_renderer(tmp_path: Path) -> None:
    chart = tmp_path / "web"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    for doc in (HELM / "example" / "stream.yaml").read_text().split("---\n")[1:]:
        name = doc.splitlines()[0].rsplit("/", 1)[1]
        (chart / "templates" / name).write_text(doc)
    done = subprocess.run(["helm", "template", "web", str(chart), "--post-renderer",
                           str(HELM / "kubectl-instancetype-post-renderer")], env=env(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_expanded(by_kind(documents(done.stdout))["VirtualMachine"], "2Gi", None)
