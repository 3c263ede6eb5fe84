"""KubeVirt's validating webhooks for instancetypes and preferences (spec §9.4).

``pkg/instancetype/webhooks/admitter.go`` checks both instancetype kinds and
``pkg/instancetype/preference/webhooks/admitter.go`` both preference kinds. A cause makes the cluster refuse
the object; warnings come back with an admitted object (KubeVirt sends them only when it admits).

We report a refusal as a finding (exit status 1, like a VirtualMachine KubeVirt would refuse): the input is
perfectly readable, KubeVirt just would not store it. The refused object is left out of the catalog, as a
cluster would not hold it.
"""

from __future__ import annotations

from typing import Any

from ..api.names import INSTANCETYPE_KINDS
from ..api.releases import DEFAULT, Release
from ..records import dataclass, field
from .spread import (
    CORES_THREADS,
    SOCKETS_CORES,
    SOCKETS_CORES_THREADS,
    TOPOLOGIES,
    TOPOLOGY_ALIASES,
    spread_options,
)

ACROSS = (CORES_THREADS, SOCKETS_CORES, SOCKETS_CORES_THREADS)
LAUNCH_SECURITY_WARNING = (
    "launchSecurity is deprecated and will be removed in a future release. Use preference instead."
)


@dataclass(frozen=True)
class Cause:
    """One reason KubeVirt refuses an object: the field path (``spec.…``) and KubeVirt's message."""

    field: str
    message: str

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.field.split("."))


@dataclass(frozen=True)
class Verdict:
    """The webhook's answer: refused when there are causes; warnings only for an admitted object."""

    causes: tuple[Cause, ...] = ()
    warnings: tuple[str, ...] = field(default=())


def admit(obj: dict[str, Any], release: Release = DEFAULT) -> Verdict:
    """What KubeVirt's webhook of ``release`` answers for a v1beta1 instancetype or preference (the
    ``launchSecurity`` deprecation warning from v1.9.0, which brought ``preferredLaunchSecurity``)."""
    spec = obj.get("spec") or {}
    if not isinstance(spec, dict):
        return Verdict()
    if obj.get("kind") in INSTANCETYPE_KINDS:
        warned = _instancetype_warnings(spec) if release.applies_preferred_launch_security else []
        return _verdict(_instancetype_causes(spec), warned)
    return _verdict(_preference_causes(spec), _preference_warnings(spec))


def _verdict(causes: list[Cause], warnings: list[str]) -> Verdict:
    return Verdict(tuple(causes)) if causes else Verdict((), tuple(warnings))


def _instancetype_causes(spec: dict[str, Any]) -> list[Cause]:
    memory = spec.get("memory") or {}
    percent = memory.get("overcommitPercent") if isinstance(memory, dict) else None
    if not isinstance(percent, int) or isinstance(percent, bool):
        return []
    where = "spec.memory.overcommitPercent"
    if not 0 <= percent <= 100:
        return [Cause(where, f"{where} '{percent}': must be in range between 0 and 100.")]
    if percent != 0 and memory.get("hugepages") is not None:
        return [Cause(where, f"{where} and spec.memory.hugepages should not be requested together.")]
    return []


def _instancetype_warnings(spec: dict[str, Any]) -> list[str]:
    return [LAUNCH_SECURITY_WARNING] if spec.get("launchSecurity") is not None else []


def _topology(spec: dict[str, Any]) -> Any:
    cpu = spec.get("cpu")
    return cpu.get("preferredCPUTopology") if isinstance(cpu, dict) else None


def _preference_causes(spec: dict[str, Any]) -> list[Cause]:
    topology = _topology(spec)
    if topology is None:
        return []
    if topology not in TOPOLOGIES and topology not in TOPOLOGY_ALIASES:
        return [Cause("spec.cpu.preferredCPUTopology", f"unknown preferredCPUTopology {topology}")]
    if TOPOLOGY_ALIASES.get(topology, topology) != "spread":
        return []
    ratio, across = spread_options(spec)
    if across not in ACROSS:
        return [Cause("spec.cpu.spreadOptions.across", f"across {across} is not supported")]
    if across == CORES_THREADS and ratio != 2:
        message = "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads"
        return [Cause("spec.cpu.spreadOptions.ratio", message)]
    return []


def _preference_warnings(spec: dict[str, Any]) -> list[str]:
    topology = _topology(spec)
    if topology not in TOPOLOGY_ALIASES:
        return []
    new = TOPOLOGY_ALIASES[topology]
    return [f"PreferredCPUTopology {topology} is deprecated for removal in a future release, please use {new} instead"]
