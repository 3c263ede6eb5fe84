"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def emulated_machine(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def per_arch(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def hyperv(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
