"""PLACEHOLDER: filled by the area's port of KubeVirt's rules."""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec


def boot_order(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def input_devices(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def io_threads_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def mdev_ramfb(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def host_devices_passthrough(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def grace_io_virtualization(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def sound(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def vsock(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def video_config(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []


def panic_devices(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    return []
