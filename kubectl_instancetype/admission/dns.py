"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def hostname(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def subdomain(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def dns_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def pod_dns_config(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
