"""The virt-launcher Pod virt-controller creates for a VMI, offline: the stage after the VMI controller.

KubeVirt's TemplateService (``pkg/virt-controller/services``) mirrored one part per module: ``overhead``
(the memory overhead), ``resources`` (the compute container's requests and limits), ``containers`` and
``sidecars``, ``volumes``, ``placement`` (node selector, affinity), ``metadata`` (labels, annotations),
``pod`` (``RenderLaunchManifest``), ``prerender`` (the VMI controller's steps before it: TSC topology hints,
the backend-storage claim), ``cluster`` (the cluster objects read from the files), ``settings`` (what it reads
of the KubeVirt CR).

The interface other code uses (stable):

``render_pod(vmi, cluster, cfg, image) -> PodResult``
    ``vmi``: the VirtualMachineInstance as the API server stores it (``pipeline.stages.render_vmi``);
    ``cluster``: :class:`Cluster` (``gather(objects)`` over the input documents); ``cfg``: the
    ``ClusterConfig`` (release included); ``image``: virt-controller's ``--launcher-image``
    (:func:`default_launcher_image`).

``PodResult`` (frozen): ``pod`` (the Pod as JSON, or None), ``error`` (KubeVirt's message, e.g.
``failed to render launch manifest: didn't find PVC data``, or None), ``resources`` (:class:`PodResources`,
None on error), ``overhead`` (:class:`Overhead`: the memory overhead and its parts), ``reason`` (with an
error, which cluster objects decided it: "claim", "network", "binding", "storage-class", "other").

``PodResources`` (frozen): ``requests`` and ``limits``: resource name -> Quantity, what the scheduler and a
ResourceQuota count for the Pod (Kubernetes' ``PodRequests``/``PodLimits``: the containers summed, sidecar
init containers added, the largest regular init container as a floor); ``containers``: each container's
(name, kind "container"/"init"/"sidecar", requests, limits); ``origins``: (requests|limits, resource, why) of
the compute container's values; ``limited(resource)``: whether every container sets a limit for it.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..quantity import Quantity, from_json
from ..records import dataclass
from .arith import add
from .cluster import EMPTY, Cluster, gather, with_vm_datavolumes
from .overhead import Overhead, memory_overhead
from .pod import render_manifest
from .prerender import PrerenderError, backend_claim, with_topology_hints
from .volumes import RenderError

Spec = dict[str, Any]
FAILED = "failed to render launch manifest: "
DEFAULT_REGISTRY = "quay.io/kubevirt"

__all__ = ["EMPTY", "Cluster", "ContainerResources", "Overhead", "PodResources", "PodResult", "default_launcher_image",
           "gather", "render_pod", "with_vm_datavolumes"]


@dataclass(frozen=True)
class ContainerResources:
    name: str
    kind: str  # "container", "init" or "sidecar" (an init container with restartPolicy Always)
    requests: dict[str, Quantity]
    limits: dict[str, Quantity]


@dataclass(frozen=True)
class PodResources:
    """The Pod's requests and limits per resource name (cpu, memory, hugepages-*, devices, ephemeral-storage)."""

    requests: dict[str, Quantity]
    limits: dict[str, Quantity]
    containers: tuple[ContainerResources, ...]
    origins: tuple[tuple[str, str, str], ...] = ()

    def limited(self, resource: str) -> bool:
        """Whether every container (init containers included) sets a limit for ``resource``."""
        return all(resource in c.limits for c in self.containers)


@dataclass(frozen=True)
class PodResult:
    pod: Spec | None
    error: str | None = None
    resources: PodResources | None = None
    overhead: Overhead | None = None
    reason: str = ""  # with an error: which cluster objects decided it ("claim", "network", "binding",
    #                   "storage-class", "other")


def default_launcher_image(release_tag: str, registry: str = DEFAULT_REGISTRY) -> str:
    """What virt-operator passes as ``--launcher-image``: ``<registry>/virt-launcher:<release>``."""
    return f"{registry.rstrip('/')}/virt-launcher:{release_tag}"


def render_pod(vmi: Spec, cluster: Cluster, cfg: ClusterConfig, image: str, seed: int | None = None,
               summary: bool = True) -> PodResult:
    """The launcher Pod of ``vmi`` (``seed``: draw the ``--qemu-timeout`` jitter; None writes 240s; without
    ``summary``, ``resources`` holds the compute container's origins alone: no Pod totals are computed)."""
    try:
        vmi = with_topology_hints(vmi, cfg, cluster)
        claim = backend_claim(vmi, cfg, cluster)
    except PrerenderError as exc:
        return PodResult(None, str(exc), reason=exc.reason)
    overhead = memory_overhead(vmi, cfg)
    try:
        pod, requirements = render_manifest(vmi, cfg, cluster, image, overhead, claim, seed)
    except RenderError as exc:
        return PodResult(None, FAILED + str(exc), overhead=overhead, reason=exc.reason)
    resources = summarize(pod, requirements.origins) if summary else PodResources({}, {}, (), requirements.origins)
    return PodResult(pod, None, resources, overhead)


def _quantities(values: Any) -> dict[str, Quantity]:
    out = {}
    for name, value in (values or {}).items():
        out[str(name)] = from_json(value)
    return out


def summarize(pod: Spec, origins: tuple[tuple[str, str, str], ...] = ()) -> PodResources:
    """Kubernetes' effective requests and limits of ``pod`` (``resourcehelper.PodRequests``)."""
    spec = pod.get("spec") or {}
    listed: list[ContainerResources] = []
    for c in spec.get("initContainers") or ():
        kind = "sidecar" if c.get("restartPolicy") == "Always" else "init"
        res = c.get("resources") or {}
        listed.append(ContainerResources(c.get("name", ""), kind, _quantities(res.get("requests")),
                                         _quantities(res.get("limits"))))
    for c in spec.get("containers") or ():
        res = c.get("resources") or {}
        listed.append(ContainerResources(c.get("name", ""), "container", _quantities(res.get("requests")),
                                         _quantities(res.get("limits"))))
    return PodResources(_effective(listed, "requests"), _effective(listed, "limits"), tuple(listed), origins)


def _effective(listed: list[ContainerResources], which: str) -> dict[str, Quantity]:
    total: dict[str, Quantity] = {}
    for c in listed:
        if c.kind == "container":
            _sum_into(total, getattr(c, which))
    sidecars: dict[str, Quantity] = {}
    init_floor: dict[str, Quantity] = {}
    for c in listed:
        if c.kind == "sidecar":
            _sum_into(total, getattr(c, which))
            _sum_into(sidecars, getattr(c, which))
        elif c.kind == "init":
            need = dict(getattr(c, which))
            _sum_into(need, sidecars)
            for name, q in need.items():
                if name not in init_floor or q.cmp(init_floor[name]) > 0:
                    init_floor[name] = q
    for name, q in init_floor.items():
        if name not in total or q.cmp(total[name]) > 0:
            total[name] = q
    return total


def _sum_into(target: dict[str, Quantity], values: dict[str, Quantity]) -> None:
    for name, q in values.items():
        target[name] = add(target[name], q) if name in target else q
