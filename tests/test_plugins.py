"""The shipped integrations under plugins/, run as their hosts run them: kubectl's kustomize here (Helm and
Argo CD have their own test modules).

Each test drives the shipped file itself (the kustomization, the exec plugin) with the installed
``kubectl-instancetype`` on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hosts import PLUGINS, assert_expanded, by_kind, documents, env, kubectl, kubectl_ids, kubectls

KUSTOMIZE = PLUGINS / "kustomize"
EXECUTABLES = ["kubectl-instancetype", "kubectl_complete-instancetype", "kustomize/kubectl-instancetype-krm",
               "kustomize/plugin/kubectl-instancetype/v1alpha1/render/Render",
               "helm/kubectl-instancetype-post-renderer", "argocd/kubectl-instancetype-argocd"]
KUBECTLS = pytest.mark.parametrize("kubectl_path", kubectls() or [None], ids=kubectl_ids() or ["kubectl"])


@pytest.mark.parametrize("name", EXECUTABLES)
def test_shipped_executables(name: str) -> None:
    path = PLUGINS / name
    assert os.access(path, os.X_OK), f"{path} is not executable"
    assert path.read_text().startswith("#!/")


@pytest.mark.slow
@KUBECTLS
def test_kubectl_kustomize_runs_the_exec_plugin(kubectl_path: str | None) -> None:
    """kubectl kustomize runs kustomize's exec plugins (a KRM exec function needs --enable-exec, below)."""
    done = subprocess.run([kubectl(kubectl_path), "kustomize", "--enable-alpha-plugins", str(KUSTOMIZE / "render")],
                          env=env(KUSTOMIZE_PLUGIN_HOME=str(KUSTOMIZE / "plugin")), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    docs = by_kind(documents(done.stdout))
    assert set(docs) == {"VirtualMachine", "VirtualMachineInstancetype"}
    assert_expanded(docs["VirtualMachine"], "3Gi", None)
    assert "annotations" not in docs["VirtualMachine"]["metadata"]  # kustomize's bookkeeping went back to it


@pytest.mark.slow
@KUBECTLS
def test_kustomize_reports_a_vm_kubevirt_would_reject(kubectl_path: str | None, tmp_path: Path) -> None:
    shutil.copytree(KUSTOMIZE, tmp_path / "k")
    vm = tmp_path / "k" / "vm" / "vm.yaml"
    vm.write_text(vm.read_text().replace("name: web-small", "name: web-huge"))
    done = subprocess.run([kubectl(kubectl_path), "kustomize", "--enable-alpha-plugins",
                           str(tmp_path / "k" / "render")],
                          env=env(KUSTOMIZE_PLUGIN_HOME=str(tmp_path / "k" / "plugin")), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0 and done.stdout == ""
    # Admission first: the missing instance type leaves the preference's requirements to the VM alone.
    assert ("VirtualMachine default/web: failure checking preference requirements: insufficient Memory resources "
            "of 0 provided by VirtualMachine, preference requires 2Gi") in done.stderr


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
                    "(1.32 and 1.35 checked) and no kustomize binary is installed")
    done = subprocess.run([*command, "--enable-alpha-plugins", "--enable-exec", str(KUSTOMIZE / "render-exec")],
                          env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_expanded(by_kind(documents(done.stdout))["VirtualMachine"], "3Gi", None)
