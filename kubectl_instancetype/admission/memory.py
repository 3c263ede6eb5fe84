"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def requests_not_negative_or_null(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def limits_not_negative_or_null(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def hugepages_requests(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def guest_limit(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def reserved_overhead_memlock(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def mandatory_fields(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def live_update_memory(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
