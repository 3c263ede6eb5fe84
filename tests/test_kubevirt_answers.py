"""Differences from KubeVirt found by differential testing, each fixed and kept as a case here.

testdata/kubevirt-answers/<case>/ holds an input and KubeVirt's answer in both modes, produced by KubeVirt's
own code (the team's kv-expand tool, see testdata/kubevirt-answers/README.md), compared as the conformance
corpus is (:mod:`kubevirt_case`).
"""

from __future__ import annotations

import pytest
from conftest import TESTDATA
from kubevirt_case import case_names, check_case

ANSWERS = TESTDATA / "kubevirt-answers"
CASES = case_names(ANSWERS)


def test_every_case_has_both_answers() -> None:
    for name in CASES:
        present = {p.name for p in (ANSWERS / name).iterdir()}
        assert "input.yaml" in present, name
        assert len(present & {"expected.json", "error.txt"}) == 1, name
        assert len(present & {"expected-vmi.json", "error-vmi.txt"}) == 1, name


@pytest.mark.parametrize("case_name", CASES)
def test_vm_mode(case_name: str) -> None:
    check_case(ANSWERS / case_name, vmi=False)


@pytest.mark.parametrize("case_name", CASES)
def test_vmi_mode(case_name: str) -> None:
    check_case(ANSWERS / case_name, vmi=True)
