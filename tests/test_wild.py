"""VirtualMachines other people wrote: every case of testdata/wild, in-process (VM and VMI mode), compared as
testdata/conformance is (kubevirt_case.check_case).

The inputs come from KubeVirt's docs, blog and examples, the OpenShift Virtualization cookbook, training sites,
demos, homelabs and GitOps repositories, as found; the expectations are KubeVirt's own code at main
(testdata/wild/README.md). A mode whose answer the API server gives before any webhook (unserved versions,
unknown fields, a missing name: ``oracle_limitation`` in meta.json) has no expectation and is not run here; the
validation corpus covers that layer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kubevirt_case import case_names, check_case

CASES = Path(__file__).resolve().parent.parent / "testdata" / "wild" / "cases"
ALL_CASES = case_names(CASES)


def answered(vmi: bool) -> list[str]:
    """The cases with KubeVirt's answer in the mode (an expected document or error)."""
    suffix = "-vmi" if vmi else ""
    return [name for name in ALL_CASES
            if (CASES / name / f"expected{suffix}.json").exists() or (CASES / name / f"error{suffix}.txt").exists()]


@pytest.mark.skipif(not ALL_CASES, reason="testdata/wild is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", answered(vmi=False))
def test_vm_mode(case_name: str) -> None:
    check_case(CASES / case_name, vmi=False)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/wild is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", answered(vmi=True))
def test_vmi_mode(case_name: str) -> None:
    check_case(CASES / case_name, vmi=True)
