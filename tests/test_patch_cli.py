"""``render -o patch``: kustomize patch entries that turn each VM of the input into its expansion.

Every conformance case that expands is rendered through the CLI and each printed patch is applied to the
VM with ``jsonpatch``; a golden pins the output for the sample GitOps repository, and (slow) kustomize
applies it for real.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from click.testing import CliRunner, Result
from conftest import CONFORMANCE, TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio.load import load_stream

CASES = sorted(p.parent for p in (CONFORMANCE / "cases").glob("*/expected.json"))
REPO = TESTDATA / "gitops" / "repo"


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, ["render", "-o", "patch", *args], prog_name="kubectl instancetype")


def canonical(value: Any) -> str:
    """JSON text that tells ``true``, ``1`` and ``1.0`` apart."""
    return json.dumps(value, sort_keys=True)


def entries(stdout: str) -> list[dict[str, Any]]:
    [document] = load_stream(stdout, "stdout")
    assert isinstance(document.data, list)
    return document.data


def without_added_namespace(vm: dict[str, Any], expansion: dict[str, Any]) -> dict[str, Any]:
    if "namespace" in (vm.get("metadata") or {}):
        return expansion
    return {**expansion, "metadata": {k: v for k, v in expansion["metadata"].items() if k != "namespace"}}


@pytest.mark.parametrize("chunk", range(8))  # the corpus in parts, so that parallel workers share it
def test_every_conformance_patch_applied_with_jsonpatch_gives_the_expansion(chunk: int) -> None:
    """Every case KubeVirt expands: the printed patch turns the VM into what ``-o json`` prints."""
    assert len(CASES) > 150
    for case in CASES[chunk::8]:
        path = case / "input.yaml"
        vm = load_stream(path.read_text(), str(path))[-1].data
        result = run("-f", str(path), "--no-builtin-catalog", "--kubevirt-version", "main")  # the corpus's release
        assert result.exit_code == 0, (case.name, result.stderr)
        printed_entries = entries(result.stdout)  # [] for a VM the expansion leaves as it is
        assert [e["target"]["name"] for e in printed_entries] in ([], [vm["metadata"]["name"]])
        ops = json.loads(printed_entries[0]["patch"]) if printed_entries else []
        assert all(op["op"] in ("add", "remove", "replace") for op in ops)
        patched = jsonpatch.apply_patch(vm, ops)
        rendered = CliRunner().invoke(main_group, ["render", "-o", "json", "-f", str(path), "--no-builtin-catalog",
                                                   "--kubevirt-version", "main"])
        printed = json.loads(rendered.stdout)
        printed = printed["items"][-1] if printed["kind"] == "List" else printed  # the VM is the last document
        expansion = without_added_namespace(vm, printed)  # equal to KubeVirt's one: see test_conformance
        assert canonical(patched) == canonical(expansion), case.name


def test_sample_repository_golden(monkeypatch: pytest.MonkeyPatch, update_goldens: bool) -> None:
    monkeypatch.chdir(REPO)
    result = run("-f", "vms", "-R", "--catalog", "catalog", "--no-builtin-catalog")
    golden = TESTDATA / "gitops" / "patches.yaml"
    if update_goldens:
        golden.write_text(result.stdout)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == golden.read_text()
    assert run("-f", "vms", "-R", "--catalog", "catalog", "--no-builtin-catalog").stdout == result.stdout


def test_no_vm_to_change_prints_an_empty_list_and_failures_are_left_out(tmp_path: Path) -> None:
    assert run("-f", str(REPO / "vms" / "legacy.yaml")).stdout == "[]\n"
    failing = TESTDATA / "gitops" / "styles" / "failing-vm" / "input.yaml"
    result = run("-f", str(failing))
    assert result.exit_code == 1
    [entry] = entries(result.stdout)
    assert entry["target"]["name"] == "fine"
    assert "conflicts with selected instance type" in result.stderr


KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: staging
resources:
- vms/team-a/web.yaml
- vms/team-a/db.yaml
patches:
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not on PATH")
def test_output_pasted_under_kustomize_patches(tmp_path: Path) -> None:
    """kustomize with the printed entries builds what --write writes (plus its namespace: transformer)."""
    shutil.copytree(REPO, tmp_path / "repo")
    repo = tmp_path / "repo"
    patches = (TESTDATA / "gitops" / "patches.yaml").read_text()
    (repo / "kustomization.yaml").write_text(KUSTOMIZATION + patches)
    built = subprocess.run(["kubectl", "kustomize", str(repo)], capture_output=True, text=True, check=True)
    CliRunner().invoke(main_group, ["render", "-f", str(repo / "vms" / "team-a"), "--catalog",
                                    str(repo / "catalog"), "--no-builtin-catalog", "--write"])
    written = [d.data for p in ("web.yaml", "db.yaml") for d in load_stream(
        (repo / "vms" / "team-a" / p).read_text(), p)]
    for doc in written:
        doc.setdefault("metadata", {})["namespace"] = "staging"  # kustomize's namespace: applies
    built_docs = [doc.data for doc in load_stream(built.stdout, "kustomize")]
    by_name = {(d["kind"], d["metadata"]["name"]): d for d in built_docs}
    for doc in written:
        assert canonical(by_name[(doc["kind"], doc["metadata"]["name"])]) == canonical(doc)


def test_a_patch_that_would_not_give_the_expansion_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """-o patch applies each patch with jsonpatch before printing it: a wrong one is an error, not output."""
    import kubectl_instancetype.patch as patch

    real = patch.make_patch
    monkeypatch.setattr(patch, "make_patch", lambda old, new: real(old, new)[:-1])
    result = run("-f", str(REPO / "vms" / "team-a" / "db.yaml"), "--catalog", str(REPO / "catalog"),
                 "--no-builtin-catalog")
    assert result.exit_code == 3
    assert result.stdout == "[]\n"
    assert result.stderr.endswith("error: VirtualMachine team-a/db: the patch does not reproduce the expansion; "
                                  "not printed\n"), result.stderr


def test_a_patch_that_does_not_apply_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import kubectl_instancetype.patch as patch

    monkeypatch.setattr(patch, "make_patch", lambda old, new: [{"op": "remove", "path": "/no/such/field"}])
    result = run("-f", str(REPO / "vms" / "team-a" / "db.yaml"), "--catalog", str(REPO / "catalog"),
                 "--no-builtin-catalog")
    assert result.exit_code == 3 and "the patch does not apply" in result.stderr
