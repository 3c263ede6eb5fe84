"""The disk checks the webhooks call: ``ValidateDisks`` (pkg/storage/admitters/disks.go), run by
``validateDomainSpec`` (:func:`.firmware.domain`) in ``ValidateVirtualMachineInstanceSpec`` and again by
SIG-Storage's VMI validator (:func:`.vmi.storage_validate`)."""

from __future__ import annotations

from typing import Any

from ..config import DEFAULT_CONFIG, ClusterConfig
from .cause import Cause, FieldPath
from .storage import disks as storage_disks
from .storage.spec import items


def validate_disks(field: FieldPath, disks: list[Any], cfg: ClusterConfig = DEFAULT_CONFIG) -> list[Cause]:
    """``ValidateDisks`` of ``disks`` at ``field`` (``….domain.devices.disks``), as the cluster's release has it."""
    return storage_disks.validate_disks(field, items(disks), cfg.release)

