"""The proof of a suggestion: the rewritten VM rendered, compared with the original VM expanded the same way.

A VM without matchers comes back from KubeVirt's expand unchanged, with no defaults at all, while the
rewritten VM gets expand's defaults (pkg/instancetype/expand/expand.go: default disks and pod network before
the appliers, cluster defaults after). To compare like with like, the original is expanded as if it named
an instancetype and preference that set nothing: the same defaults, in the same order, then the same VM
stages (the mutating and validating webhooks) and encoding as ``render``.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child, clone_json
from ..catalog import Catalog
from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..expand.defaults import cluster_defaults, default_pod_network, default_volume_disks
from ..pipeline.vm_validating_webhook import INTERFACES
from ..quantity import canonical
from ..records import dataclass
from ..render import default_vm_renderer
from .tree import Difference, differences

Spec = dict[str, Any]
TOPOLOGY = ("sockets", "cores", "threads")


@dataclass(frozen=True)
class Scope:
    """Where the VMs are rendered: the default namespace, the catalog and the cluster configuration."""

    namespace: str
    catalog: Catalog
    config: ClusterConfig

    def namespace_of(self, vm: Spec) -> str:
        return str((vm.get("metadata") or {}).get("namespace") or self.namespace)

    def render(self, vm: Spec) -> Spec:
        """``vm`` as ``render`` prints it; KubeVirtError when KubeVirt refuses it."""
        return default_vm_renderer(vm, self.namespace_of(vm), self.catalog, self.config)

    def compare(self, baseline: Spec, rendered: Spec) -> tuple[Difference, ...]:
        """:func:`compare` under this cluster configuration."""
        return compare(baseline, rendered, self.config.memory_overcommit)

    def attempt(self, vm: Spec) -> Spec | None:
        """``vm`` rendered, or None when KubeVirt refuses it (a candidate that does not work)."""
        try:
            return self.render(vm)
        except KubeVirtError:
            return None

    def baseline(self, vm: Spec) -> Spec:
        """The original ``vm`` expanded the way its rewritten form will be; KubeVirtError when refused."""
        copy = clone_json(vm)
        template = child(child(copy, "spec"), "template")
        child(template, "metadata")  # expand creates the template's metadata
        spec = child(template, "spec")
        default_volume_disks(spec)
        problem = default_pod_network(self.config, spec)
        if problem is not None:
            raise KubeVirtError(problem, "expand", field=INTERFACES)
        cluster_defaults(self.config, spec)
        return self.render(copy)


def compare(baseline: Spec, rendered: Spec, overcommit: int = 100) -> tuple[Difference, ...]:
    """Every value where the rewritten VM's render differs from the original's, CPU topology counts and
    memory read as KubeVirt reads them (:func:`counted`, :func:`memory_read`; ``overcommit``: the cluster's
    memoryOvercommit)."""
    requested = any(_memory(vm)[1] is not None for vm in (baseline, rendered))
    return tuple(differences(memory_read(counted(baseline), overcommit, requested),
                             memory_read(counted(rendered), overcommit, requested)))


def _memory(vm: Spec) -> tuple[Any, Any, Any]:
    """The guest memory, the memory request and the memory limit a VM spells out (None: left out)."""
    domain = (((vm.get("spec") or {}).get("template") or {}).get("spec") or {}).get("domain") or {}
    resources = domain.get("resources") or {}
    return ((domain.get("memory") or {}).get("guest"), (resources.get("requests") or {}).get("memory"),
            (resources.get("limits") or {}).get("memory"))


def memory_read(vm: Spec, overcommit: int, requested: bool = True) -> Spec:
    """``vm`` with its guest memory (and, when ``requested``, its memory request) spelled out as the VMI
    mutating webhook settles them.

    A guest size left out is the memory request (or limit), and a request left out is the guest size
    (``setGuestMemory``/``setMemoryRequest``, pkg/virt-api/webhooks/mutating-webhook/mutators): a VM sized
    by ``resources.requests.memory: 4Gi`` and one naming an instancetype with ``memory.guest: 4Gi`` start
    the same guest with the same request. Only without overcommit: with it the request is scaled down. The
    request is spelled out only when one side sets one, so that a guest size that differs is said once.
    """
    guest, request, limit = _memory(vm)
    size = guest or request or limit
    if overcommit != 100 or size is None or (guest is not None and (request is not None or not requested)):
        return vm
    out = clone_json(vm)
    domain = out["spec"]["template"]["spec"]["domain"]
    child(domain, "memory")["guest"] = _canonical(guest or size)
    if requested:
        child(child(domain, "resources"), "requests")["memory"] = _canonical(request or size)
    return out


def _canonical(value: Any) -> Any:
    try:
        return canonical(value)
    except (TypeError, ValueError):
        return value


def counted(vm: Spec) -> Spec:
    """``vm`` with each CPU topology count it leaves out (or zero) spelled out as 1, when it gives any.

    virt-launcher reads a count left out as 1 (``GetCPUTopology``, pkg/virt-launcher/virtwrap/converter),
    so ``cores: 2`` and ``sockets: 1, cores: 2, threads: 1`` are the same guest; an instancetype always
    spells all three out.
    """
    cpu = (((vm.get("spec") or {}).get("template") or {}).get("spec") or {}).get("domain", {}).get("cpu")
    if not isinstance(cpu, dict) or not any(cpu.get(key) for key in TOPOLOGY):
        return vm
    out = clone_json(vm)
    counts = out["spec"]["template"]["spec"]["domain"]["cpu"]
    for key in TOPOLOGY:
        if not counts.get(key):
            counts[key] = 1
    return out
