"""The ResourceQuota admission of Pods being created, one after another, in the API server's words.

``CheckRequest`` of ``staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go``: every
quota of the namespace whose scopes take the Pod and which tracks a resource pods use applies to it; a quota
that tracks cpu or memory refuses a Pod with a container that does not set it ("failed quota: …"), and a quota
whose ``hard`` the Pod would exceed refuses it ("exceeded quota: …"); otherwise the Pod's usage is added to
every such quota's ``used``. The quotas start with nothing used, so that only the Pods given are counted, or
from the ``status.used`` their manifests carry (a live namespace's, as ``kubectl get resourcequota -o yaml``
exports it). The quotas are tried in the order given
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
    status_used: Mapping[str, Quantity] | None = None  # status.used, when the manifest carries one



def resource_quota(data: Mapping[str, Any], namespace: str) -> ResourceQuota:
    """The ResourceQuota of a manifest (``namespace`` when it names none); QuotaError when it is not one the
    API server would store."""
    meta = data.get("metadata") or {}
    spec = data.get("spec") or {}
    if not isinstance(spec, dict) or not isinstance(meta, dict):
        raise QuotaError("metadata and spec must be objects")
    if not isinstance(spec.get("hard") or {}, dict):
        raise QuotaError("spec.hard must be an object")
    hard = _resources(spec.get("hard"), "spec.hard")
    status = data.get("status")
    used = _resources(status.get("used"), "status.used") if isinstance(status, dict) and "used" in status else None
    scopes = spec.get("scopes") or []
    expressions = (spec.get("scopeSelector") or {}).get("matchExpressions") or [] \
        if isinstance(spec.get("scopeSelector") or {}, dict) else None
    if not isinstance(scopes, list) or not isinstance(expressions, list):
        raise QuotaError("spec.scopes and spec.scopeSelector.matchExpressions must be lists")
    selectors: list[Mapping[str, Any]] = [{"scopeName": s, "operator": "Exists"} for s in scopes]
    selectors += expressions
    for selector in selectors:
        _check_selector(selector)
    return ResourceQuota(str(meta.get("namespace") or namespace), str(meta.get("name", "")), hard, tuple(selectors),
                         used)


def _resources(value: Any, where: str) -> dict[str, Quantity]:
    out: dict[str, Quantity] = {}
    for name, quantity in (value if isinstance(value, dict) else {}).items():
        try:
            out[str(name)] = from_json(quantity)
        except QuantityError as exc:
            raise QuotaError(f"{where}[{name}]: {exc.message}") from None
    return out


def _check_selector(selector: Any) -> None:
    if not isinstance(selector, dict):
        raise QuotaError("a scope selector must be an object")
    scope, operator = selector.get("scopeName"), selector.get("operator")
    if operator not in _OPERATORS:
        raise QuotaError(f"{operator!r} is not a valid scope selector operator")
    if scope in SCOPES and scope != "PriorityClass" and operator != "Exists":
        raise QuotaError(f"scope {scope}: the operator must be Exists")
    if not isinstance(selector.get("values") or [], list):
        raise QuotaError(f"scope {scope}: values must be a list")


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
    def of(cls, quotas: tuple[ResourceQuota, ...], from_status: bool = False) -> Ledger:
        """Nothing used yet: the quota controller's zero (``0``) for every hard resource; with ``from_status``,
        what each quota's ``status.used`` says is used (a live namespace's, exported with kubectl get)."""
        def start(quota: ResourceQuota) -> dict[str, Quantity]:
            used = (quota.status_used or {}) if from_status else {}
            return {name: used.get(name, ZERO) for name in quota.hard}

        return cls(quotas, tuple(start(q) for q in quotas))

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
