"""The plugin under real kubectl releases (1.32 and 1.35 in CI, fetched by .ci/host-tools).

kubectl finds `kubectl-instancetype` on PATH, lists it, dispatches `kubectl instancetype …` to it, asks
`kubectl_complete-instancetype` for completions, and its kustomize applies the patches `-o patch` prints.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hosts import PLUGINS, VENV_BIN, documents, kubectl, kubectl_ids, kubectls

EXAMPLE = PLUGINS / "argocd" / "example"
KUBECTLS = pytest.mark.parametrize("kubectl_path", kubectls() or [None], ids=kubectl_ids() or ["kubectl"])


def run(argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """With the repository's plugins/ (launcher, completion) first on PATH, then the test interpreter's bin/."""
    path = os.pathsep.join([str(PLUGINS), str(VENV_BIN), os.environ.get("PATH", "")])
    return subprocess.run(argv, env={**os.environ, "PATH": path}, cwd=cwd, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def without_namespace(doc: Any) -> Any:
    doc["metadata"].pop("namespace", None)
    return doc


@pytest.mark.slow
@KUBECTLS
def test_kubectl_lists_the_plugin(kubectl_path: str | None) -> None:
    listed = run([kubectl(kubectl_path), "plugin", "list"])
    assert f"{PLUGINS / 'kubectl-instancetype'}\n" in listed.stdout, listed.stderr
    assert "kubectl_complete-instancetype" not in listed.stdout  # kubectl keeps completion helpers out of the list


@pytest.mark.slow
@KUBECTLS
def test_kubectl_dispatches_to_the_plugin(kubectl_path: str | None) -> None:
    direct = run([str(VENV_BIN / "kubectl-instancetype"), "render", "-R", "-f", str(EXAMPLE)])
    through = run([kubectl(kubectl_path), "instancetype", "render", "-R", "-f", str(EXAMPLE)])
    assert (through.returncode, through.stderr) == (0, "")
    assert through.stdout == direct.stdout
    refused = run([kubectl(kubectl_path), "instancetype", "render", "-f", str(EXAMPLE / "vm.yaml"),
                   "--no-builtin-catalog"])
    assert refused.returncode == 1 and "not found" in refused.stderr  # the plugin's exit status comes through


@pytest.mark.slow
@KUBECTLS
def test_kubectl_completes_through_the_helper(kubectl_path: str | None) -> None:
    done = run([kubectl(kubectl_path), "__complete", "instancetype", "render", "-o", ""])
    assert done.stdout == "yaml\njson\npatch\n:4\n", done.stderr


@pytest.mark.slow
@KUBECTLS
def test_kubectl_kustomize_applies_the_printed_patches(kubectl_path: str | None, tmp_path: Path) -> None:
    """`-o patch` pasted under a kustomization's patches: builds what render prints."""
    shutil.copytree(EXAMPLE, tmp_path / "app")
    app = tmp_path / "app"
    patches = run([kubectl(kubectl_path), "instancetype", "render", "-f", "vm.yaml", "--catalog", "instancetype.yaml",
                   "-o", "patch"], cwd=app)
    assert patches.returncode == 0, patches.stderr
    (app / "kustomization.yaml").write_text("resources:\n- vm.yaml\npatches:\n" + patches.stdout)
    built = run([kubectl(kubectl_path), "kustomize", str(app)])
    assert built.returncode == 0, built.stderr
    rendered = run([kubectl(kubectl_path), "instancetype", "render", "-f", "vm.yaml", "--catalog", "instancetype.yaml"],
                   cwd=app)
    assert [without_namespace(d) for d in documents(built.stdout)] == \
        [without_namespace(d) for d in documents(rendered.stdout)]


@pytest.mark.slow
@KUBECTLS
@pytest.mark.parametrize("text", [
    '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {"name": "a",},\n  "data": {}\n}\n',
    '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v",\n}}\n',
    '{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", '
    '"metadata": {"name": "b"}},]}\n',
])
def test_a_json_trailing_comma_is_refused_as_kubectl_refuses_it(kubectl_path: str | None, text: str,
                                                                 tmp_path: Path) -> None:
    """kubectl (up to 1.34) reads a stream that starts with { as strict JSON: the same message and byte offset,
    exit 3 here."""
    (tmp_path / "cm.json").write_text(text)
    theirs = run([kubectl(kubectl_path), "create", "--dry-run=client", "--validate=false", "-o", "name", "-f",
                   "cm.json"], tmp_path)
    ours = run([str(VENV_BIN / "kubectl-instancetype"), "validate", "-f", "cm.json"], tmp_path)
    if "error parsing cm.json" not in theirs.stderr:
        # kubectl 1.35 reads the stream leniently (it goes on to ask the server for the API groups): we keep
        # refusing what kubectl 1.34 and earlier refuse, the releases most clusters' users still run.
        pytest.skip(f"this kubectl accepts a trailing comma: {theirs.stderr.strip().splitlines()[-1][:80]}")
    assert theirs.returncode == 1 and ours.returncode == 3, ours.stderr
    said = theirs.stderr.strip().removeprefix("error: error parsing cm.json: ")
    assert said.startswith("json: offset ") and ours.stderr.split(": error: ", 1)[1].strip() == said
