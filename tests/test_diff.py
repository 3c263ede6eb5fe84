"""``kubectl instancetype diff``: each VM's expansion at a git revision and in the working tree.

Every test works on a temporary git repository holding the sample GitOps repository (``testdata/gitops/repo``)
committed on ``main``; goldens for the three formats after a catalog bump are under ``testdata/gitops/diff``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.escape.markdown import fence

GOLDENS = TESTDATA / "gitops" / "diff"
ARGS = ["vms", "--catalog", "catalog", "--no-builtin-catalog", "--base", "main"]
GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, ["diff", *args], prog_name="kubectl instancetype")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(TESTDATA / "gitops" / "repo", tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "repo")
    subprocess.run([*GIT, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*GIT, "add", "."], check=True)
    subprocess.run([*GIT, "commit", "-qm", "sample"], check=True)
    subprocess.run([*GIT, "checkout", "-qb", "topic"], check=True)
    return tmp_path / "repo"


def test_no_change_exits_0(repo: Path) -> None:
    result = run(*ARGS)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "0 of 3 VirtualMachines change against main\n", "")
    assert "No VirtualMachine changes: all 3 expand as before." in run(*ARGS, "--format", "markdown").stdout


@pytest.mark.parametrize(("fmt", "golden"), [("text", "catalog-bump.txt"), ("markdown", "catalog-bump.md"),
                                             ("json", "catalog-bump.json")])
def test_catalog_bump_shows_the_vms_whose_files_did_not_change(
    repo: Path, fmt: str, golden: str, update_goldens: bool
) -> None:
    edit(repo / "catalog" / "instancetypes.yaml", "guest: 4Gi", "guest: 8Gi")
    subprocess.run([*GIT, "commit", "-qam", "bump acme.small"], check=True)
    result = run(*ARGS, "--format", fmt)
    if update_goldens:
        (GOLDENS / golden).write_text(result.stdout)
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout == (GOLDENS / golden).read_text()


def test_each_changed_field_names_what_set_it_on_each_side(repo: Path) -> None:
    edit(repo / "catalog" / "preferences.yaml", "preferredInterfaceModel: virtio", "preferredInterfaceModel: e1000e")
    edit(repo / "vms" / "team-a" / "db.yaml", "bus: sata   # the image has no virtio drivers", "readonly: true")
    subprocess.run([*GIT, "commit", "-qam", "e1000e for all, db disk on the preferred bus"], check=True)
    text = run(*ARGS).stdout
    assert "  domain.devices.interfaces[0].model virtio → e1000e (preference acme.linux)\n" not in text
    assert "  devices.interfaces[0].model virtio → e1000e (preference acme.linux)\n" in text
    assert "  devices.disks[0].disk.bus sata → virtio (the VM → preference acme.linux)\n" in text
    assert "  devices.disks[0].disk.readonly — → true (the VM)\n" in text
    [db] = [vm for vm in json.loads(run(*ARGS, "--format", "json").stdout)["vms"] if vm["name"] == "db"]
    bus = next(f for f in db["fields"] if f["field"] == "devices.disks[0].disk.bus")
    assert (bus["origin_before"], bus["origin_after"]["field"]) == (None, "spec.devices.preferredDiskBus")
    comment = run(*ARGS, "--format", "markdown").stdout
    assert "- `devices.disks[0].disk.bus` `sata` → `virtio` (the VM → preference acme.linux)\n" in comment
    assert "changed (vm) — preference acme.linux, the VM</summary>" in comment


def test_default_base_is_the_merge_base_with_the_default_branch(repo: Path) -> None:
    edit(repo / "catalog" / "instancetypes.yaml", "guest: 8\n", "guest: 16\n")
    subprocess.run([*GIT, "commit", "-qam", "bump acme.large"], check=True)
    result = run(*ARGS[:-2], "--format", "json")
    report = json.loads(result.stdout)
    merge_base = subprocess.run(["git", "rev-parse", "--short", "main"], capture_output=True, text=True).stdout
    assert report["base"] == merge_base.strip()
    [db] = [vm for vm in report["vms"] if vm["status"] != "unchanged"]
    assert (db["name"], db["cause"], db["before"]["vcpus"], db["after"]["vcpus"]) == ("db", "catalog", 8, 16)


def test_vm_edits_moves_additions_and_removals(repo: Path) -> None:
    edit(repo / "vms" / "team-a" / "db.yaml", "name: acme.large", "name: acme.small")
    (repo / "vms" / "team-a" / "web.yaml").rename(repo / "vms" / "web.yaml")  # moved: not removed and added
    (repo / "vms" / "legacy.yaml").unlink()
    new = (repo / "vms" / "team-a" / "db.yaml").read_text().replace("name: db", "name: placed")
    (repo / "vms" / "new.yaml").write_text(new.replace("namespace: team-a", "namespace: prod"))
    result = run(*ARGS, "--format", "json")
    statuses = {(vm["namespace"], vm["name"]): (vm["status"], vm["cause"]) for vm in json.loads(result.stdout)["vms"]}
    assert statuses == {
        ("default", "legacy"): ("removed", "vm"),
        ("default", "web"): ("unchanged", None),
        ("prod", "placed"): ("added", "vm"),
        ("team-a", "db"): ("changed", "vm"),
    }
    table = run(*ARGS, "--format", "markdown").stdout
    assert "| `team-a/db` | acme.large → acme.small | acme.linux | 8 → 2 | 32Gi → 4Gi | changed (vm) |" in table


def test_a_vm_that_fails_in_the_working_tree_is_a_finding(repo: Path) -> None:
    """Exit 1, as render gives for the same VM: KubeVirt refuses it; the input itself is fine."""
    edit(repo / "vms" / "team-a" / "db.yaml", "name: acme.large", "name: acme.missing")
    result = run(*ARGS)
    assert result.exit_code == 1
    assert "VirtualMachine team-a/db (vms/team-a/db.yaml): failing (vm)" in result.stdout
    assert result.stderr.startswith("vms/team-a/db.yaml:")
    # KubeVirt's admission ignores the failed lookup and checks acme.linux's requirements against the VM alone.
    assert "insufficient Memory resources of 0 provided by VirtualMachine, preference requires 2Gi" in result.stderr


def test_junit_report_has_a_case_per_vm_of_the_working_tree(repo: Path) -> None:
    import xml.etree.ElementTree as ET

    edit(repo / "vms" / "team-a" / "db.yaml", "name: acme.large", "name: acme.missing")
    result = run(*ARGS, "--junit-xml", "report.xml")
    assert result.exit_code == 1
    suite = ET.parse("report.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "kubectl-instancetype diff"
    failing = {c.get("name"): c.find("failure") for c in suite}
    assert failing["VirtualMachine default/web"] is None, list(failing)
    failure = failing["VirtualMachine team-a/db"]
    # admission first: the missing instance type leaves acme.linux's requirements to the VM alone
    assert failure is not None and "insufficient Memory resources of 0" in (failure.get("message") or "")
    assert (failure.text or "").startswith("vms/team-a/db.yaml:")


def test_other_yaml_in_the_tree_is_not_rendered(repo: Path) -> None:
    (repo / "vms" / "kustomization.yaml").write_text("resources:\n- team-a/web.yaml\n")
    (repo / "vms" / "chart.yaml").write_text("kind: {{ .Values.kind }}\n")  # a Helm template, not YAML
    result = run(*ARGS)
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_bad_base_is_a_usage_error(repo: Path) -> None:
    result = run("--base", "no-such-rev", "vms")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: --base no-such-rev: not a commit here (git rev-parse: fatal: Needed a single revision)\n")


def test_without_an_upstream_the_base_is_head_and_a_note_says_how_to_choose(repo: Path) -> None:
    edit(repo / "catalog" / "instancetypes.yaml", "guest: 4Gi", "guest: 8Gi")
    result = run("vms", "--catalog", "catalog", "--no-builtin-catalog")
    assert result.exit_code == 1  # the uncommitted change still shows
    assert result.stderr == ("note: the base is HEAD itself (no upstream branch such as origin/HEAD or origin/main): "
                             "only uncommitted changes are compared; give --base REV, e.g. --base HEAD~1\n")


def test_the_comment_cap_is_an_option(repo: Path) -> None:
    edit(repo / "catalog" / "instancetypes.yaml", "guest: 4Gi", "guest: 8Gi")
    edit(repo / "catalog" / "instancetypes.yaml", "guest: 32Gi", "guest: 64Gi")
    whole = run(*ARGS, "--format", "markdown").stdout
    capped = run(*ARGS, "--format", "markdown", "--max-comment-chars", "1000").stdout
    assert len(whole) > 1000 >= len(capped) and whole.count("<details>") == 2 > capped.count("<details>")
    left_out = 2 - capped.count("<details>")
    assert f"{left_out} of 2 diffs left out to keep this comment within 1,000 characters" in capped


def test_fence_is_longer_than_any_backtick_run() -> None:
    assert fence("plain") == "```"
    assert fence("a ```` b") == "`````"


def test_field_changes_keep_values_added_whole_in_one_change() -> None:
    from kubectl_instancetype.api.origin import named
    from kubectl_instancetype.gitops.fields import field_changes
    from kubectl_instancetype.gitops.report import field_line

    before = {"spec": {"template": {"spec": {"networks": [], "hostname": "a"}}}}
    after = {"spec": {"template": {"spec": {"networks": [{"name": "default", "pod": {}}], "hostname": "a`b"}}}}
    origins = {("spec", "template", "spec", "networks", 0): named("default pod network")}
    changes = field_changes(before, after, {}, origins)
    assert [c.sentence() for c in changes] == [
        "hostname a → a`b (the VM)",
        'networks[0] — → {"name":"default","pod":{}} (the VM → default pod network)',
    ]
    assert field_line(changes[0]) == "`hostname` `a` → ``a`b`` (the VM)"


def test_the_comment_says_what_a_change_will_show_as_drift(repo: Path) -> None:
    """An added VM brings the fields the cluster writes into it; a catalog bump brings none (they were there)."""
    new = (repo / "vms" / "team-a" / "db.yaml").read_text().replace("name: db", "name: placed")
    (repo / "vms" / "new.yaml").write_text(new)
    vms = {(vm["namespace"], vm["name"]): vm for vm in json.loads(run(*ARGS, "--format", "json").stdout)["vms"]}
    assert sorted(vms[("team-a", "placed")]["after"]["drift"]) == [
        "/metadata/annotations/kubevirt.io~1latest-observed-api-version",
        "/metadata/annotations/kubevirt.io~1storage-observed-api-version",
        "/metadata/finalizers",
        "/spec/template/metadata/annotations/kubevirt.io~1pci-topology-version",
        "/spec/template/spec/architecture",
        "/spec/template/spec/domain/firmware/serial",
        "/spec/template/spec/domain/firmware/uuid",
        "/spec/template/spec/domain/machine/type",
        "/spec/template/spec/domain/resources",
    ]
    assert vms[("team-a", "db")]["after"]["drift"] == []
    comment = run(*ARGS, "--format", "markdown").stdout
    assert "- drift after apply: the cluster will write 9 more fields than the file sets (" in comment


def test_base_naming_files_needs_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(TESTDATA / "gitops" / "repo", tmp_path / "old")
    shutil.copytree(TESTDATA / "gitops" / "repo", tmp_path / "new")
    monkeypatch.chdir(tmp_path)
    unchanged = run("new/vms", "--catalog", "new/catalog", "--no-builtin-catalog", "--base", "old/vms", "-o", "json")
    assert unchanged.exit_code == 0, unchanged.output
    edit(tmp_path / "new" / "vms" / "team-a" / "db.yaml", "bus: sata   # the image has no virtio drivers",
         "readonly: true")
    changed = run("new/vms", "--catalog", "new/catalog", "--no-builtin-catalog", "--base", "old/vms", "-o", "json")
    assert changed.exit_code == 1, changed.output  # an expansion changed
    report = json.loads(changed.stdout)
    assert report["base"] == "old/vms"
    assert [vm["name"] for vm in report["vms"] if vm["status"] != "unchanged"] == ["db"]


def test_base_that_is_both_a_revision_and_a_path_is_ambiguous(repo: Path) -> None:
    (repo / "main").mkdir()
    result = run(*ARGS)
    assert result.exit_code == 2
    assert "--base main: both a git revision and a path: write ./main for the path" in result.output
