"""The API server's answers: every case of testdata/validation, in-process, in the three --validate modes.

A case passes as testdata/validation/runner.py decides (that runner drives the installed executable): the
exit status is non-zero exactly when the server refuses an object of the mode (or KubeVirt refuses what the
server stored: ``kubevirt_refuses``, or KubeVirt's whole VM webhook does: testdata/validation-kubevirt), every
error key of a refused object is printed, and under ``warn`` every pruned field is named. Here the run is the
CLI's own session and render, without a process per case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, load_script

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.errors import EXIT_OK
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render

CORPUS = ROOT / "testdata" / "validation"
CASES = CORPUS / "cases"
ALL_CASES = sorted(p.name for p in CASES.iterdir()) if CASES.exists() else []


def _runner() -> Any:
    return load_script(CORPUS / "runner.py", "validation_runner")


RUNNER = _runner() if (CORPUS / "runner.py").exists() else None


def run(case: Path, mode: str) -> tuple[int, str]:
    """Exit status and stderr of ``render -f input.yaml --validate=MODE``, as the CLI computes them."""
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False, validate=mode), FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config))
    problems = [*loaded.problems, *result.problems]
    lines = [n.render() for n in loaded.notices] + [p.render() for p in problems]
    return max((p.exit_code for p in problems), default=EXIT_OK), "\n".join(lines)


# The corpus was generated with KubeVirt's instancetype admission only, before we ran the whole VM validating
# webhook: in about a third of its cases the server stores a VirtualMachine with neither spec.running nor
# spec.runStrategy, which KubeVirt's validateRunStrategy (vms-admitter.go) then refuses. The oracle with the whole
# webhook agrees (`kv-expand --mutate full --admit full input.yaml`):
#   removed-version-0100: "error": "RunStrategy must be specified"
#   control-0140: "error": "spec.template.spec.networks[0].name 'default' not found., Host Devices feature gate
#       is not enabled in kubevirt-config, SNP requires OVMF (UEFI), RunStrategy must be specified"
#   control-0019: "error": "... Host Devices feature gate is not enabled in kubevirt-config, RunStrategy must be
#       specified, Memory hotplug is not compatible with realtime VMs"
# So where the server accepts every object of a mode, such a VM is KubeVirt's refusal, as `kubevirt_refuses` is.
RUN_STRATEGY_REQUIRED = "RunStrategy must be specified"
# More generally, KubeVirt's whole VM validating webhook refuses some VMs the server stores (networks, disks,
# firmware...): its answers, case -> mode -> [error of each refused VM], are in WHOLE_WEBHOOK_FILE (see its README).
WHOLE_WEBHOOK_FILE = ROOT / "testdata" / "validation-kubevirt" / "answers.json"
WHOLE_WEBHOOK: dict[str, dict[str, list[str]]] = json.loads(WHOLE_WEBHOOK_FILE.read_text())


def without_run_strategy(objects: list[dict[str, Any]]) -> str | None:
    """KubeVirt's refusal when a VirtualMachine the server stores names neither running nor runStrategy."""
    for o in objects:
        spec = (o.get("object") or {}).get("spec") if o.get("kind") == "VirtualMachine" else None
        if isinstance(spec, dict) and "running" not in spec and "runStrategy" not in spec:
            return RUN_STRATEGY_REQUIRED
    return None


def reasons(case: Path, mode: str) -> list[str]:
    """Why the run of ``case`` under ``mode`` fails the runner's criteria (empty: it passes)."""
    assert RUNNER is not None
    expected = json.loads((case / "expected.json").read_text())
    objects = expected[mode]
    status, stderr = run(case, mode)
    out: list[str] = []
    refused = any(o.get("verdict") == "refused" for o in objects)
    kubevirt = (expected.get("kubevirt_refuses") or {}).get(mode)
    whole = [kubevirt] if kubevirt else WHOLE_WEBHOOK.get(case.name, {}).get(mode, [])
    if not refused and not kubevirt and without_run_strategy(objects):
        assert any(RUN_STRATEGY_REQUIRED in w for w in whole), f"{WHOLE_WEBHOOK_FILE} disagrees: {whole}"
    if whole and not refused:
        if status == EXIT_OK or any(w not in stderr for w in whole):
            out.append(f"KubeVirt refuses what the server stores: {whole}")
    elif refused != (status != EXIT_OK):
        out.append(f"exit {status}, expected {'non-zero' if refused else '0'}")
    out += [f"missing: {key}" for key, _text in RUNNER.required_keys(objects) if key not in stderr]
    if mode == "warn":
        out += [f"pruned field not named: {p}" for o in objects for p in o.get("pruned") or [] if p not in stderr]
    return out


@pytest.mark.skipif(not ALL_CASES, reason="validation corpus not present")
@pytest.mark.parametrize("mode", ["strict", "warn", "ignore"])
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_validation_case(case_name: str, mode: str) -> None:
    assert reasons(CASES / case_name, mode) == []
