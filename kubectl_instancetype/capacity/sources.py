"""What the capacity report counts, taken from a render of the files: each VM with the launcher Pod it
renders to (or KubeVirt's error), the Pods written in the files as they are, and the ResourceQuotas.

The items come in file order, which is the order the VMs are taken to be created in. Each Pod goes through
the admission plugins that run before quota admission and change what it counts or refuse it: LimitRanger
(the namespace's LimitRanges' defaults, min and max) and RuntimeClass (the overhead).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InputError, Notice, ToolError
from ..quantity import QuantityError, from_json
from ..quota.limitranger import admitted as limit_ranged
from ..quota.limitranger import stored_items
from ..quota.pods import pod_limits, pod_requests, unbounded
from ..quota.podvalidation import invalid
from ..quota.runtimeclass import admitted
from ..records import dataclass, field, replace
from ..render import Item
from .model import Launcher, PlacedQuota, starts

POD = "Pod"
VIRTUAL_MACHINE = "VirtualMachine"
RESOURCE_QUOTA = "ResourceQuota"
LIMIT_RANGE = "LimitRange"
RUNTIME_CLASS = "RuntimeClass"


@dataclass(frozen=True)
class Counted:
    """Everything a capacity report is made from, and what reading it found."""

    launchers: tuple[Launcher, ...] = ()
    quotas: tuple[PlacedQuota, ...] = ()
    problems: tuple[ToolError, ...] = ()
    notices: tuple[Notice, ...] = field(default_factory=tuple)


def _core(data: Mapping[str, Any], kind: str) -> bool:
    return data.get("kind") == kind and data.get("apiVersion") == "v1"


def _launchers(item: Item, namespace: str) -> list[Launcher]:
    """The Pod of the files, or the VM with its Pod; a VirtualMachinePool's VMs, one for each replica."""
    data = item.document.data
    meta = data.get("metadata") or {}
    ns = str(meta.get("namespace") or namespace)
    where = item.document.location
    if _core(data, POD):
        return [Launcher(ns, str(meta.get("name") or meta.get("generateName") or ""), where, data, kind=POD)]
    kind, name = str(data.get("kind")), str(meta.get("name"))
    error = item.problem.message.removeprefix(f"{kind} {ns}/{name}: ") if item.problem is not None else ""
    pod = item.rendered if item.problem is None and isinstance(item.rendered, dict) else None
    if kind == VIRTUAL_MACHINE:
        return [Launcher(ns, name, where, pod, error, starts(data), kind)]
    spec = data.get("spec") or {}
    replicas = spec.get("replicas", 1)  # a pool's VMs are <pool>-0, <pool>-1, ...: its first VM's Pod each
    vm = spec.get("virtualMachineTemplate") or {}
    count = replicas if isinstance(replicas, int) and not isinstance(replicas, bool) and replicas >= 0 else 1
    return [Launcher(ns, f"{name}-{index}", where, pod, error, starts(vm), kind) for index in range(count)]


def counted(items: Iterable[Item], namespace: str) -> Counted:
    """The launchers, quotas and notices of ``items`` (a render whose VMs are rendered to their Pods); each
    Pod as the admission plugins before quota admission leave it (LimitRanger, RuntimeClass), or refused."""
    from ..quota.admission import QuotaError, resource_quota

    launchers: list[Launcher] = []
    quotas: list[PlacedQuota] = []
    classes: dict[str, Mapping[str, Any]] = {}
    ranges: dict[str, list[Mapping[str, Any]]] = {}
    problems: list[ToolError] = []
    notices: list[Notice] = []
    for item in items:
        data = item.document.data
        name = (data.get("metadata") or {}).get("name")
        if item.is_vm or _core(data, POD):
            found = _launchers(item, namespace)
            said = _unreadable(data) if _core(data, POD) else ""
            if said:
                found = [replace(launcher, pod=None, error=said) for launcher in found]
                problems.append(InputError(f"Pod {found[0].namespace}/{found[0].name}: {said}", item.document.location))
            launchers.extend(found)
            if item.problem is not None:
                problems.append(item.problem)
        elif _core(data, RESOURCE_QUOTA):
            try:
                quotas.append(PlacedQuota(resource_quota(data, namespace), item.document.location))
            except QuotaError as exc:
                problems.append(InputError(f"ResourceQuota {name}: {exc}", item.document.location))
        elif _core(data, LIMIT_RANGE):
            said = _unreadable_range(data)
            if said:
                problems.append(InputError(f"LimitRange {name}: {said}", item.document.location))
            else:
                ranges.setdefault(str((data.get("metadata") or {}).get("namespace") or namespace), []).append(data)
        elif data.get("kind") == RUNTIME_CLASS and data.get("apiVersion") == "node.k8s.io/v1":
            said = _unreadable_class(data)
            if said:
                problems.append(InputError(f"RuntimeClass {name}: {said}", item.document.location))
            else:
                classes[str(name)] = data
    placed = [_runtime_class(_limit_ranges(launcher, ranges.get(launcher.namespace, [])), classes, notices)
              for launcher in launchers]
    return Counted(tuple(placed), tuple(quotas), tuple(problems), tuple(notices))


def _unreadable(pod: Mapping[str, Any]) -> str:
    """Why the API server could not decode the resources of a Pod of the files ("" when it can)."""
    shape = _pod_shape(pod)
    if shape:
        return shape
    try:
        pod_requests(pod)
        pod_limits(pod)
        unbounded(pod)
    except QuantityError as exc:
        return f"resources: {exc.message}"
    except (TypeError, AttributeError, ValueError) as exc:
        return f"resources cannot be read ({type(exc).__name__}: {exc})"
    return ""


def _pod_shape(pod: Mapping[str, Any]) -> str:
    """The first part of the Pod's spec that is not of the type the API expects ("" when none)."""
    spec = pod.get("spec")
    if not isinstance(spec, dict):
        return "spec must be an object"
    for key in ("containers", "initContainers"):
        group = spec.get(key, [])
        if not isinstance(group, list) or not all(isinstance(c, dict) for c in group):
            return f"spec.{key} must be a list of objects"
        for index, container in enumerate(group):
            resources = container.get("resources", {})
            if not isinstance(resources, dict) or not all(
                    isinstance(resources.get(part, {}), dict) for part in ("requests", "limits")):
                return f"spec.{key}[{index}].resources: requests and limits must be objects"
    for key in ("overhead", "resources"):
        if not isinstance(spec.get(key, {}), dict):
            return f"spec.{key} must be an object"
    return ""


def _unreadable_range(limit_range: Mapping[str, Any]) -> str:
    """Why the API server could not store a LimitRange of the files ("" when it can)."""
    try:
        for item in stored_items(limit_range):
            for key in ("min", "max", "default", "defaultRequest", "maxLimitRequestRatio"):
                for value in (item.get(key) or {}).values():
                    from_json(value)
    except QuantityError as exc:
        return f"spec.limits: {exc.message}"
    except (TypeError, AttributeError, ValueError) as exc:
        return f"spec.limits cannot be read ({type(exc).__name__}: {exc})"
    return ""


def _unreadable_class(runtime_class: Mapping[str, Any]) -> str:
    """Why the API server could not store a RuntimeClass of the files ("" when it can)."""
    overhead = runtime_class.get("overhead")
    fixed = overhead.get("podFixed") if isinstance(overhead, dict) else None
    if (overhead is not None and not isinstance(overhead, dict)) or (fixed is not None and not isinstance(fixed, dict)):
        return "overhead.podFixed must be an object"
    try:
        for value in (fixed or {}).values():
            from_json(value)
    except QuantityError as exc:
        return f"overhead.podFixed: {exc.message}"
    return ""


def _limit_ranges(launcher: Launcher, ranges: list[Mapping[str, Any]]) -> Launcher:
    """``launcher`` with its Pod through LimitRanger admission: the namespace's LimitRanges' defaults, then the
    Pod's validation (a request above its limit: a default limit can cause it), then the first LimitRange it
    breaks refusing it."""
    if launcher.pod is None:
        return launcher
    pod, refusal = limit_ranged(launcher.pod, ranges) if ranges else (dict(launcher.pod), "")
    refused = invalid(pod) or refusal
    return replace(launcher, pod=pod, refused=refused) if ranges or refused else launcher


def _runtime_class(launcher: Launcher, classes: Mapping[str, Mapping[str, Any]], notices: list[Notice]) -> Launcher:
    """``launcher`` with its Pod through RuntimeClass admission (which may refuse it)."""
    if launcher.pod is None or launcher.refused:
        return launcher
    wanted = (launcher.pod.get("spec") or {}).get("runtimeClassName")
    if not wanted:
        return launcher
    found = classes.get(str(wanted))
    if found is None:
        said = f"RuntimeClass {wanted!r} is not in the files: the overhead it may set is not counted"
        if not any(n.message == said for n in notices):
            notices.append(Notice(said, launcher.location))
        return launcher
    pod, refusal = admitted(launcher.pod, found)
    return replace(launcher, refused=refusal) if refusal else replace(launcher, pod=pod)
