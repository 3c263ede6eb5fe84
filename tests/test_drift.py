"""The VM as the cluster stores it (``render --stored``), its drift from the file (``drift``), and pinning
(``render --pin``).

``testdata/drift/kubevirt-stored.json`` holds what KubeVirt's own code stores for a sample of the conformance
corpus (kv-expand ``--mutate full --admit full --stored``, one admitted case per family, status dropped): our
stored form must equal it, virt-controller's additions and the values the cluster draws at random aside.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, TESTDATA, check_golden, invoke_cli

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.gitops.drift import differences, uncovered
from kubectl_instancetype.gitops.ignore import RuleIndex
from kubectl_instancetype.gitops.pin import firmware_identity
from kubectl_instancetype.gitops.rulefiles import rules_of
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.pipeline import stored
from kubectl_instancetype.pipeline.stages import render_stored
from kubectl_instancetype.render import Options, render
from kubectl_instancetype.yamlio import load_stream

DRIFT = TESTDATA / "drift"
CATALOG = ["--catalog", "catalog.yaml", "--no-builtin-catalog"]
ANSWERS = json.loads((DRIFT / "kubevirt-stored.json").read_text())


def cli(*args: str, cwd: Path = DRIFT) -> tuple[str, str, int]:
    return invoke_cli(list(args), cwd)


@pytest.mark.parametrize(("output", "golden", "status"), [
    ("text", "drift.txt", 1), ("json", "drift.json", 1), ("argocd", "argocd.yaml", 0),
    ("argocd-cm", "argocd-cm.yaml", 0), ("flux", "flux.yaml", 0),
])
def test_drift_outputs(output: str, golden: str, status: int, update_goldens: bool) -> None:
    out, err, code = cli("drift", "vms.yaml", *CATALOG, "-o", output)
    assert (code, err) == (status, "")
    check_golden(DRIFT, {golden: out}, update_goldens)


def test_the_rules_it_prints_cover_all_drift(tmp_path: Path) -> None:
    for output in ("argocd", "flux"):  # one rule per VM: all covered
        rules = tmp_path / f"{output}.yaml"
        rules.write_text(cli("drift", "vms.yaml", *CATALOG, "-o", output)[0])
        out, err, code = cli("drift", "vms.yaml", *CATALOG, "--against", str(rules))
        assert (code, err) == (0, ""), out
        assert "will drift (10 covered)" in out and "will drift (8 covered)" in out


@pytest.mark.parametrize("output", ["argocd", "argocd-cm", "flux"])
def test_each_rules_output_is_one_document(output: str) -> None:
    """One YAML document a user can paste or hand to kubectl patch: never a fragment and a ConfigMap in one
    stream (issue 30)."""
    out = cli("drift", "vms.yaml", *CATALOG, "-o", output)[0]
    assert len(load_stream(out, output)) == 1 and "\n---" not in out


def test_argocd_cm_form_covers_only_what_every_vm_drifts_in(tmp_path: Path) -> None:
    configmap = tmp_path / "argocd-cm.yaml"
    configmap.write_text(cli("drift", "vms.yaml", *CATALOG, "-o", "argocd-cm")[0])
    out, err, code = cli("drift", "vms.yaml", *CATALOG, "--against", str(configmap))
    assert (code, err) == (1, "")
    assert "10 fields will drift (8 covered)" in out
    assert "  + /spec/template/spec/domain/firmware/uuid: \"<assigned by the cluster>\"" in out
    assert "  = /spec/template/spec/architecture: \"amd64\"" in out


def test_a_rule_for_another_vm_covers_nothing() -> None:
    text = json.dumps({"spec": {"ignoreDifferences": [
        {"group": "kubevirt.io", "kind": "VirtualMachine", "name": "other", "jsonPointers": ["/spec"]}]}})
    found = rules_of(load_stream(text, "app.json")[0])
    assert found is not None
    index = RuleIndex.of(found.rules)
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web"}}
    assert index.selecting(vm, "team-a") == []
    assert index.selecting({**vm, "metadata": {"name": "other"}}, "team-a") == list(found.rules)


def test_an_unreadable_rules_file_is_an_input_error() -> None:
    _out, err, code = cli("drift", "vms.yaml", *CATALOG, "--against", "missing.yaml")
    assert code == 3
    assert err == "missing.yaml:1:1: error: cannot read --against file: No such file or directory\n"


def test_render_stored(update_goldens: bool) -> None:
    out, err, code = cli("render", "--stored", "vms.yaml", *CATALOG)
    assert (code, err) == (0, "")
    check_golden(DRIFT, {"stored.yaml": out}, update_goldens)
    out, err, code = cli("render", "--stored", "--explain", "vms.yaml", *CATALOG)
    assert (code, err) == (0, "")
    check_golden(DRIFT, {"stored-explain.yaml": out}, update_goldens)
    assert "uid: <assigned by the cluster>  # assigned by the cluster: the API server gives each object" in out


def test_pin_writes_the_stable_values_keeping_comments(tmp_path: Path, update_goldens: bool) -> None:
    for name in ("vms.yaml", "catalog.yaml"):
        shutil.copy(DRIFT / name, tmp_path / name)
    assert cli("render", "--pin", "--check", "vms.yaml", *CATALOG, cwd=tmp_path)[2] == 1
    out, _err, code = cli("render", "--pin", "--pin-firmware", "--write", "vms.yaml", *CATALOG, cwd=tmp_path)
    assert (code, out) == (0, "")
    check_golden(DRIFT, {"pinned.yaml": (tmp_path / "vms.yaml").read_text()}, update_goldens)
    assert cli("render", "--pin", "--pin-firmware", "--check", "vms.yaml", *CATALOG, cwd=tmp_path)[2] == 0
    out, _err, code = cli("drift", "vms.yaml", *CATALOG, cwd=tmp_path)
    assert code == 1  # what is left is virt-controller's bookkeeping, never pinned
    assert [line for line in out.splitlines() if line.startswith("  ")] == [
        '  + /metadata/annotations/kubevirt.io~1latest-observed-api-version: "v1"',
        '  + /metadata/annotations/kubevirt.io~1storage-observed-api-version: "v1"',
        '  + /metadata/finalizers: ["kubevirt.io/virtualMachineControllerFinalize"]',
    ] * 2


@pytest.mark.parametrize("output", ["yaml", "json"])
def test_pin_printed_is_what_write_writes(tmp_path: Path, output: str) -> None:
    """render --pin without --write prints the pinned VMs (it was exit 4: the emitter refused the mappings a
    pin places its keys in)."""
    for name in ("vms.yaml", "catalog.yaml"):
        shutil.copy(DRIFT / name, tmp_path / name)
    printed, err, code = cli("render", "--pin", "--pin-firmware", "-o", output, "vms.yaml", *CATALOG, cwd=tmp_path)
    assert code == 0, err
    assert cli("render", "--pin", "--pin-firmware", "--write", "vms.yaml", *CATALOG, cwd=tmp_path)[2] == 0
    docs = list(load_stream(printed, "stdout")) if output == "yaml" else json.loads(printed)["items"]
    data = [d.data for d in docs] if output == "yaml" else docs
    pinned = [d.data for d in load_stream((tmp_path / "vms.yaml").read_text(), "vms.yaml")]
    assert [d for d in data if d.get("kind") == "VirtualMachine"] == [
        d for d in pinned if d.get("kind") == "VirtualMachine"]


def test_pinned_firmware_is_derived_from_namespace_and_name() -> None:
    assert firmware_identity("team-a", "web") == firmware_identity("team-a", "web")
    assert firmware_identity("team-a", "web") != firmware_identity("team-b", "web")
    uuid, serial = firmware_identity("team-a", "web")
    assert uuid != serial


@pytest.mark.parametrize(("args", "message"), [
    (["--pin-firmware"], "--pin-firmware adds to --pin: give --pin too"),
    (["--stored", "--vmi"], "--vmi and --stored exclude each other"),
    (["--stored", "--write"], "--stored prints what the cluster stores (with values it assigns): it cannot be "
                              "written into files; use --pin"),
    (["--pin", "--explain"], "--explain explains an expansion: drop --pin"),
])
def test_mode_conflicts_are_usage_errors(args: list[str], message: str) -> None:
    _out, err, code = cli("render", "vms.yaml", *CATALOG, *args)
    assert code == 2
    assert err.splitlines()[-1] == f"Error: {message}"


def test_drift_pointers_escape_and_name_leaves() -> None:
    before = {"metadata": {"name": "a"}, "spec": {"template": {"spec": {}}}}
    after = {"metadata": {"name": "a", "uid": "x", "annotations": {"a/b~c": "1"}},
             "spec": {"template": {"spec": {"domain": {"machine": {"type": "q35"}}}}}, "status": {"ready": True}}
    found = differences(before, after)
    assert [d.pointer for d in found] == ["/metadata/annotations/a~1b~0c", "/spec/template/spec/domain/machine/type"]
    rule = {"group": "kubevirt.io", "kind": "*",
            "jsonPointers": ["/spec/template/spec/domain", "/spec/template/spec/dom"]}
    rules = rules_of(load_stream(json.dumps({"spec": {"ignoreDifferences": [rule]}}), "app.json")[0])
    assert rules is not None
    assert uncovered(before, after, found, list(rules.rules)) == found[:1]


def _ours(case: str) -> dict[str, Any]:
    loaded = gather(Request((str(CONFORMANCE / "cases" / case / "input.yaml"),), builtin=False,
                           kubevirt_version="main"), FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config), render_stored)
    item = next(i for i in result.items if i.is_vm)
    assert item.problem is None, item.problem
    vm = copy.deepcopy(item.rendered)
    meta = vm["metadata"]
    for key in ("uid", "finalizers", "generation"):
        meta.pop(key, None)
    annotations = meta.get("annotations") or {}
    for key in (stored.LATEST_OBSERVED, stored.STORAGE_OBSERVED):
        annotations.pop(key, None)
    if not annotations:
        meta.pop("annotations", None)
    vm.pop("status", None)
    return vm


@pytest.mark.parametrize("case", sorted(ANSWERS))
def test_stored_form_is_what_kubevirt_stores(case: str) -> None:
    ours, theirs = _ours(case), copy.deepcopy(ANSWERS[case])
    firmware = ours["spec"]["template"]["spec"]["domain"].get("firmware") or {}
    for key, value in firmware.items():
        if value == stored.ASSIGNED:  # random on a cluster: only that KubeVirt wrote one
            assert theirs["spec"]["template"]["spec"]["domain"]["firmware"][key]
            theirs["spec"]["template"]["spec"]["domain"]["firmware"][key] = stored.ASSIGNED
    theirs.setdefault("metadata", {}).setdefault("namespace", "default")
    theirs["metadata"].pop("generation", None)
    assert ours == theirs


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    """A CRD's structural schema as the API server applies it under strict field validation: unknown fields
    are refused, not pruned."""
    out = {k: _strict(v) if isinstance(v, dict) and k in ("items", "additionalProperties") else v
           for k, v in schema.items()}
    if "properties" in schema:
        out["properties"] = {k: _strict(v) for k, v in schema["properties"].items()}
        out.setdefault("additionalProperties", False)
    return out


@pytest.mark.parametrize(("output", "tool", "path"), [
    ("argocd", "argocd", ("spec", "ignoreDifferences")), ("flux", "flux", ("spec", "driftDetection")),
])
def test_printed_rules_are_valid_for_argocd_and_flux(output: str, tool: str, path: tuple[str, str]) -> None:
    """Against the schemas of Argo CD's Application CRD and Flux's HelmRelease v2 CRD (testdata/drift/
    gitops-schemas.json says which commit)."""
    import jsonschema

    schema = _strict(json.loads((DRIFT / "gitops-schemas.json").read_text())[tool]["schema"])
    document = load_stream(cli("drift", "vms.yaml", *CATALOG, "-o", output)[0], output)[0].data
    jsonschema.validate(document[path[0]][path[1]], schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"kind": "VirtualMachine", "jsonPointer": ["/spec"]}] if tool == "argocd"
                            else {"ignore": [{"path": ["/spec"]}]}, schema)


@pytest.mark.parametrize(("version", "present", "absent"), [
    ("v1.5.2", ["/spec/instancetype/kind"], ["/spec/template/spec/domain/firmware/uuid",
                                            "/spec/template/spec/domain/firmware/serial",
                                            "/spec/template/metadata/annotations/kubevirt.io~1pci-topology-version"]),
    ("v1.6.6", ["/spec/instancetype/kind", "/spec/template/spec/domain/firmware/uuid",
                "/spec/template/metadata/annotations/kubevirt.io~1pci-topology-version"], []),
    ("v1.9.0", ["/spec/template/spec/domain/firmware/serial"], ["/spec/instancetype/kind"]),
])
def test_what_drifts_depends_on_the_release(version: str, present: list[str], absent: list[str]) -> None:
    """The release table decides: matcher kinds on v1.5/v1.6, the firmware UUID from v1.6.0 and serial from
    v1.5.3/v1.6.1/v1.7.0, the PCI topology annotation from v1.6.4/v1.7.2/v1.8.0."""
    out, err, _code = cli("--kubevirt-version", version, "drift", "vms.yaml", *CATALOG, "-o", "json")
    assert err == ""
    pointers = [d["pointer"] for d in json.loads(out)["items"][0]["drift"]]
    assert all(p in pointers for p in present), pointers
    assert not any(p in pointers for p in absent), pointers


def test_pinned_keys_go_where_kubectl_shows_them() -> None:
    """kubectl get -o yaml sorts keys (go-yaml's order); a pinned key goes before the first key that sorts
    after it, the keys already there keep their order, and --write is told so (an InPlace mapping)."""
    from kubectl_instancetype.gitops.pin import pinned
    from kubectl_instancetype.yamlio.keyorder import InPlace, placed

    vm = {"spec": {"template": {"spec": {"domain": {"memory": {"guest": "1Gi"}, "cpu": {"cores": 1}},
                                         "volumes": []}}}}
    stored = {"spec": {"template": {"metadata": {"annotations": {"a": "b"}},
                                    "spec": {"architecture": "amd64", "volumes": [],
                                             "domain": {"memory": {"guest": "1Gi"}, "cpu": {"cores": 1},
                                                        "machine": {"type": "q35"}, "resources": {}}}}}}
    out = pinned(vm, stored, "default", False)
    template = out["spec"]["template"]
    assert list(template) == ["metadata", "spec"] and isinstance(template, InPlace)
    assert list(template["spec"]) == ["architecture", "domain", "volumes"]
    assert list(template["spec"]["domain"]) == ["machine", "memory", "cpu", "resources"]
    assert placed({"b": 1, "d": 2}, InPlace(a=0, b=1, c=0, d=2, e=0)) == ([("a", "b"), ("c", "d")], ["e"])
    assert placed({"b": 1, "d": 2}, {"a": 0, "b": 1, "d": 2}) == ([], ["a"])  # a render's keys go after
