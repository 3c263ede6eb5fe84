"""What the capacity report counts, taken from a render of the files: each VM with the launcher Pod it
renders to (or KubeVirt's error), the Pods written in the files as they are, and the ResourceQuotas.

The items come in file order, which is the order the VMs are taken to be created in. A LimitRange is named
in a notice: its defaults are not applied (LimitRanger's admission runs before quota admission in a cluster).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InputError, Notice, ToolError
from ..records import dataclass, field
from ..render import Item
from .model import Launcher, PlacedQuota, starts

POD = "Pod"
RESOURCE_QUOTA = "ResourceQuota"
LIMIT_RANGE = "LimitRange"


@dataclass(frozen=True)
class Counted:
    """Everything a capacity report is made from, and what reading it found."""

    launchers: tuple[Launcher, ...] = ()
    quotas: tuple[PlacedQuota, ...] = ()
    problems: tuple[ToolError, ...] = ()
    notices: tuple[Notice, ...] = field(default_factory=tuple)


def _core(data: Mapping[str, Any], kind: str) -> bool:
    return data.get("kind") == kind and data.get("apiVersion") == "v1"


def _launcher(item: Item, namespace: str) -> Launcher:
    data = item.document.data
    meta = data.get("metadata") or {}
    ns = str(meta.get("namespace") or namespace)
    if _core(data, POD):
        return Launcher(ns, str(meta.get("name") or meta.get("generateName") or ""), item.document.location, data,
                        kind=POD)
    label = f"{data.get('kind')} {ns}/{meta.get('name')}: "
    error = item.problem.message if item.problem is not None else ""
    pod = item.rendered if item.problem is None and isinstance(item.rendered, dict) else None
    return Launcher(ns, str(meta.get("name")), item.document.location, pod, error.removeprefix(label), starts(data),
                    str(data.get("kind")))


def counted(items: Iterable[Item], namespace: str) -> Counted:
    """The launchers, quotas and notices of ``items`` (a render whose VMs are rendered to their Pods)."""
    from ..quota.admission import QuotaError, resource_quota

    launchers: list[Launcher] = []
    quotas: list[PlacedQuota] = []
    problems: list[ToolError] = []
    notices: list[Notice] = []
    for item in items:
        data = item.document.data
        if item.is_vm or _core(data, POD):
            launchers.append(_launcher(item, namespace))
            if item.problem is not None:
                problems.append(item.problem)
        elif _core(data, RESOURCE_QUOTA):
            try:
                quotas.append(PlacedQuota(resource_quota(data, namespace), item.document.location))
            except QuotaError as exc:
                name = (data.get("metadata") or {}).get("name")
                problems.append(InputError(f"ResourceQuota {name}: {exc}", item.document.location))
        elif _core(data, LIMIT_RANGE):
            name = (data.get("metadata") or {}).get("name")
            notices.append(Notice(f"LimitRange {name}: its defaults are not applied to the Pods (the report counts "
                                  "the Pods as rendered)", item.document.location))
    return Counted(tuple(launchers), tuple(quotas), tuple(problems), tuple(notices))
