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


# Admission rules (kubectl_instancetype/admission) that do not yet ask the release: each names the fact or the
# feature gate it must ask. Strict: a case that starts passing fails here until it is taken off the list.
_BINDING = ("admission/network: v1.8 only refuses an interface with both a binding plugin and a binding method "
            "(release.interface_needs_exactly_one_binding)")
_VIDEO = ("admission/devices: before v1.9.0 a video device needs the VideoConfig gate (Beta, off by default) and a "
          "panic device the PanicDevices gate: 'Video configuration is specified but the VideoConfig feature gate "
          "is not enabled', 'Panic Devices feature gate is not enabled in kubevirt-config' (gates.is_enabled)")
PENDING: dict[tuple[str, str], str] = {
    ("v1.8.4", "no-matcher-0002"): _BINDING,
    ("v1.8.4", "real-catalog-0002"): _BINDING,
    ("v1.8.4", "real-catalog-0015"): _BINDING,
    ("v1.8.4", "synthetic-preference-0014"): _BINDING,
    ("v1.8.4", "no-matcher-0003"): _VIDEO,
    ("v1.8.4", "no-matcher-0005"): _VIDEO,
    ("v1.8.4", "synthetic-preference-0011"): _VIDEO,
    ("v1.8.4", "user-overrides-0010"): ("admission (s390x launchSecurity): before v1.9.0 SecureExecution is Beta, "
                                        "off by default: 'SecureExecution feature gate is not enabled in "
                                        "kubevirt-config' (gates.is_enabled)"),
}


def _params() -> list[object]:
    return [pytest.param(tag, name, marks=pytest.mark.xfail(reason=PENDING[(tag, name)], strict=True))
            if (tag, name) in PENDING else pytest.param(tag, name) for tag, name in CASES]


@pytest.mark.skipif(not CASES, reason="testdata/conformance-releases is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize(("tag", "case_name"), _params())
@pytest.mark.parametrize("vmi", [False, True], ids=["vm", "vmi"])
def test_release_case(tag: str, case_name: str, vmi: bool) -> None:
    check_case(ROOT / tag / "cases" / case_name, vmi=vmi)
