"""KubeVirt's own behaviour: every case of testdata/conformance, in-process (VM and VMI mode).

The corpus models a cluster that holds exactly the objects of each case, so the built-in catalog is off
here (see test_cli.py for the few cases run through the installed executable).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.cli.render import vm_renderer
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render

CASES = CONFORMANCE / "cases"
RUNNER = CONFORMANCE / "runner.py"


def _runner() -> Any:
    spec = importlib.util.spec_from_file_location("conformance_runner", RUNNER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER_MODULE = _runner() if RUNNER.exists() else None
ALL_CASES = sorted(p.name for p in CASES.iterdir()) if CASES.exists() else []


def render_case(case: Path, vmi: bool) -> tuple[Any, list[str]]:
    """The rendered VM (or VMI) of a case and the error messages, loaded and rendered as the CLI does it."""
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False), FILES)
    assert not loaded.problems, [p.message for p in loaded.problems]
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config), vm_renderer(vmi))
    wanted = "VirtualMachineInstance" if vmi else "VirtualMachine"
    outputs = [i.rendered for i in result.items if isinstance(i.rendered, dict)]
    rendered = next((doc for doc in outputs if doc.get("kind") == wanted), None)
    return rendered, [p.message for p in result.problems if isinstance(p, KubeVirtError)]


def _check(case_name: str, vmi: bool) -> None:
    assert RUNNER_MODULE is not None
    case = CASES / case_name
    expected_file = case / ("expected-vmi.json" if vmi else "expected.json")
    error_file = case / ("error-vmi.txt" if vmi else "error.txt")
    rendered, errors = render_case(case, vmi)
    if error_file.exists():
        message, _stage = RUNNER_MODULE.read_error_file(error_file)
        assert any(message in e for e in errors), f"expected error {message!r}, got {errors!r}"
        return
    assert not errors, errors
    mode = "vmi" if vmi else "vm"
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    normalise = RUNNER_MODULE.normalise
    differences = RUNNER_MODULE.diff(normalise(expected, mode), normalise(rendered, mode))
    assert not differences, "\n".join(differences)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_vm_mode(case_name: str) -> None:
    _check(case_name, vmi=False)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_vmi_mode(case_name: str) -> None:
    _check(case_name, vmi=True)
