"""The catalog sources and the ``catalog`` and ``revision`` commands, through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REFERENCE_BUNDLES, TESTDATA, needs_bundles

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio import load_stream

DATA = TESTDATA / "catalog"
BUNDLES = REFERENCE_BUNDLES
EXAMPLE = str(TESTDATA.parent / "examples" / "vm.yaml")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def check_golden(name: str, text: str, update: bool) -> None:
    golden = DATA / "golden" / name
    if update:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_fresh_install_renders_u1_medium_and_fedora() -> None:
    status, out, err = run("render", "-f", EXAMPLE)
    assert (status, err) == (0, "")
    assert "guest: 4Gi" in out and "sockets: 1" in out


@pytest.mark.parametrize(("args", "golden"), [
    (("-l", "instancetype.kubevirt.io/cpu=4"), "list-cpu4.txt"),
    (("-l", "instancetype.kubevirt.io/class=memory.intensive,instancetype.kubevirt.io/hugepages=1Gi", "-o", "wide"),
     "list-wide.txt"),
    (("--catalog", "testdata/catalog/dir", "-l", "instancetype.kubevirt.io/class in (team)", "-o", "name"),
     "list-name.txt"),
    (("--catalog", "testdata/catalog/dir", "--catalog", "testdata/catalog/v1alpha2.yaml", "--no-builtin-catalog",
      "--accept-removed-versions"),
     "list-sources.txt"),
    (("-f", "testdata/catalog/v1alpha2.yaml", "--no-builtin-catalog", "-o", "wide", "-n", "other",
      "--accept-removed-versions"),
     "list-sources-wide.txt"),
])
def test_list(args: tuple[str, ...], golden: str, update_goldens: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(TESTDATA.parent)
    status, out, err = run("catalog", "list", *args)
    assert status == 0
    check_golden(golden, out, update_goldens)
    if "v1alpha2.yaml" in " ".join(args):
        assert "v1alpha2 VirtualMachineInstancetypes is now deprecated" in err


@needs_bundles
def test_list_cpu4_is_every_4_vcpu_instancetype() -> None:
    """The rows of ``-l instancetype.kubevirt.io/cpu=4`` are exactly the bundles' 4-vCPU cluster instancetypes
    (the namespaced copies are left out: a render never finds them)."""
    wanted = set()
    for name in ("VirtualMachineClusterInstancetypes.yaml",):
        for doc in load_stream((BUNDLES / name).read_text(encoding="utf-8"), name):
            if doc.data["spec"]["cpu"]["guest"] == 4:
                wanted.add((doc.data["kind"].lower(), doc.data["metadata"]["name"]))
    status, out, _ = run("catalog", "list", "-l", "instancetype.kubevirt.io/cpu=4", "-o", "name")
    got = {(line.split(".instancetype.kubevirt.io/")[0], line.split("/", 1)[1]) for line in out.splitlines()}
    assert status == 0 and got == wanted


@needs_bundles
def test_published_bundle_with_leading_separator_from_stdin() -> None:
    text = "---\n" + (BUNDLES / "VirtualMachineClusterPreferences.yaml").read_text(encoding="utf-8")
    status, out, err = run("catalog", "list", "--catalog", "-", "--no-builtin-catalog", "-o", "name", stdin=text)
    assert (status, err) == (0, "")
    assert len(out.splitlines()) == 57 and out.startswith("virtualmachineclusterpreference.instancetype.kubevirt.io/")


@needs_bundles
def test_bundles_equal_to_builtin_shadow_nothing() -> None:
    status, _, err = run("render", "-f", EXAMPLE, "--catalog", str(BUNDLES / "VirtualMachineClusterInstancetypes.yaml"))
    assert (status, err) == (0, "")


def test_list_yaml_and_json() -> None:
    status, out, _ = run("catalog", "list", "--catalog", str(DATA / "dir"), "--no-builtin-catalog", "-o", "yaml")
    doc = load_stream(out, "out")[0].data
    assert status == 0 and doc["kind"] == "List"
    assert [i["metadata"]["name"] for i in doc["items"]] == ["team.small", "team.linux"]
    status, out, _ = run("catalog", "list", "--no-builtin-catalog", "-o", "json")
    assert json.loads(out) == {"apiVersion": "v1", "items": [], "kind": "List", "metadata": {"resourceVersion": ""}}
    status, out, err = run("catalog", "list", "--no-builtin-catalog")
    assert (status, out, err) == (0, "", "No resources found\n")


@pytest.mark.parametrize(("args", "kind", "source_line"), [
    (("u1.medium",), "VirtualMachineClusterInstancetype", None),
    (("u1.medium", "--kind", "vmf"), "VirtualMachineInstancetype", None),
    (("fedora", "--kind", "VirtualMachinePreferences"), "VirtualMachinePreference", None),
    (("legacy", "--kind", "vminstancetype", "-f", str(DATA / "v1alpha2.yaml"), "--accept-removed-versions"),
     "VirtualMachineInstancetype", 2),
])
def test_show(args: tuple[str, ...], kind: str, source_line: int | None) -> None:
    status, out, _ = run("catalog", "show", *args)
    data = load_stream(out, "out")[0].data
    assert status == 0
    assert (data["apiVersion"], data["kind"], data["metadata"]["name"]) == ("instancetype.kubevirt.io/v1beta1", kind,
                                                                            args[0])


def test_show_an_object_of_a_removed_version() -> None:
    """Refused by default; accepted, shown as the API server served it (apiVersion rewritten, fields as written)."""
    args = ("catalog", "show", "legacy", "--kind", "vmf", "-f", str(DATA / "v1alpha2.yaml"), "-o", "json")
    status, out, err = run(*args)
    assert (status, out) == (1, "")
    assert (f'{DATA / "v1alpha2.yaml"}:2:1: error: no matches for kind "VirtualMachineInstancetype" in version '
            '"instancetype.kubevirt.io/v1alpha2" (instancetype.kubevirt.io/v1alpha2 was removed in KubeVirt '
            "v1.7") in err
    status, out, _ = run(*args, "--accept-removed-versions")
    assert status == 0
    assert '"apiVersion": "instancetype.kubevirt.io/v1beta1"' in out and '"model"' not in out


@pytest.mark.parametrize(("args", "status", "message"), [
    (("nope",), 1, "error: no instancetype or preference named 'nope'\n"),
    (("u1.medium", "--kind", "vmi"), 2, "error: --kind 'vmi' is not an instancetype or preference kind\n"),
    (("same", "-f", "-"), 2, "error: 'same' names more than one kind (VirtualMachineClusterInstancetype, "
                             "VirtualMachineClusterPreference): choose one with --kind\n"),
])
def test_show_errors(args: tuple[str, ...], status: int, message: str) -> None:
    both = ("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\n"
            "metadata: {name: same}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}\n---\n"
            "apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\n"
            "metadata: {name: same}\nspec: {}\n")
    got = run("catalog", "show", *args, stdin=both)
    assert (got[0], got[2]) == (status, message)


def test_list_selector_error_is_usage() -> None:
    assert run("catalog", "list", "-l", "a in x") == (
        2, "", "error: unable to parse requirement: 'a in x' is not a valid label selector requirement\n")


def test_directory_sources_and_v1alpha2_render() -> None:
    status, out, err = run("render", "-f", str(DATA / "vm-team.yaml"), "--catalog", str(DATA / "dir"))
    assert (status, err) == (0, "")
    assert "cores: 4" in out and "guest: 3Gi" in out
    status, out, err = run("render", "-f", str(DATA / "vm-legacy.yaml"), "-f", str(DATA / "v1alpha2.yaml"),
                           "--accept-removed-versions")
    assert status == 0 and "cores: 2" in out
    path = DATA / "v1alpha2.yaml"
    assert err == (
        f"{path}:2:1: warning: instancetype.kubevirt.io/v1alpha2 VirtualMachineInstancetypes is now deprecated and "
        "will be removed in v1.\n"
        f"{path}:13:1: warning: instancetype.kubevirt.io/v1alpha2 VirtualMachinePreferences is now deprecated and "
        "will be removed in v1.\n"
        f"{path}:13:1: warning: VirtualMachinePreference legacy: PreferredCPUTopology preferCores is deprecated for "
        "removal in a future release, please use cores instead\n")


def test_rejected_objects_and_shadowing() -> None:
    status, _, err = run("render", "-f", EXAMPLE, "--catalog", str(DATA / "rejected.yaml"), "--catalog",
                         str(DATA / "shadow.yaml"))
    rejected, shadow = DATA / "rejected.yaml", DATA / "shadow.yaml"
    assert status == 1
    assert err == (
        f"{shadow}:1:1: warning: VirtualMachineClusterInstancetype u1.medium shadows the one of the built-in "
        "common-instancetypes v1.7.0 catalog\n"
        f"{rejected}:10:5: error: VirtualMachineClusterInstancetype bad.overcommit: KubeVirt would refuse this object: "
        "spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together.\n"
        f"{rejected}:20:5: error: VirtualMachineClusterPreference bad.topology: KubeVirt would refuse this object: "
        "unknown preferredCPUTopology diagonal\n")
    status, out, _ = run("catalog", "show", "bad.topology", "--catalog", str(rejected))
    assert (status, out) == (1, "")


def test_duplicates(tmp_path: Path) -> None:
    first, second, same = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    text = (DATA / "shadow.yaml").read_text(encoding="utf-8")
    first.write_text(text, encoding="utf-8")
    same.write_text("# the same object again\n" + text, encoding="utf-8")
    second.write_text(text.replace("guest: 3", "guest: 2"), encoding="utf-8")
    status, _, err = run("catalog", "list", "--catalog", str(first), "--catalog", str(same), "-o", "name")
    assert status == 0 and "twice" not in err
    status, _, err = run("catalog", "list", "--catalog", str(first), "--catalog", str(second))
    assert status == 3
    assert (f"{second}:1:1: error: VirtualMachineClusterInstancetype u1.medium is defined twice with different "
            f"content (also at {first}:1:1)") in err


def test_controller_revision_warnings(tmp_path: Path) -> None:
    path = tmp_path / "cr.yaml"
    path.write_text("apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: old}\n"
                    "data: {apiVersion: instancetype.kubevirt.io/v1alpha2, kind: VirtualMachineInstancetype}\n---\n"
                    "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: text}\ndata: abc\n",
                    encoding="utf-8")
    status, _, err = run("render", "-f", str(path))
    assert status == 0
    assert err == (
        f"{path}:1:1: warning: ControllerRevision old holds an object of instancetype.kubevirt.io/v1alpha2, which "
        "KubeVirt v1.7 and later cannot decode (instancetype.kubevirt.io/v1alpha2 was removed in KubeVirt v1.7: "
        "`kubectl instancetype convert -f PATH --write` rewrites it as instancetype.kubevirt.io/v1beta1; "
        "--accept-removed-versions renders it as older clusters did)\n"
        f"{path}:6:1: warning: ControllerRevision text: data is not an object as `kubectl get controllerrevisions "
        "-o yaml` prints it; KubeVirt fails to decode it\n")


def test_revision_round_trip(tmp_path: Path) -> None:
    """The revisions of a VM, fed back with the VM pinned to them, render the same VM without the catalog."""
    status, out, err = run("revision", "-f", EXAMPLE)
    assert (status, err) == (0, "")
    docs = [d.data for d in load_stream(out, "out")]
    assert [d["metadata"]["name"] for d in docs] == [
        "fedora-web-u1.medium-v1beta1-564e2fd7-4f73-56f6-a303-3c6f1d724337-1",
        "fedora-web-fedora-v1beta1-a2e47233-6fbc-5b48-b9c2-d0d1ff48de7f-1",
    ]
    assert docs[0]["metadata"]["labels"]["instancetype.kubevirt.io/object-uid"] == docs[0]["data"]["metadata"]["uid"]
    assert run("revision", "-f", EXAMPLE)[1] == out, "names and content are deterministic"
    vm = Path(EXAMPLE).read_text(encoding="utf-8")
    pinned = vm.replace("name: u1.medium", f"name: u1.medium\n    revisionName: {docs[0]['metadata']['name']}")
    pinned = pinned.replace("name: fedora\n", f"name: fedora\n    revisionName: {docs[1]['metadata']['name']}\n")
    (tmp_path / "vm.yaml").write_text(pinned, encoding="utf-8")
    (tmp_path / "revisions.yaml").write_text(out, encoding="utf-8")
    expected = run("render", "-f", EXAMPLE)[1]
    status, got, err = run("--no-builtin-catalog", "render", "-f", str(tmp_path / "vm.yaml"), "--catalog",
                           str(tmp_path / "revisions.yaml"))
    assert (status, err) == (0, "")
    assert got == expected
    again = run("revision", "-f", str(tmp_path / "vm.yaml"), "-f", str(tmp_path / "revisions.yaml"))
    assert again[:2] == (0, ""), "pinned matchers get no new revision"


def test_revision_changes_with_the_spec() -> None:
    base = run("revision", "-f", EXAMPLE)[1]
    changed = run("revision", "-f", EXAMPLE, "--catalog", str(DATA / "shadow.yaml"))[1]
    assert base.splitlines()[0:30] != changed.splitlines()[0:30]
    assert "fedora-web-fedora-v1beta1-a2e47233-6fbc-5b48-b9c2-d0d1ff48de7f-1" in changed


def test_revision_of_a_vm_kubevirt_refuses() -> None:
    vm = (TESTDATA.parent / "examples" / "vm.yaml").read_text(encoding="utf-8").replace("u1.medium", "u9.none")
    status, out, err = run("revision", "-f", "-", stdin=vm)
    assert (status, out) == (1, "")
    # Admission comes first and ignores the failed lookup: fedora's requirements meet a VM without memory.
    assert ("VirtualMachine default/fedora-web: failure checking preference requirements: insufficient Memory "
            "resources of 0 provided by VirtualMachine, preference requires 2Gi") in err


INFERRED = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata: {name: small, uid: 11111111-2222-3333-4444-555555555555}
spec: {cpu: {guest: 1}, memory: {guest: 1Gi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: root
  labels: {instancetype.kubevirt.io/default-instancetype: small}
spec: {}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: vm}
spec:
  runStrategy: Halted
  instancetype: {inferFromVolume: root}
  template:
    spec:
      domain: {devices: {}}
      volumes:
      - {name: root, persistentVolumeClaim: {claimName: root}}
"""


def test_revision_resolves_matchers_inferred_from_a_volume() -> None:
    """The matcher inferFromVolume settles is the one whose object is stored, as render resolves it."""
    assert run("--no-builtin-catalog", "render", "-f", "-", stdin=INFERRED)[0] == 0
    status, out, err = run("--no-builtin-catalog", "revision", "-f", "-", stdin=INFERRED)
    assert (status, err) == (0, "")
    docs = [d.data for d in load_stream(out, "out")]
    assert [d["metadata"]["name"] for d in docs] == ["vm-small-v1beta1-11111111-2222-3333-4444-555555555555-1"]
    assert docs[0]["data"]["spec"] == {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}


@pytest.mark.parametrize("policy", ["expand", "expandAll"])
def test_revision_under_an_expanding_reference_policy_prints_none(policy: str) -> None:
    config = ("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\n"
              f"spec: {{configuration: {{instancetype: {{referencePolicy: {policy}}}}}}}\n---\n")
    status, out, err = run("--no-builtin-catalog", "revision", "-f", "-", stdin=config + INFERRED)
    assert (status, out) == (0, "")
    assert err == (f"warning: instancetype.referencePolicy is {policy}: virt-controller expands the VMs instead of "
                   "storing ControllerRevisions, so there are none to pin\n")
