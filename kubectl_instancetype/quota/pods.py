"""What a Pod counts against a ResourceQuota: the API server's quota evaluator for pods.

``pkg/quota/v1/evaluator/core/pods.go`` (usage, the cpu/memory constraint, scopes) over
``k8s.io/component-helpers/resource/helpers.go`` (``PodRequests``/``PodLimits``: the containers' sum, at least
the largest init container with the restartable ones before it, pod-level resources, plus the overhead) and
``pkg/apis/core/v1/defaults.go`` (a container's missing request defaults to its limit, before admission).
A Pod is the JSON object as it is created; its quantities are read as Go decodes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..quantity import Quantity, from_json, parse_quantity
from ..records import dataclass
from .resources import ResourceList, add, add_lists

POD_COUNT = "count/pods"
HUGEPAGES = "hugepages-"
REQUESTS = "requests."
# podResources: what a quota on pods can track besides hugepages and extended resources
POD_RESOURCES = (POD_COUNT, "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
                 "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods")
# validationSet: "it was a mistake, but if a quota tracks cpu or memory related resources, the incoming pod is
# required to have those values set" (pods.go)
MUST_SPECIFY = frozenset(("cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"))
SCOPES = ("Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass",
          "CrossNamespacePodAffinity")
_NAME = re.compile(r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?")
_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_ONE = parse_quantity("1")


@dataclass(frozen=True)
class Container:
    """One container's resources as the API server holds them after defaulting."""

    name: str
    requests: Mapping[str, Quantity]
    limits: Mapping[str, Quantity]
    restartable: bool = False  # an init container with restartPolicy Always (a sidecar)


def _resource_list(value: Any) -> dict[str, Quantity]:
    if not isinstance(value, dict):
        return {}
    return {str(name): from_json(quantity) for name, quantity in value.items() if quantity is not None}


def _container(raw: Any) -> Container:
    raw = raw if isinstance(raw, dict) else {}
    resources = raw.get("resources") or {}
    requests, limits = _resource_list(resources.get("requests")), _resource_list(resources.get("limits"))
    # SetDefaults_Pod: a limit without a request is also the request
    requests = {**{name: value for name, value in limits.items() if name not in requests}, **requests}
    return Container(str(raw.get("name", "")), requests, limits, raw.get("restartPolicy") == "Always")


def containers(pod: Mapping[str, Any]) -> tuple[tuple[Container, ...], tuple[Container, ...]]:
    """The Pod's containers and init containers, defaulted."""
    spec = pod.get("spec") or {}
    return (tuple(_container(c) for c in spec.get("containers") or ()),
            tuple(_container(c) for c in spec.get("initContainers") or ()))


def _max_into(target: dict[str, Quantity], values: ResourceList) -> None:
    for name, value in values.items():
        if name not in target or value.cmp(target[name]) > 0:
            target[name] = value


def _aggregate(pod: Mapping[str, Any], limits: bool) -> dict[str, Quantity]:
    """``aggregateContainerResourcesByFn``: the containers' sum, then at least each init container's need."""
    main, init = containers(pod)
    pick = (lambda c: c.limits) if limits else (lambda c: c.requests)
    result: dict[str, Quantity] = {}
    for container in main:
        result = add_lists(result, pick(container))
    sidecars: dict[str, Quantity] = {}
    peak: dict[str, Quantity] = {}
    for container in init:
        if container.restartable:
            result = add_lists(result, pick(container))
            sidecars = add_lists(sidecars, pick(container))
            need: ResourceList = sidecars
        else:
            need = add_lists(pick(container), sidecars)
        _max_into(peak, need)
    _max_into(result, peak)
    return result


def _supported_pod_level(name: str) -> bool:
    return name in ("cpu", "memory") or name.startswith(HUGEPAGES)


def _pod_level(pod: Mapping[str, Any], key: str) -> dict[str, Quantity]:
    resources = (pod.get("spec") or {}).get("resources") or {}
    return {n: q for n, q in _resource_list(resources.get(key)).items() if _supported_pod_level(n)}


def pod_requests(pod: Mapping[str, Any]) -> dict[str, Quantity]:
    """``PodRequests``: what the scheduler and the quota count, the overhead included."""
    requests = _aggregate(pod, False)
    requests.update(_pod_level(pod, "requests"))
    return add_lists(requests, _resource_list((pod.get("spec") or {}).get("overhead")))


def pod_limits(pod: Mapping[str, Any]) -> dict[str, Quantity]:
    """``PodLimits``: the containers' limits (pod-level ones instead where set), the overhead added to those
    that are set and not zero."""
    limits = _aggregate(pod, True)
    if _pod_level(pod, "requests") or _pod_level(pod, "limits"):  # IsPodLevelResourcesSet
        limits.update(_pod_level(pod, "limits"))
    for name, value in _resource_list((pod.get("spec") or {}).get("overhead")).items():
        if name in limits and not limits[name].is_zero():
            limits[name] = add(limits[name], value)
    return limits


def unbounded(pod: Mapping[str, Any]) -> tuple[str, ...]:
    """cpu and memory where a container that keeps running (a container, a sidecar) sets no limit: the Pod's
    limit (``PodLimits``, a sum of the limits that are set) does not bound it there."""
    main, init = containers(pod)
    running = (*main, *(c for c in init if c.restartable))
    return tuple(name for name in ("cpu", "memory") if any(name not in c.limits for c in running))


def _native(name: str) -> bool:
    """``helper.IsNativeResource``: no domain, or a kubernetes.io one."""
    return "/" not in name or "kubernetes.io/" in name


def _qualified(name: str) -> bool:
    """``validation.IsQualifiedName``: ``[prefix/]name``, a DNS subdomain prefix, a name of at most 63."""
    prefix, slash, last = name.rpartition("/")
    if slash and (not prefix or len(prefix) > 253 or not _SUBDOMAIN.fullmatch(prefix)):
        return False
    return 0 < len(last) <= 63 and _NAME.fullmatch(last) is not None


def is_extended(name: str) -> bool:
    """``helper.IsExtendedResourceName``: a device plugin's resource (``nvidia.com/gpu``,
    ``devices.kubevirt.io/kvm``), counted by a quota only as ``requests.<name>``."""
    return not _native(name) and not name.startswith(REQUESTS) and _qualified(REQUESTS + name)


def compute_usage(requests: ResourceList, limits: ResourceList) -> dict[str, Quantity]:
    """``podComputeUsageHelper``: the quota resources a set of requests and limits uses."""
    result: dict[str, Quantity] = {"pods": _ONE}
    for name in ("cpu", "memory", "ephemeral-storage"):
        if name in requests:
            result[name] = result[REQUESTS + name] = requests[name]
        if name in limits:
            result["limits." + name] = limits[name]
    for name, value in requests.items():
        if name.startswith(HUGEPAGES):
            result[name] = result[REQUESTS + name] = value
        if is_extended(name):
            result[REQUESTS + name] = value
    return result


def usage(pod: Mapping[str, Any]) -> dict[str, Quantity]:
    """``PodUsageFunc`` for a Pod being created: the object count and its compute usage."""
    return add_lists({POD_COUNT: _ONE}, compute_usage(pod_requests(pod), pod_limits(pod)))


def matching_resources(names: Iterable[str]) -> list[str]:
    """``MatchingResources``: the resources of a quota's ``hard`` that pods use."""
    return [name for name in names if name in POD_RESOURCES or name.startswith((HUGEPAGES, REQUESTS + HUGEPAGES))
            or (not _native(name) and name.startswith(REQUESTS))]


def missing(required: Iterable[str], pod: Mapping[str, Any]) -> str:
    """``Constraints``: "must specify …" when a container lacks a request or limit the quota tracks
    (cpu and memory only), else ""."""
    wanted = set(required) & MUST_SPECIFY
    lacking: dict[str, set[str]] = {}
    main, init = containers(pod)
    for container in (*main, *init):
        for name in wanted - set(compute_usage(container.requests, container.limits)):
            lacking.setdefault(name, set()).add(container.name)
    if not lacking:
        return ""
    return "must specify " + "; ".join(f"{name} for: {','.join(sorted(lacking[name]))}" for name in sorted(lacking))


def _best_effort(pod: Mapping[str, Any]) -> bool:
    """``qos.GetPodQOS(pod) == BestEffort``: no positive cpu or memory request or limit anywhere."""
    main, init = containers(pod)
    lists = [r for c in (*main, *init) for r in (c.requests, c.limits)]
    lists += [_pod_level(pod, "requests"), _pod_level(pod, "limits")]
    return not any(n in ("cpu", "memory") and q.sign() > 0 for values in lists for n, q in values.items())


def _terminating(pod: Mapping[str, Any]) -> bool:
    deadline = (pod.get("spec") or {}).get("activeDeadlineSeconds")
    return isinstance(deadline, int) and not isinstance(deadline, bool) and deadline >= 0


def _cross_namespace(pod: Mapping[str, Any]) -> bool:
    """``usesCrossNamespacePodAffinity``: a pod (anti-)affinity term with namespaces or a namespace selector."""
    affinity = _object((pod.get("spec") or {}).get("affinity"))
    for kind in ("podAffinity", "podAntiAffinity"):
        rules = _object(affinity.get(kind))
        terms = list(_items(rules.get("requiredDuringSchedulingIgnoredDuringExecution")))
        terms += [_object(_object(w).get("podAffinityTerm"))
                  for w in _items(rules.get("preferredDuringSchedulingIgnoredDuringExecution"))]
        if any(t.get("namespaces") or t.get("namespaceSelector") is not None for t in terms if isinstance(t, dict)):
            return True
    return False


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _priority_class(selector: Mapping[str, Any], pod: Mapping[str, Any]) -> bool:
    """The PriorityClass scope: a label selector over {PriorityClass: the pod's priorityClassName}."""
    name = str((pod.get("spec") or {}).get("priorityClassName") or "")
    operator, values = selector.get("operator"), [str(v) for v in selector.get("values") or ()]
    if operator == "Exists":
        return bool(name)
    if operator == "DoesNotExist":
        return not name
    if operator == "In":
        return bool(name) and name in values
    if operator == "NotIn":
        return not name or name not in values
    raise ValueError(f"{operator!r} is not a valid scope selector operator")


def matches_scope(selector: Mapping[str, Any], pod: Mapping[str, Any]) -> bool:
    """``podMatchesScopeFunc``: whether the pod is in one scope of a quota (an unknown scope: never)."""
    scope = selector.get("scopeName")
    if scope in ("Terminating", "NotTerminating"):
        return _terminating(pod) == (scope == "Terminating")
    if scope in ("BestEffort", "NotBestEffort"):
        return _best_effort(pod) == (scope == "BestEffort")
    if scope == "PriorityClass":
        return _priority_class(selector, pod)
    if scope == "CrossNamespacePodAffinity":
        return _cross_namespace(pod)
    return False
