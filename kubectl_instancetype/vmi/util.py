"""Helpers shared by the VMI steps: Go-style child allocation and the ``enabled: true`` default."""

from __future__ import annotations

from typing import Any

from ..expand.util import child, clone_json

__all__ = ["child", "clone_json", "enable"]


def enable(state: Any) -> None:
    """Default a present feature state to enabled (``SetDefaults_FeatureState``); absent stays absent."""
    if isinstance(state, dict) and state.get("enabled") is None:
        state["enabled"] = True
