"""The Flux health checks of ``drift -o flux-health``, evaluated as Flux evaluates them (fluxcd/pkg runtime/cel
``StatusEvaluator``: Flux's own observedGeneration rule, then ``inProgress``, ``failed``, ``current``, else
InProgress) with a CEL library from PyPI (cel-python), on the statuses the Argo CD check is tested on."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import invoke_cli
from health_cases import cases
from ruamel.yaml import YAML

from kubectl_instancetype.gitops.flux_health import health_check_exprs, kustomization_patch

celpy = pytest.importorskip("celpy")

ORDER = (("inProgress", "InProgress"), ("failed", "Failed"), ("current", "Current"))
EXPRS = {entry["kind"]: entry for entry in health_check_exprs()}


def evaluate(expression: str, obj: dict[str, Any]) -> bool:
    env = celpy.Environment()
    program = env.program(env.compile(expression))
    result = program.evaluate({key: celpy.json_to_cel(value) for key, value in obj.items()})
    assert isinstance(result, celpy.celtypes.BoolType), (expression, result)
    return bool(result)


def expressions(obj: dict[str, Any]) -> str:
    """What the expressions alone say of ``obj``."""
    entry = EXPRS[obj["kind"]]
    for key, status in ORDER:
        if key in entry and evaluate(entry[key], obj):
            return status
    return "InProgress"


def flux(obj: dict[str, Any]) -> str:
    """Flux's answer: status.observedGeneration other than metadata.generation (both integers) is InProgress
    before any expression (RFC 0009). An object without status is Unknown: cel-go refuses the undeclared
    variable ``status`` (cel-python's ``has()`` answers false instead) and Flux reads the error as Unknown."""
    observed = (obj.get("status") or {}).get("observedGeneration")
    generation = obj["metadata"].get("generation")
    if isinstance(observed, int) and isinstance(generation, int) and observed != generation:
        return "InProgress"
    if "status" not in obj:
        return "Unknown"
    return expressions(obj)


CASES = [pytest.param(obj, case["flux"], id=name) for name, obj, case in cases()]


@pytest.mark.parametrize(("obj", "expected"), CASES)
def test_health(obj: dict[str, Any], expected: str) -> None:
    assert flux(obj) == expected


@pytest.mark.parametrize(("obj", "expected"), CASES)
def test_the_expressions_never_read_the_observed_generation(obj: dict[str, Any], expected: str) -> None:
    """Their answer is the same whatever status.observedGeneration says (VEP 376: not "in sync")."""
    if "status" not in obj:
        return
    behind, caught_up = copy.deepcopy(obj), copy.deepcopy(obj)
    behind["status"]["observedGeneration"], behind["metadata"]["generation"] = 1, 2
    caught_up["status"]["observedGeneration"] = caught_up["metadata"]["generation"] = 2
    assert expressions(behind) == expressions(caught_up)
    assert not any("Generation" in text for entry in health_check_exprs() for text in entry.values())


def test_the_form_flux_documents() -> None:
    """kustomize-controller's docs/spec/v1/kustomizations.md: apiVersion and current required; kind,
    inProgress and failed optional; nothing else. One entry per kind (Flux refuses a second)."""
    entries = health_check_exprs()
    assert [(e["apiVersion"], e["kind"]) for e in entries] == [("kubevirt.io/v1", "VirtualMachine"),
                                                               ("kubevirt.io/v1", "VirtualMachineInstance")]
    for entry in entries:
        assert set(entry) <= {"apiVersion", "kind", "current", "inProgress", "failed"} and entry["current"]


def test_drift_prints_the_kustomization_fragment(tmp_path: Any) -> None:
    stdout, stderr, code = invoke_cli(["drift", "-o", "flux-health"], tmp_path)
    assert (code, stderr) == (0, "")
    assert YAML(typ="safe").load(stdout) == kustomization_patch()
    comment = "\n".join(line for line in stdout.splitlines() if line.startswith("#"))
    assert "spec.wait: true" in comment and "observedGeneration" in comment
