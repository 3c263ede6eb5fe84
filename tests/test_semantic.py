"""equality.Semantic.DeepEqual over VMI specs as virt-controller's restart check compares them: a nil pointer
differs from a pointer to an empty struct or to a zero value; plain fields, maps and slices do not tell absent
from zero or empty (N1 of the newcomer reproducers, the empty-object family of conformance-restart)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.pipeline import restart_check
from kubectl_instancetype.schema import semantic

# (field family, BASE template spec, HEAD template spec, whether virt-controller flags RestartRequired)
CHANGES: list[tuple[str, dict[str, Any], dict[str, Any], bool]] = [
    ("firmware: BIOS -> EFI", {"domain": {"firmware": {"bootloader": {"bios": {}}}}},
     {"domain": {"firmware": {"bootloader": {"efi": {}}}}}, True),
    ("firmware: bootloader {} added", {"domain": {"firmware": {}}}, {"domain": {"firmware": {"bootloader": {}}}},
     True),
    ("firmware: firmware {} added", {"domain": {}}, {"domain": {"firmware": {}}}, True),
    ("TPM added", {"domain": {"devices": {}}}, {"domain": {"devices": {"tpm": {}}}}, True),
    ("TPM removed", {"domain": {"devices": {"tpm": {}}}}, {"domain": {"devices": {}}}, True),
    ("RNG added", {"domain": {"devices": {}}}, {"domain": {"devices": {"rng": {}}}}, True),
    ("features: smm added", {"domain": {"features": {}}}, {"domain": {"features": {"smm": {}}}}, True),
    ("features: {} added", {"domain": {}}, {"domain": {"features": {}}}, True),
    ("features: hyperv added", {"domain": {"features": {}}}, {"domain": {"features": {"hyperv": {}}}}, True),
    ("features: pvspinlock added", {"domain": {"features": {}}}, {"domain": {"features": {"pvspinlock": {}}}},
     True),
    ("features: acpi {} (a plain struct) added", {"domain": {"features": {}}},
     {"domain": {"features": {"acpi": {}}}}, False),
    ("features: acpi enabled false added", {"domain": {"features": {"acpi": {}}}},
     {"domain": {"features": {"acpi": {"enabled": False}}}}, True),
    ("NUMA guestMappingPassthrough added", {"domain": {"cpu": {"cores": 2}}},
     {"domain": {"cpu": {"cores": 2, "numa": {"guestMappingPassthrough": {}}}}}, True),
    ("NUMA {} added", {"domain": {"cpu": {}}}, {"domain": {"cpu": {"numa": {}}}}, True),
    ("watchdog added", {"domain": {"devices": {}}},
     {"domain": {"devices": {"watchdog": {"name": "w", "i6300esb": {}}}}}, True),
    ("watchdog action source {} added", {"domain": {"devices": {"watchdog": {"name": "w"}}}},
     {"domain": {"devices": {"watchdog": {"name": "w", "diag288": {}}}}}, True),
    ("panic device added", {"domain": {"devices": {}}}, {"domain": {"devices": {"panicDevices": [{}]}}}, True),
    ("panic devices: empty list", {"domain": {"devices": {}}}, {"domain": {"devices": {"panicDevices": []}}},
     False),
    ("input device added", {"domain": {"devices": {}}},
     {"domain": {"devices": {"inputs": [{"name": "tablet", "type": "tablet"}]}}}, True),
    ("inputs: empty list", {"domain": {"devices": {"inputs": []}}}, {"domain": {"devices": {}}}, False),
    ("downwardMetrics device added", {"domain": {"devices": {}}},
     {"domain": {"devices": {"downwardMetrics": {}}}}, True),
    ("clientPassthrough added", {"domain": {"devices": {}}}, {"domain": {"devices": {"clientPassthrough": {}}}},
     True),
    ("sound device {} added", {"domain": {"devices": {}}}, {"domain": {"devices": {"sound": {}}}}, True),
    ("pointer bool false added", {"domain": {"devices": {}}},
     {"domain": {"devices": {"autoattachVSOCK": False}}}, True),
    ("plain bool false added", {"domain": {"devices": {}}}, {"domain": {"devices": {"disableHotplug": False}}},
     False),
    ("plain number 0 added", {"domain": {"cpu": {"cores": 2}}}, {"domain": {"cpu": {"cores": 2, "threads": 0}}},
     False),
    ("plain string '' added", {"domain": {"cpu": {}}}, {"domain": {"cpu": {"model": ""}}}, False),
    ("devices {} (a plain struct) added", {"domain": {}}, {"domain": {"devices": {}}}, False),
    ("map: empty nodeSelector", {}, {"nodeSelector": {}}, False),
    ("map: an entry with an empty value", {"nodeSelector": {}}, {"nodeSelector": {"a": ""}}, True),
    ("resources: requests {} (a map)", {"domain": {"resources": {}}},
     {"domain": {"resources": {"requests": {}}}}, False),
    ("quantity respelled", {"domain": {"resources": {"requests": {"memory": "1Gi"}}}},
     {"domain": {"resources": {"requests": {"memory": "1024Mi"}}}}, False),
    ("null as absent", {"domain": {"devices": {"tpm": None}}}, {"domain": {"devices": {}}}, False),
    ("volume source {} switched", {"volumes": [{"name": "d", "emptyDisk": {"capacity": "1Gi"}}]},
     {"volumes": [{"name": "d", "emptyDisk": {"capacity": "1Gi"}, "downwardMetrics": {}}]}, True),
    ("interface binding {} switched", {"domain": {"devices": {"interfaces": [{"name": "a", "bridge": {}}]}}},
     {"domain": {"devices": {"interfaces": [{"name": "a", "masquerade": {}}]}}}, True),
    ("clock timer {} added", {"domain": {"clock": {"utc": {}}}},
     {"domain": {"clock": {"utc": {}, "timer": {}}}}, True),
]


@pytest.mark.parametrize(("family", "base", "head", "restart"), CHANGES, ids=[c[0] for c in CHANGES])
def test_semantic_equality(family: str, base: dict[str, Any], head: dict[str, Any], restart: bool) -> None:
    assert semantic.equal(base, head) is not restart
    assert bool(restart_check.differences(base, head)) is restart


def test_difference_names_the_field() -> None:
    base = {"domain": {"firmware": {"bootloader": {"bios": {}}}}}
    head = {"domain": {"firmware": {"bootloader": {"efi": {}}}}}
    assert restart_check.differences(base, head) == [("domain", "firmware", "bootloader", "bios"),
                                                     ("domain", "firmware", "bootloader", "efi")]


def test_type_at_tells_pointers() -> None:
    assert semantic.type_at(("domain", "devices", "tpm"))[1] is True
    assert semantic.type_at(("domain", "devices"))[1] is False
    assert semantic.type_at(("domain", "features", "acpi"))[1] is False
    assert semantic.type_at(("nodeSelector", "x"))[1] is True
