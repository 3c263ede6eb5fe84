"""The VirtualMachinePool validating webhook on create, before the pool controller makes any VM
(:mod:`..admission.pool`). Its refusal points into the pool itself (stage ``pool-admit``)."""

from __future__ import annotations

from typing import Any

from ..admission.pool import admit_create
from ..config import ClusterConfig
from .vm_validating_webhook import refusal

STAGE = "pool-admit"


def admit_pool(pool: dict[str, Any], cfg: ClusterConfig, warnings: list[str] | None) -> None:
    """Nothing when KubeVirt admits ``pool`` (its warnings go to ``warnings``), else its refusal."""
    verdict = admit_create(pool, cfg)
    if verdict.causes:
        raise refusal(verdict.causes, STAGE)
    if warnings is not None:
        warnings.extend(verdict.warnings)
