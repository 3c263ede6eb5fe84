"""plugins/helm under the real Helm 3 and Helm 4: the post-renderer executable and the Helm 4 plugin.

Helm 3 takes an executable (`--post-renderer path`); Helm 4 takes only the name of an installed
`postrenderer/v1` plugin (`helm plugin install plugins/helm`, then `--post-renderer instancetype`).
Both run the same shipped script, which runs the installed ``kubectl-instancetype krm``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hosts import PLUGINS, assert_expanded, by_kind, documents, env, helm

HELM = PLUGINS / "helm"
POST_RENDERER = HELM / "kubectl-instancetype-post-renderer"
REFUSED = ('VirtualMachine default/web: virtualmachineclusterpreferences.instancetype.kubevirt.io "no-such-os" '
           'not found')


def post_render(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(POST_RENDERER), *args], input=stdin, env=env(), capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
def test_post_renderer_stdin_to_stdout() -> None:
    stream = (HELM / "example" / "stream.yaml").read_text()
    done = post_render(stream)
    assert (done.returncode, done.stderr) == (0, "")
    docs = documents(done.stdout)
    assert [d["kind"] for d in docs] == ["VirtualMachineInstancetype", "VirtualMachine"]
    assert docs[0] == documents(stream)[0]
    assert_expanded(docs[1], "2Gi", None)  # no namespace: Helm installs it in the release namespace
    assert docs[1]["metadata"]["labels"] == {"app.kubernetes.io/managed-by": "Helm"}


@pytest.mark.slow
def test_post_renderer_fails_the_release_on_a_rejected_vm() -> None:
    stream = (HELM / "example" / "stream.yaml").read_text().replace("name: fedora", "name: no-such-os")
    done = post_render(stream)
    assert done.returncode == 1
    assert done.stderr == f"<stdin>:27:3: error: {REFUSED}\n"


@pytest.mark.slow
def test_post_renderer_passes_arguments_on() -> None:
    done = post_render((HELM / "example" / "stream.yaml").read_text(), "--vmi")
    assert done.returncode == 0, done.stderr
    assert [d["kind"] for d in documents(done.stdout)] == ["VirtualMachineInstancetype", "VirtualMachineInstance"]


def chart(where: Path, preference: str = "fedora", instancetype: str = "web-small") -> Path:
    """A chart whose templates are example/stream.yaml's documents, as `helm template` printed them."""
    (where / "templates").mkdir(parents=True)
    (where / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    for doc in (HELM / "example" / "stream.yaml").read_text().split("---\n")[1:]:
        name = doc.splitlines()[0].rsplit("/", 1)[1]
        text = doc.replace("name: fedora", f"name: {preference}")
        if name == "vm.yaml":
            text = text.replace("name: web-small", f"name: {instancetype}")
        (where / "templates" / name).write_text(text)
    return where


def helm_env(home: Path) -> dict[str, str]:
    """Helm's own directories in the test's tmp_path: plugins installed here touch nothing else."""
    return env(HELM_CONFIG_HOME=str(home / "config"), HELM_CACHE_HOME=str(home / "cache"),
               HELM_DATA_HOME=str(home / "data"))


def helm_run(binary: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary, *args], env=helm_env(home), capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def post_renderer_args(major: int, tmp_path: Path) -> tuple[str, list[str]]:
    """The Helm binary and the --post-renderer option that version takes: a path (3) or a plugin name (4)."""
    binary = helm(major)
    if major == 3:
        return binary, ["--post-renderer", str(POST_RENDERER)]
    installed = helm_run(binary, tmp_path / "helm", "plugin", "install", str(HELM))
    assert installed.returncode == 0, installed.stderr
    return binary, ["--post-renderer", "instancetype"]


@pytest.mark.slow
def test_helm4_installs_the_plugin(tmp_path: Path) -> None:
    binary, _ = post_renderer_args(4, tmp_path)
    listed = helm_run(binary, tmp_path / "helm", "plugin", "list")
    assert listed.returncode == 0, listed.stderr
    (row,) = [line.split() for line in listed.stdout.splitlines() if line.startswith("instancetype")]
    assert row[:4] == ["instancetype", "0.1.0", "postrenderer/v1", "v1"]


@pytest.mark.slow
def test_helm4_refuses_an_executable_path(tmp_path: Path) -> None:
    """Why the plugin exists: Helm 4 looks --post-renderer up among installed plugins only."""
    done = helm_run(helm(4), tmp_path / "helm", "template", "web", str(chart(tmp_path / "web")),
                    "--post-renderer", str(POST_RENDERER))
    assert done.returncode != 0 and "not found" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("major", [3, 4])
def test_helm_template_expands_the_chart(major: int, tmp_path: Path) -> None:
    binary, option = post_renderer_args(major, tmp_path)
    done = helm_run(binary, tmp_path / "helm", "template", "web", str(chart(tmp_path / "web")), *option)
    assert done.returncode == 0, done.stderr
    objects = by_kind(documents(done.stdout))
    assert set(objects) == {"VirtualMachine", "VirtualMachineInstancetype"}
    assert_expanded(objects["VirtualMachine"], "2Gi", None)


@pytest.mark.slow
@pytest.mark.parametrize("major", [3, 4])
def test_helm_passes_post_renderer_args(major: int, tmp_path: Path) -> None:
    binary, option = post_renderer_args(major, tmp_path)
    done = helm_run(binary, tmp_path / "helm", "template", "web", str(chart(tmp_path / "web")), *option,
                    "--post-renderer-args", "--vmi")
    assert done.returncode == 0, done.stderr
    assert set(by_kind(documents(done.stdout))) == {"VirtualMachineInstance", "VirtualMachineInstancetype"}


@pytest.mark.slow
@pytest.mark.parametrize("major", [3, 4])
def test_helm_shows_why_a_vm_is_refused(major: int, tmp_path: Path) -> None:
    """KubeVirt's message reaches the user under both: Helm 3 quotes the stderr, Helm 4 drops it (see the script)."""
    binary, option = post_renderer_args(major, tmp_path)
    done = helm_run(binary, tmp_path / "helm", "template", "web",
                    str(chart(tmp_path / "web", preference="no-such-os")), *option)
    assert done.returncode == 1 and done.stdout == ""
    # Where: a line of the stream Helm passed, or the template Helm 4 names in its filename annotation.
    where = r"(<stdin>|web/templates/vm\.yaml)"
    assert re.search(rf"^{where}:\d+:3: error: {re.escape(REFUSED)}$", done.stderr, re.MULTILINE), done.stderr
    assert "Error: error while running post render on files" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("major", [3, 4])
def test_helm_names_a_misspelt_instancetype(major: int, tmp_path: Path) -> None:
    """KubeVirt refuses with the preference's requirement (its webhook goes on without what it cannot find):
    the note beside it names the instancetype that was not found, under Helm 4 too."""
    binary, option = post_renderer_args(major, tmp_path)
    done = helm_run(binary, tmp_path / "helm", "template", "web",
                    str(chart(tmp_path / "web", instancetype="web-smal")), *option)
    assert done.returncode == 1 and done.stdout == ""
    where = r"(<stdin>|web/templates/vm\.yaml)"
    refused = ("VirtualMachine default/web: failure checking preference requirements: insufficient Memory resources "
               "of 0 provided by VirtualMachine, preference requires 2Gi")
    note = 'virtualmachineinstancetypes.instancetype.kubevirt.io "web-smal" not found (did you mean "web-small"?)'
    assert re.search(rf"^{where}:\d+:3: error: {re.escape(refused)}\n{where}:\d+:3: note: {re.escape(note)}$",
                     done.stderr, re.MULTILINE), done.stderr


@pytest.mark.slow
def test_helm4_install_runs_the_plugin(tmp_path: Path) -> None:
    """`helm install --dry-run=client`: the release's manifest is the post-rendered one (Helm 3 needs a cluster)."""
    binary, option = post_renderer_args(4, tmp_path)
    done = helm_run(binary, tmp_path / "helm", "install", "web", str(chart(tmp_path / "web")), "--dry-run=client",
                    *option)
    assert done.returncode == 0, done.stderr
    manifest = done.stdout[done.stdout.index("MANIFEST:"):]
    assert_expanded(by_kind(documents(manifest.split("\n", 1)[1]))["VirtualMachine"], "2Gi", None)
