"""The LimitRanger admission of a Pod being created, before quota admission sees it
(``plugin/pkg/admission/limitranger/admission.go``).

Each LimitRange of the namespace, as the API server stores it (``SetDefaults_LimitRangeItem``: a Container
item's ``max`` is its default limit where it sets none, its ``default`` or else its ``min`` the default request),
first gives every container and init container the default requests and limits it lacks; then its ``min``,
``max`` and ``maxLimitRequestRatio`` are checked per container (type Container) and for the whole Pod (type
Pod: ``PodRequests``/``PodLimits`` without the overhead). The first LimitRange a Pod breaks refuses it with every
broken constraint (Go visits them in map order: here by resource name).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from ..quantity import Quantity, from_json
from .pods import pod_limits, pod_requests
from .resources import ZERO

_MAX_MILLI = ((1 << 63) - 1) // 1000  # resource.MaxMilliValue
CONTAINER, POD = "Container", "Pod"


def _list(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def stored_items(limit_range: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The LimitRange's items as the API server stores them (``SetDefaults_LimitRangeItem``)."""
    out = []
    for raw in (limit_range.get("spec") or {}).get("limits") or ():
        item = copy.deepcopy(raw) if isinstance(raw, dict) else {}
        if item.get("type") == CONTAINER:
            default, request = _list(item.get("default")), _list(item.get("defaultRequest"))
            for name, value in _list(item.get("max")).items():
                default.setdefault(name, value)
            for name, value in default.items():
                request.setdefault(name, value)
            for name, value in _list(item.get("min")).items():
                request.setdefault(name, value)
            item["default"], item["defaultRequest"] = default, request
        out.append(item)
    return out


def defaulted(pod: Mapping[str, Any], limit_range: Mapping[str, Any]) -> dict[str, Any]:
    """``PodMutateLimitFunc``: the Pod with the LimitRange's default requests and limits in every container that
    lacks them (the last Container item's default of a resource wins)."""
    limits: dict[str, Any] = {}
    requests: dict[str, Any] = {}
    for item in stored_items(limit_range):
        if item.get("type") == CONTAINER:
            requests.update(item["defaultRequest"])
            limits.update(item["default"])
    out = copy.deepcopy(dict(pod))
    spec: dict[str, Any] = out["spec"] if isinstance(out.get("spec"), dict) else {}
    listed = [spec.get(key) for key in ("containers", "initContainers")]
    for container in (c for group in listed if isinstance(group, list) for c in group):
        if not isinstance(container, dict):
            continue
        if not isinstance(container.get("resources"), dict):
            container["resources"] = {}
        resources = container["resources"]
        for key, defaults in (("limits", limits), ("requests", requests)):
            present = resources.get(key) if isinstance(resources.get(key), dict) else {}
            merged = {**present, **{n: v for n, v in defaults.items() if n not in present}}
            if merged:
                resources[key] = merged
    return out


def _values(request: Quantity | None, limit: Quantity | None, enforced: Quantity) -> tuple[int, int, int]:
    """``requestLimitEnforcedValues``: the three at milli precision when that cannot overflow."""
    req, lim = request or ZERO, limit or ZERO
    if all(q.value() <= _MAX_MILLI for q in (req, lim, enforced)):
        return req.milli_value(), lim.milli_value(), enforced.milli_value()
    return req.value(), lim.value(), enforced.value()


def _min(kind: str, name: str, enforced: Quantity, requests: Mapping[str, Quantity],
         limits: Mapping[str, Quantity]) -> str:
    req, lim = requests.get(name), limits.get(name)
    observed_req, observed_lim, value = _values(req, lim, enforced)
    if req is None:
        return f"minimum {name} usage per {kind} is {enforced}.  No request is specified"
    if observed_req < value:
        return f"minimum {name} usage per {kind} is {enforced}, but request is {req}"
    if lim is not None and observed_lim < value:
        return f"minimum {name} usage per {kind} is {enforced}, but limit is {lim}"
    return ""


def _max(kind: str, name: str, enforced: Quantity, requests: Mapping[str, Quantity],
         limits: Mapping[str, Quantity]) -> str:
    req, lim = requests.get(name), limits.get(name)
    observed_req, observed_lim, value = _values(req, lim, enforced)
    if lim is None:
        return f"maximum {name} usage per {kind} is {enforced}.  No limit is specified"
    if observed_lim > value:
        return f"maximum {name} usage per {kind} is {enforced}, but limit is {lim}"
    if req is not None and observed_req > value:
        return f"maximum {name} usage per {kind} is {enforced}, but request is {req}"
    return ""


def _ratio(kind: str, name: str, enforced: Quantity, requests: Mapping[str, Quantity],
           limits: Mapping[str, Quantity]) -> str:
    req, lim = requests.get(name), limits.get(name)
    observed_req, observed_lim, _ = _values(req, lim, enforced)
    head = f"{name} max limit to request ratio per {kind} is {enforced}, but"
    if req is None or observed_req == 0:
        return f"{head} no request is specified or request is 0"
    if lim is None or observed_lim == 0:
        return f"{head} no limit is specified or limit is 0"
    ratio = observed_lim / observed_req
    shown, bound = ratio, float(enforced.value())
    if enforced.value() <= _MAX_MILLI:
        ratio, bound = ratio * 1000, float(enforced.milli_value())
    return f"{head} provided ratio is {shown:f}" if ratio > bound else ""


_CHECKS = (("min", _min), ("max", _max), ("maxLimitRequestRatio", _ratio))


def _broken(item: Mapping[str, Any], kind: str, requests: Mapping[str, Quantity],
            limits: Mapping[str, Quantity]) -> Iterable[str]:
    for key, check in _CHECKS:
        for name, value in sorted(_list(item.get(key)).items()):
            said = check(kind, str(name), from_json(value), requests, limits)
            if said:
                yield said


def violations(pod: Mapping[str, Any], limit_range: Mapping[str, Any]) -> str:
    """``PodValidateLimitFunc``: every constraint of the LimitRange the Pod breaks, as Go's aggregate error
    joins them ("" when none)."""
    from .pods import containers

    errors: list[str] = []
    main, init = containers(pod)
    for item in stored_items(limit_range):
        if item.get("type") == CONTAINER:
            for container in (*main, *init):
                errors.extend(_broken(item, CONTAINER, container.requests, container.limits))
        elif item.get("type") == POD:
            bare = {**pod, "spec": {k: v for k, v in (pod.get("spec") or {}).items() if k != "overhead"}}
            errors.extend(_broken(item, POD, pod_requests(bare), pod_limits(bare)))
    unique = list(dict.fromkeys(errors))
    return unique[0] if len(unique) == 1 else f"[{', '.join(unique)}]" if unique else ""


def admitted(pod: Mapping[str, Any], limit_ranges: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], str]:
    """The Pod after every LimitRange of its namespace defaulted it, and the first refusal ("" if none)."""
    ranges = list(limit_ranges)
    out = dict(pod)
    for limit_range in ranges:
        out = defaulted(out, limit_range)
    for limit_range in ranges:
        said = violations(out, limit_range)
        if said:
            return out, said
    return out, ""
