"""Where the webhooks annotate the PCI topology: SupportsPCIeHotplug (pkg/defaults/defaults.go)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.origin import named
from kubectl_instancetype.vmi.pcitopology import annotate, supports_pcie_hotplug


@pytest.mark.parametrize(
    ("spec", "supported"),
    [
        ({}, True),  # no architecture and no machine yet
        ({"architecture": "amd64", "domain": {"machine": {"type": "q35"}}}, True),
        ({"architecture": "amd64", "domain": {"machine": {"type": "pc-q35-rhel9.6.0"}}}, True),
        ({"architecture": "amd64", "domain": {"machine": {"type": "pc"}}}, False),
        ({"architecture": "arm64", "domain": {"machine": {"type": "virt-rhel9.6.0"}}}, True),
        ({"architecture": "arm64", "domain": {"machine": {"type": "myvirt"}}}, False),  # virt only as a prefix
        ({"architecture": "s390x", "domain": {"machine": {"type": "s390-ccw-virtio"}}}, False),
        ({"architecture": "ppc64le"}, False),
    ],
)
def test_supports_pcie_hotplug(spec: dict[str, Any], supported: bool) -> None:
    assert supports_pcie_hotplug(spec) is supported


def test_annotate_keeps_a_version_and_adds_no_metadata_where_unsupported() -> None:
    origin = named("test")
    kept: dict[str, Any] = {"metadata": {"annotations": {"kubevirt.io/pci-topology-version": "v2"}}}
    annotate(kept, {}, origin)
    assert kept["metadata"]["annotations"] == {"kubevirt.io/pci-topology-version": "v2"}
    untouched: dict[str, Any] = {}
    annotate(untouched, {"architecture": "s390x"}, origin)
    assert untouched == {}
