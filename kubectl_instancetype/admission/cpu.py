"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def request_not_negative(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def limit_not_negative(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def request_not_over_limit(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def pinning(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def numa(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def isolate_emulator_thread(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def feature_policies(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def hotplug(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def realtime(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def live_update_cpu(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
