"""VirtualMachineTemplate processing as KubeVirt processes it: every case of testdata/conformance-templates,
in-process. The process stage runs ``template process -f T --params-file P -o json --seed S`` (the corpus's
seeded stream, so generated values are compared exactly) and compares the VM (normalised as the corpus runner
normalises it), the error line, the warnings and the message; the expansion stage renders the processed VM of
``expand/input.yaml`` in VM and VMI mode as testdata/conformance does (kubevirt_case.check_case).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke_cli
from kubevirt_case import RUNNER_MODULE, case_names, check_case

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "conformance-templates" / "cases"
CASES = case_names(ROOT)

@pytest.mark.skipif(not CASES, reason="testdata/conformance-templates is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("name", CASES)
def test_process(name: str) -> None:
    case = ROOT / name
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    out, err, status = invoke_cli(["--kubevirt-version", "main", "--no-builtin-catalog", "template", "process",
                                   "-f", "template.yaml", "--params-file", "params.json", "-o", "json",
                                   "--seed", str(meta["generator_seed"])], case)
    for warning in _lines(case / "warnings.txt"):
        assert warning in err, f"expected warning {warning!r} in {err!r}"
    if (case / "error.txt").exists():
        line = (case / "error.txt").read_text(encoding="utf-8").splitlines()[0]
        assert status != 0
        parts = meta.get("error_parts")
        assert line in err or (parts and all(part in err for part in parts)), err
        return
    assert status == 0, err
    assert RUNNER_MODULE is not None
    expected = json.loads((case / "processed.json").read_text(encoding="utf-8"))
    differences = RUNNER_MODULE.diff(RUNNER_MODULE.normalise(expected, "vm"), RUNNER_MODULE.normalise(
        json.loads(out), "vm"))
    assert not differences, "\n".join(differences)
    message = (case / "message.txt").read_text(encoding="utf-8") if (case / "message.txt").exists() else ""
    assert message in err


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line] if path.exists() else []


EXPANDED = [name for name in CASES if (ROOT / name / "expand" / "input.yaml").exists()]


@pytest.mark.skipif(not EXPANDED, reason="testdata/conformance-templates is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("name", EXPANDED)
@pytest.mark.parametrize("vmi", [False, True], ids=["vm", "vmi"])
def test_expand(name: str, vmi: bool) -> None:
    check_case(ROOT / name / "expand", vmi=vmi)
