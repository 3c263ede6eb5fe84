"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def start_strategy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def affinity(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def topology_spread_constraints(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def probes(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def live_migration(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def reboot_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def service_account_name(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
