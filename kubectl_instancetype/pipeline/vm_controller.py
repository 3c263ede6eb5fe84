"""virt-controller's instance type sync of a VirtualMachine, before it starts one
(``Sync`` in pkg/instancetype/controller/vm/controller.go, called from ``sync`` in
pkg/virt-controller/watch/vm/vm.go).

It first checks that the referenced objects exist (the lookup error stops the sync, stage ``controller``).
Under the cluster's ``instancetype.referencePolicy`` ``expand`` or ``expandAll`` it then expands the VM
(``Expand``, as ``virtctl expand`` does) and updates it: the VM loses its matchers and status references,
its generation goes up by one, and the VMI is created from that VM on the next sync. ``expand`` leaves
a VM alone whose instance type or preference is already pinned to a ControllerRevision
(``status.*Ref.controllerRevisionRef``); ``expandAll`` expands those too. Under ``reference`` (the
default) the controller stores ControllerRevisions (:func:`stored_revisions`), which change nothing the VMI
shows.
"""

from __future__ import annotations

from typing import Any

from ..admission import gates
from ..api.golang import child
from ..api.releases import DEFAULT, Release
from ..catalog.find import Lookup
from ..catalog.revision import revisions
from ..config import ClusterConfig
from ..errors import KubeVirtError
from . import expand
from .lookup import Context
from .vm_mutating_webhook import mutate_matchers

Spec = dict[str, Any]
STAGE = "controller"
EXPAND = "expand"
EXPAND_ALL = "expandAll"


CREATED_GENERATION = 1


def created(vm: Spec, ctx: Context) -> Spec:
    """``vm`` as the API server stores it on create: generation 1, whatever a dumped VM carried (the generic
    registry's create sets it; kubevirt.io/vm-generation on the VMI then says 1, or 2 after an expansion)."""
    child(vm, "metadata")["generation"] = CREATED_GENERATION
    return vm


def generation(vm: Spec) -> int:
    """The VM's generation as the metadata says (1 when absent)."""
    value = (vm.get("metadata") or {}).get("generation")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return 1


def has_revision_ref(vm: Spec) -> bool:
    """Whether the VM's status pins its instance type or preference to a ControllerRevision."""
    status = vm.get("status") or {}
    if not isinstance(status, dict):
        return False
    for key in ("instancetypeRef", "preferenceRef"):
        ref = status.get(key)
        if isinstance(ref, dict) and ((ref.get("controllerRevisionRef") or {}).get("name")):
            return True
    return False


def reference_policy(cfg: ClusterConfig) -> str:
    """``GetInstancetypeReferencePolicy`` (pkg/virt-config/virt-config.go): the configured policy only while the
    InstancetypeReferencePolicy gate is on (GA from v1.6.0; Beta on v1.5, so there a cluster that does not name
    the gate references and stores revisions whatever its ``instancetype.referencePolicy`` says), else reference."""
    return cfg.reference_policy if gates.is_enabled(cfg, "InstancetypeReferencePolicy") else "reference"


def expands(vm: Spec, policy: str) -> bool:
    """Whether virt-controller expands ``vm`` in place under ``policy`` (``handleExpand``)."""
    if policy == EXPAND_ALL:
        return True
    return policy == EXPAND and not has_revision_ref(vm)


def sync(vm: Spec, ctx: Context) -> Spec:
    """``vm`` as virt-controller leaves it before creating the VMI: unchanged, or expanded and updated."""
    if not expand.has_matchers(vm):
        return vm
    ctx.matched.require(STAGE)
    if not expands(vm, reference_policy(ctx.config)):
        return vm
    before = generation(vm)
    try:
        expand.expand(vm, ctx)
    except KubeVirtError as exc:
        message = f"error encountered while expanding into VirtualMachine: {exc.message}"
        raise KubeVirtError(message, STAGE, exc.paths, exc.field) from exc
    child(vm, "metadata")["generation"] = before + 1  # the update of the spec bumps it
    return vm


def stores_revisions(policy: str) -> bool:
    """Whether virt-controller stores ControllerRevisions under ``policy`` (``Store`` runs only under
    ``reference``; ``expand``/``expandAll`` expand the VM instead)."""
    return policy not in (EXPAND, EXPAND_ALL)


def stored_revisions(vm: Spec, namespace: str, catalog: Lookup, policy: str = "reference",
                     release: Release = DEFAULT) -> list[Spec]:
    """The ControllerRevisions ``Store`` writes for ``vm`` as created: its matchers as the mutating webhook
    left them, ``inferFromVolume`` resolved (pkg/instancetype/revision/store.go); none under a policy that
    expands instead."""
    if not stores_revisions(policy):
        return []
    return revisions(mutate_matchers(vm, namespace, catalog, release), namespace, catalog)
