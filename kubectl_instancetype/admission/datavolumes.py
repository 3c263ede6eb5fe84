"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def data_volume_templates(field: FieldPath, vm_spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def storage_admit(vm: Spec, namespace: str, cfg: ClusterConfig) -> list[Cause]:
    return []
