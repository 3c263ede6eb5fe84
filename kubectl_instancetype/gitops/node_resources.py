"""What a change does to the nodes: each VM's launcher Pod requests and limits (``PodRequests``/``PodLimits``:
CPU, memory with KubeVirt's overhead, hugepages, devices, ephemeral storage) before and after, and the total.

A VM that does not render on one side (added, removed, refused) counts as nothing there. Only the resources
that move are shown; ``diff`` puts this beside the expansions it compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..quantity import Quantity
from ..quota.pods import pod_limits, pod_requests
from ..quota.resources import ZERO, add_lists, subtract
from ..records import dataclass, field

KINDS = ("requests", "limits")


@dataclass(frozen=True)
class NodeResources:
    """One launcher Pod's node-level requests and limits."""

    requests: Mapping[str, Quantity] = field(default_factory=dict)
    limits: Mapping[str, Quantity] = field(default_factory=dict)


def of_pod(pod: Mapping[str, Any]) -> NodeResources:
    return NodeResources(pod_requests(pod), pod_limits(pod))


@dataclass(frozen=True)
class Move:
    """One resource of one kind (requests or limits) that changes: its value on each side ("" for none) and
    the difference."""

    kind: str
    resource: str
    before: str
    after: str
    delta: str

    def sentence(self) -> str:
        return f"{self.kind} {self.resource} {self.before or '-'} → {self.after or '-'} ({self.delta})"


def _signed(value: Quantity) -> str:
    text = str(value)
    return text if text.startswith("-") or value.is_zero() else f"+{text}"


def moves(before: NodeResources | None, after: NodeResources | None) -> list[Move]:
    """The resources whose request or limit differs between the two sides, requests first, by name."""
    out: list[Move] = []
    for kind in KINDS:
        old = getattr(before, kind) if before is not None else {}
        new = getattr(after, kind) if after is not None else {}
        for name in sorted(set(old) | set(new)):
            a, b = old.get(name), new.get(name)
            if a is not None and b is not None and a.cmp(b) == 0:
                continue
            delta = subtract(b if b is not None else ZERO, a if a is not None else ZERO)
            out.append(Move(kind, name, "" if a is None else str(a), "" if b is None else str(b), _signed(delta)))
    return out


def total(sides: Iterable[NodeResources | None]) -> NodeResources:
    """The sum of the Pods that render."""
    requests: dict[str, Quantity] = {}
    limits: dict[str, Quantity] = {}
    for side in sides:
        if side is not None:
            requests, limits = add_lists(requests, side.requests), add_lists(limits, side.limits)
    return NodeResources(requests, limits)


def as_json(resources: NodeResources | None) -> dict[str, dict[str, str]] | None:
    if resources is None:
        return None
    return {kind: {name: str(value) for name, value in sorted(getattr(resources, kind).items())} for kind in KINDS}
