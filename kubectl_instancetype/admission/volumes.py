"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def volumes(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def container_disks(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def utility_volumes_on_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def access_credentials(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def persistent_reservation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def downward_metrics(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def virtiofs_filesystems(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def volume_disks(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
