"""KubeVirt's own behaviour: every case of testdata/conformance, in-process (VM and VMI mode).

The corpus models a cluster that holds exactly the objects of each case, so the built-in catalog is off
here (see test_cli.py for the few cases run through the installed executable).
"""

from __future__ import annotations

import pytest
from conftest import CONFORMANCE
from kubevirt_case import case_names, check_case

CASES = CONFORMANCE / "cases"
ALL_CASES = case_names(CASES)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_vm_mode(case_name: str) -> None:
    check_case(CASES / case_name, vmi=False)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_vmi_mode(case_name: str) -> None:
    check_case(CASES / case_name, vmi=True)
