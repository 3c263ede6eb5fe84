"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath, Spec


def validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def dra_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def validate_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def vmi_spec_validators(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
