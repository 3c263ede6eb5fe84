"""The disk checks the webhooks call: ``ValidateDisks`` (pkg/storage/admitters/disks.go), run by
``validateDomainSpec`` in ``ValidateVirtualMachineInstanceSpec`` and again by SIG-Storage's VMI validator."""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec
from .storage import disks as storage_disks
from .storage.spec import disks as disks_of
from .storage.spec import items


def validate_disks(field: FieldPath, disks: list[Any]) -> list[Cause]:
    """``ValidateDisks`` of ``disks`` at ``field`` (``….domain.devices.disks``)."""
    return storage_disks.validate_disks(field, items(disks))


def domain_disks(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """The first check of ``validateDomainSpec``: ``ValidateDisks`` on ``spec.domain.devices.disks``. Listed in
    :mod:`.vmi_spec` just before :func:`.firmware.domain`, which checks the rest of the domain."""
    return validate_disks(field.child("domain", "devices", "disks"), disks_of(spec))
