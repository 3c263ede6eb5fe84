"""KubeVirt's behaviour at each release: every case of testdata/conformance-releases/<tag>, in-process (VM and
VMI mode) with ``--kubevirt-version <tag>``, compared as testdata/conformance is (kubevirt_case.check_case).

The cases were made by the code of the release tag with the common-instancetypes bundle it deploys (in the
inputs) and its default cluster configuration; the built-in catalog is off here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kubevirt_case import case_names, check_case

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "conformance-releases"
CASES = [(tag, name) for tag in sorted(p.name for p in ROOT.iterdir() if p.is_dir()) if ROOT.exists()
         for name in case_names(ROOT / tag / "cases")] if ROOT.exists() else []


# Cases that do not yet pass, each with what it needs (strict: one that starts passing fails here until it is
# taken off the list).
PENDING: dict[tuple[str, str], str] = {}


def _params() -> list[object]:
    return [pytest.param(tag, name, marks=pytest.mark.xfail(reason=PENDING[(tag, name)], strict=True))
            if (tag, name) in PENDING else pytest.param(tag, name) for tag, name in CASES]


@pytest.mark.skipif(not CASES, reason="testdata/conformance-releases is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize(("tag", "case_name"), _params())
@pytest.mark.parametrize("vmi", [False, True], ids=["vm", "vmi"])
def test_release_case(tag: str, case_name: str, vmi: bool) -> None:
    check_case(ROOT / tag / "cases" / case_name, vmi=vmi)
