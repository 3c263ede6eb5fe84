"""The library API answers as the command line does: both run on the public corpora of testdata/ and their
answers are compared (rendered objects, error messages and warnings; the restart impact's JSON; a processed
template's VM, warnings and refusal).

A sample, to keep the suite short: every 7th case of testdata/conformance (VM and VMI mode, 119 cases), every
4th of testdata/conformance-restart (43) and of testdata/conformance-templates (44). The full corpora are run
against KubeVirt's answers by test_conformance.py, test_restart_conformance.py and test_conformance_templates.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, TESTDATA, invoke_cli
from kubevirt_case import case_names, release_of_case

from kubectl_instancetype import library
from kubectl_instancetype.errors import InputError, KubeVirtError, one_line
from kubectl_instancetype.vmtemplate.source import load_params
from kubectl_instancetype.yamlio import load_stream

RENDER = CONFORMANCE / "cases"
RESTART = TESTDATA / "conformance-restart" / "cases"
TEMPLATES = TESTDATA / "conformance-templates" / "cases"
RENDER_SAMPLE = case_names(RENDER)[::7]
RESTART_SAMPLE = case_names(RESTART)[::4]
TEMPLATE_SAMPLE = case_names(TEMPLATES)[::4]


def _objects(path: Path) -> list[Any]:
    return [doc.data for doc in load_stream(path.read_text(encoding="utf-8"), str(path))]


def _said(stderr: str, severity: str) -> list[str]:
    """The messages of stderr's ``severity`` lines (``path:line:col: error: message`` or ``error: message``)."""
    mark = f"{severity}: "
    return [line.split(f" {mark}", 1)[-1] if not line.startswith(mark) else line[len(mark):]
            for line in stderr.splitlines() if line.startswith(mark) or f": {mark}" in line]


def _printed(stdout: str) -> list[Any]:
    if not stdout.strip():
        return []
    data = json.loads(stdout)
    return data["items"] if data.get("kind") == "List" and data.get("apiVersion") == "v1" else [data]


@pytest.mark.skipif(not RENDER_SAMPLE, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("mode", ["vm", "vmi"])
@pytest.mark.parametrize("name", RENDER_SAMPLE)
def test_render_as_cli(name: str, mode: library.Mode) -> None:
    case = RENDER / name
    version = release_of_case(case)
    flags = ["--vmi"] if mode == "vmi" else []
    stdout, stderr, _ = invoke_cli(["--kubevirt-version", version, "--no-builtin-catalog", "render", "-f",
                                    "input.yaml", "-o", "json", *flags], case)
    found = library.render(_objects(case / "input.yaml"), library.Settings(builtin_catalog=False,
                                                                           kubevirt_version=version), mode)
    assert list(found.outputs) == _printed(stdout)
    assert sorted(one_line(p.message) for p in found.problems) == sorted(_said(stderr, "error")), stderr
    assert sorted(one_line(w) for w in found.warnings) == sorted(_said(stderr, "warning")), stderr


@pytest.mark.skipif(not RESTART_SAMPLE, reason="testdata/conformance-restart is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("name", RESTART_SAMPLE)
def test_restart_impact_as_cli(name: str) -> None:
    case = RESTART / name
    vmi = json.loads((case / "meta.json").read_text(encoding="utf-8")).get("vmi") or {}
    migratable, arch = vmi.get("migratable", True) is not False, vmi.get("arch") or None
    flags = [*([] if migratable else ["--vmi-not-migratable"]), *(["--vmi-arch", arch] if arch else [])]
    stdout, _, _ = invoke_cli(["--kubevirt-version", "main", "--no-builtin-catalog", "diff", "--restart-impact",
                               "--base", "base.yaml", "head.yaml", "-o", "json", *flags], case)
    found = library.restart_impact(_objects(case / "base.yaml"), _objects(case / "head.yaml"),
                                   library.Settings(builtin_catalog=False, kubevirt_version="main"), migratable, arch)
    assert _unsourced(found.as_json("base.yaml")) == _unsourced(json.loads(stdout))
    assert found.outcome == json.loads(stdout)["outcome"]


def _unsourced(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer without the file names and positions (``head.yaml:17:11`` here; objects in memory have no
    lines: ``head[0]:1:1`` there)."""
    def vm(row: dict[str, Any]) -> dict[str, Any]:
        causes = [{k: v for k, v in c.items() if k != "location"} for c in row.get("causes") or []]
        return {**{k: v for k, v in row.items() if k not in ("source", "location")}, "causes": causes}

    return {**answer, "vms": [vm(row) for row in answer["vms"]]}


@pytest.mark.skipif(not TEMPLATE_SAMPLE, reason="testdata/conformance-templates is missing: run "
                                                "scripts/refresh-corpus")
@pytest.mark.parametrize("name", TEMPLATE_SAMPLE)
def test_process_template_as_cli(name: str) -> None:
    case = TEMPLATES / name
    seed = json.loads((case / "meta.json").read_text(encoding="utf-8"))["generator_seed"]
    stdout, stderr, status = invoke_cli(["--kubevirt-version", "main", "template", "process", "-f", "template.yaml",
                                         "--params-file", "params.json", "-o", "json", "--seed", str(seed)], case)
    template = _objects(case / "template.yaml")[0]
    params = load_params((case / "params.json").read_text(encoding="utf-8"), "params.json")
    try:
        done = library.process_template(template, params, seed, "main")
    except (KubeVirtError, InputError) as exc:
        assert status != 0
        assert f"error: {one_line(exc.message)}" in stderr
        for warning in getattr(exc, "warnings", ()):
            assert f"Warning: {warning}" in stderr
        return
    assert status == 0, stderr
    assert done.vm == json.loads(stdout)
    assert all(f"Warning: {w}" in stderr for w in done.warnings)
    assert done.message in stderr


def _vm(instancetype: str, **meta: str) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web", **meta},
            "spec": {"runStrategy": "Always", "instancetype": {"name": instancetype},
                     "template": {"spec": {"domain": {"devices": {}}}}}}


def test_objects_given_are_not_changed() -> None:
    vm = _vm("u1.small")
    before = json.dumps(vm, sort_keys=True)
    rendered = library.render_vm(vm)
    assert json.dumps(vm, sort_keys=True) == before
    assert rendered["spec"]["template"]["spec"]["domain"]["memory"] == {"guest": "2Gi"}


def test_refusal_is_raised() -> None:
    with pytest.raises(KubeVirtError, match=r'"u1\.meduim" not found'):
        library.render_vm(_vm("u1.meduim"))


def test_catalog_and_config_in_memory() -> None:
    instancetype = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
                    "metadata": {"name": "tiny"}, "spec": {"cpu": {"guest": 3}, "memory": {"guest": "1Gi"}}}
    config = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "metadata": {"name": "kubevirt"},
              "spec": {"configuration": {"architectureConfiguration": {"defaultArchitecture": "arm64"}}}}
    found = library.render([_vm("tiny", namespace="a")], library.Settings(
        catalog=(instancetype,), builtin_catalog=False, kubevirt_config=config), "vmi")
    assert found.check().outputs[0]["spec"]["architecture"] == "arm64"
    assert found.outputs[0]["spec"]["domain"]["cpu"]["sockets"] == 3
    assert [o.source for o in found.objects] == ["objects[0]"]
