"""The ResourceQuota admission of Pods being created, one after another, in the API server's words.

``CheckRequest`` of ``staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go``: every
quota of the namespace whose scopes take the Pod and which tracks a resource pods use applies to it; a quota
that tracks cpu or memory refuses a Pod with a container that does not set it ("failed quota: …"), and a quota
whose ``hard`` the Pod would exceed refuses it ("exceeded quota: …"); otherwise the Pod's usage is added to
every such quota's ``used``. The quotas start with nothing used: only the Pods given are counted (the quota
controller's ``used`` of a live namespace is not known offline). The quotas are tried in the order given
(the API server takes them in the order its cache lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..quantity import Quantity, QuantityError, from_json
from ..records import dataclass
from .pods import SCOPES, matches_scope, matching_resources, missing, usage
from .resources import ZERO, add_lists, exceeded, mask, pretty, remove_zeros

_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


class QuotaError(ValueError):
    """A ResourceQuota the API server would not have stored, so admission never sees it."""


@dataclass(frozen=True)
class ResourceQuota:
    """One ResourceQuota: its hard limits and scope selectors (``spec.scopes`` as ``Exists`` first)."""

    namespace: str
    name: str
    hard: Mapping[str, Quantity]
    selectors: tuple[Mapping[str, Any], ...] = ()


def resource_quota(data: Mapping[str, Any], namespace: str) -> ResourceQuota:
    """The ResourceQuota of a manifest (``namespace`` when it names none); QuotaError when it is not one the
    API server would store."""
    meta = data.get("metadata") or {}
    spec = data.get("spec") or {}
    if not isinstance(spec, dict) or not isinstance(meta, dict):
        raise QuotaError("metadata and spec must be objects")
    hard: dict[str, Quantity] = {}
    for name, value in (spec.get("hard") or {}).items():
        try:
            hard[str(name)] = from_json(value)
        except QuantityError as exc:
            raise QuotaError(f"spec.hard[{name}]: {exc.message}") from None
    selectors: list[Mapping[str, Any]] = [{"scopeName": s, "operator": "Exists"} for s in spec.get("scopes") or ()]
    selectors += list((spec.get("scopeSelector") or {}).get("matchExpressions") or ())
    for selector in selectors:
        _check_selector(selector)
    return ResourceQuota(str(meta.get("namespace") or namespace), str(meta.get("name", "")), hard, tuple(selectors))


def _check_selector(selector: Any) -> None:
    if not isinstance(selector, dict):
        raise QuotaError("a scope selector must be an object")
    scope, operator = selector.get("scopeName"), selector.get("operator")
    if operator not in _OPERATORS:
        raise QuotaError(f"{operator!r} is not a valid scope selector operator")
    if scope in SCOPES and scope != "PriorityClass" and operator != "Exists":
        raise QuotaError(f"scope {scope}: the operator must be Exists")


@dataclass(frozen=True)
class Verdict:
    """What quota admission answers one Pod: ``reason`` is empty when it is admitted, else the API server's
    (``exceeded quota: …``, ``failed quota: …``) and ``quota`` the name of the quota that refuses it."""

    reason: str = ""
    quota: str = ""

    @property
    def admitted(self) -> bool:
        return not self.reason


@dataclass(frozen=True)
class Ledger:
    """The quotas of one namespace with what the admitted Pods use of each, in the order they are tried."""

    quotas: tuple[ResourceQuota, ...] = ()
    used: tuple[Mapping[str, Quantity], ...] = ()

    @classmethod
    def of(cls, quotas: tuple[ResourceQuota, ...]) -> Ledger:
        """Nothing used yet: the quota controller's zero (``0``) for every hard resource."""
        return cls(quotas, tuple({name: ZERO for name in q.hard} for q in quotas))

    def admit(self, pod: Mapping[str, Any]) -> tuple[Verdict, Ledger]:
        """The verdict on creating ``pod``, and the ledger after it (unchanged when it is refused)."""
        interesting: list[int] = []
        for index, quota in enumerate(self.quotas):
            try:
                scoped = all(matches_scope(selector, pod) for selector in quota.selectors)
            except ValueError as exc:
                return Verdict(f"error matching scopes of quota {quota.name}, err: {exc}", quota.name), self
            restricted = matching_resources(quota.hard)
            if not (scoped and restricted):
                continue
            lacking = missing(restricted, pod)
            if lacking:
                return Verdict(f"failed quota: {quota.name}: {lacking}", quota.name), self
            interesting.append(index)
        measured = usage(pod)
        negative = sorted(name for name, value in measured.items() if value.sign() < 0)
        if negative:
            return Verdict(f"quota usage is negative for resource(s): {','.join(negative)}"), self
        delta = remove_zeros(measured)
        used = list(self.used)
        for index in interesting if delta else ():
            quota = self.quotas[index]
            requested = mask(delta, quota.hard)
            grown = add_lists(used[index], requested)
            over = exceeded(mask(grown, requested), quota.hard)
            if over:
                reason = (f"exceeded quota: {quota.name}, requested: {pretty(mask(requested, over))}, "
                          f"used: {pretty(mask(used[index], over))}, limited: {pretty(mask(quota.hard, over))}")
                return Verdict(reason, quota.name), self
            used[index] = grown
        return Verdict(), Ledger(self.quotas, tuple(used))
