"""The Argo CD health check of ``drift -o argocd-health``, run as Argo CD runs it: the Lua chunk with the live
object as the global ``obj``, its returned table the health (a Lua runtime from PyPI, lupa), on Argo CD's own
test data for kubevirt.io/VirtualMachine and on KubeVirt's RestartRequired and stopped-as-declared statuses."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import invoke_cli
from health_cases import HEALTH, cases
from ruamel.yaml import YAML

from kubectl_instancetype.gitops.argocd_health import KEY, health_lua, health_patch

lupa = pytest.importorskip("lupa")

VMS = [(name, obj, case["argocd"]) for name, obj, case in cases() if "argocd" in case]


def health(obj: dict[str, Any], status: str = "Degraded") -> tuple[str, str]:
    lua = lupa.LuaRuntime(unpack_returned_tuples=True)
    lua.globals().obj = lua.table_from(obj, recursive=True)
    result = lua.execute(health_lua(status))
    return str(result["status"]), str(result["message"])


@pytest.mark.parametrize(("obj", "expected"), [pytest.param(obj, tuple(want), id=name) for name, obj, want in VMS])
def test_health(obj: dict[str, Any], expected: tuple[str, str]) -> None:
    assert health(obj) == expected


def test_argo_cds_own_answers_are_kept() -> None:
    """Every case of Argo CD's health_test.yaml is one of ours, with Argo CD's answer, but for the VM Git
    declares stopped (argo-cd#29664 changed it after these files)."""
    tests = YAML(typ="safe").load((HEALTH / "argo-cd" / "VirtualMachine" / "health_test.yaml").read_text())["tests"]
    ours = {name: want for name, _obj, want in VMS}
    for test in tests:
        expected = [test["healthStatus"]["status"], test["healthStatus"]["message"]]
        got = ours[f"VirtualMachine/{test['inputPath'].removeprefix('testdata/')}"]
        if test["inputPath"] == "testdata/suspended_stopped.yaml":
            assert (expected, got) == (["Suspended", "Stopped"], ["Healthy", "Stopped as declared"])
        else:
            assert got == expected, test["inputPath"]


def test_progressing_variant() -> None:
    (obj,) = [obj for name, obj, _ in VMS if name == "restart-required"]
    assert health(obj, "Progressing")[0] == "Progressing"
    with pytest.raises(ValueError):
        health_lua("Healthy")


def test_the_check_never_reads_the_observed_generation() -> None:
    """A VM's status.observedGeneration is the generation its VMI started from (VEP 376), not "in sync"."""
    assert "observedGeneration" not in health_lua() and "Generation" not in health_lua()


def test_drift_prints_a_merge_patch_of_argocd_cm(tmp_path: Any) -> None:
    """Not a whole ConfigMap: kubectl apply of one would wipe argocd-cm's other settings. The comment says how
    to merge it."""
    stdout, stderr, code = invoke_cli(["drift", "-o", "argocd-health"], tmp_path)
    assert (code, stderr) == (0, "")
    patch = YAML(typ="safe").load(stdout)
    assert patch == health_patch() and set(patch) == {"data"} and patch["data"][KEY] == health_lua()
    comment = [line for line in stdout.splitlines() if line.startswith("#")]
    assert any("kubectl patch configmap argocd-cm -n argocd --type merge --patch-file" in line for line in comment)
    assert any("do not kubectl apply" in line for line in comment)


def test_health_output_reads_no_input(tmp_path: Any) -> None:
    _out, stderr, code = invoke_cli(["drift", "-o", "argocd-health", "vm.yaml"], tmp_path)
    assert code == 2 and "reads no input" in stderr
