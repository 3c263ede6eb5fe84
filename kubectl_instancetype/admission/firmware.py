"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def acpi(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def domain(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def launch_security(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
