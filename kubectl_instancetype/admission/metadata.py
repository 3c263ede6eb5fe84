"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def vmi_metadata(field: FieldPath, metadata: Spec, cfg: ClusterConfig, kubevirt_service_account: bool) -> list[Cause]:
    return []


def grace_io_annotations(field: FieldPath, spec: Spec, annotations: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
