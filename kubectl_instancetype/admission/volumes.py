"""The volume rules of the VMI spec, each with the rule signature and listed in :mod:`.vmi_spec` (or the VMI
webhook) where KubeVirt calls it; the checks themselves live in :mod:`.storage`."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec
from .storage import credentials, features, mapping
from .storage import disks as storage_disks
from .storage import volumes as storage_volumes
from .storage.spec import items
from .storage.spec import volumes as spec_volumes


def volumes(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateVolumes`` on ``spec.volumes``."""
    return storage_volumes.validate_volumes(field.child("volumes"), spec_volumes(spec), cfg)


def container_disks(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateContainerDisks``: container disk paths."""
    return storage_disks.container_disks(field, spec_volumes(spec))


def utility_volumes_on_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateUtilityVolumesNotPresentOnCreation`` (pkg/storage/admitters/storagehotplug.go): utility
    volumes come only by hotplug. An empty list never gets here: the VM mutating webhook replaces the spec with
    its Go encoding (and virt-controller creates the VMI from it), whose ``omitempty`` drops it."""
    if not spec.get("utilityVolumes"):
        return []
    return [field.child("utilityVolumes").cause(
        "cannot create VMI with utility volumes in spec, utility volumes can only be added via hotplug")]


def access_credentials(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateAccessCredentials`` on ``spec.accessCredentials``."""
    found = items(spec.get("accessCredentials"))
    if not found:
        return []
    return credentials.validate_access_credentials(field.child("accessCredentials"), found, spec_volumes(spec))


persistent_reservation = features.persistent_reservation
persistent_state = features.persistent_state
downward_metrics = features.downward_metrics
virtiofs_filesystems = features.virtiofs_filesystems
volume_disks = mapping.volume_disks
