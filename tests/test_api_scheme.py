"""The kinds KubeVirt's client-go scheme decodes (ControllerRevision payloads)."""

from __future__ import annotations

import pytest

from kubectl_instancetype.api.scheme import is_registered


@pytest.mark.parametrize(
    ("api_version", "kind", "registered"),
    [
        ("instancetype.kubevirt.io/v1beta1", "VirtualMachineClusterPreference", True),
        ("instancetype.kubevirt.io/v1beta1", "VirtualMachineInstancetypeList", True),
        ("instancetype.kubevirt.io/v1beta1", "VirtualMachine", False),
        ("instancetype.kubevirt.io/v1alpha2", "VirtualMachineInstancetype", False),  # removed
        ("kubevirt.io/v1", "VirtualMachine", True),
        ("kubevirt.io/v1", "Foo", False),
        ("pool.kubevirt.io/v1beta1", "VirtualMachinePool", True),
        ("v1", "Status", True),
        ("v1", "Pod", False),
        ("apps/v1", "ControllerRevision", False),
    ],
)
def test_is_registered(api_version: str, kind: str, registered: bool) -> None:
    assert is_registered(api_version, kind) is registered
