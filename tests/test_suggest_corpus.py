"""``suggest`` on the public corpus: every expanded VM of testdata/conformance, stripped of its matchers (the
expansion as a hand-written VM), gets back an instancetype and preference whose render equals it, or the
differences listed, or says why nothing fits; never a crash, never a silent wrong answer.

Each case is its own cluster: the catalog is the case's objects (the built-in catalog off, as in
test_conformance.py), the cluster configuration its KubeVirt CR. When this was written 247 of the 288 came
back exactly; of the others, 32 named nothing to get back (their case has no matcher) and 9 were expanded
through a ControllerRevision (``revisionName`` or a status reference) holding another object than the
catalog's. The floor below keeps that.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE
from kubevirt_case import RUNNER_MODULE

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.suggest import APPROXIMATE, EXACT, NOTHING, Scope, Suggestion, suggest
from kubectl_instancetype.suggest.engine import added_annotation
from kubectl_instancetype.suggest.hints import hints
from kubectl_instancetype.suggest.proof import compare

CASES = CONFORMANCE / "cases"
EXPANDED = sorted(p.name for p in CASES.iterdir() if (p / "expected.json").exists()) if CASES.exists() else []
EXACT_FLOOR = 247  # raise it when the matcher improves


def _hand_written(case: Path) -> dict[str, Any]:
    vm = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    for matcher in ("instancetype", "preference"):
        vm.get("spec", {}).pop(matcher, None)
    return dict(vm)


@cache
def _suggested(name: str) -> tuple[Suggestion, Scope, dict[str, Any]]:
    case = CASES / name
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False, kubevirt_version="main"), FILES)
    scope = Scope("default", loaded.catalog, loaded.config)
    vm = _hand_written(case)
    return suggest(vm, scope, hints(vm, scope.namespace_of(vm), loaded.catalog)), scope, vm


@pytest.mark.skipif(not EXPANDED, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("name", EXPANDED)
def test_an_expanded_vm_gets_back_what_renders_it(name: str) -> None:
    found, scope, vm = _suggested(name)
    assert found.verdict in (EXACT, APPROXIMATE, NOTHING)
    if found.verdict == NOTHING:
        assert found.vm is None and found.reason
        return
    assert found.vm is not None and (found.instancetype or found.preference)
    proof = compare(scope.baseline(vm), scope.render(found.vm))
    # The differences listed are exactly those of the render, the template annotations added listed apart.
    assert tuple(d for d in proof if not added_annotation(d)) == found.differences
    assert tuple(d for d in proof if added_annotation(d)) == found.annotated
    assert (found.verdict == EXACT) == (found.differences == ())
    if found.verdict == EXACT:  # and independently: the rewritten VM renders as KubeVirt expanded the case
        runner = RUNNER_MODULE
        assert runner is not None
        expected = json.loads((CASES / name / "expected.json").read_text(encoding="utf-8"))
        assert runner.diff(runner.normalise(expected, "vm"), runner.normalise(scope.render(found.vm), "vm")) == []


@pytest.mark.skipif(not EXPANDED, reason="testdata/conformance is missing: run scripts/refresh-corpus")
def test_most_expanded_vms_come_back_exactly() -> None:
    exact = [name for name in EXPANDED if _suggested(name)[0].verdict == EXACT]
    assert len(exact) >= EXACT_FLOOR, f"{len(exact)} of {len(EXPANDED)} exact"
