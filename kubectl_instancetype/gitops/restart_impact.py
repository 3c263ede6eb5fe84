"""What a pull request does to each running VirtualMachine (``diff --restart-impact``): the restart-impact stage
(:mod:`..pipeline.restart`) run for every VM of both revisions, and what it means for the reviewer.

A VM whose own document did not change is not touched by ``kubectl apply``: a changed instancetype or
preference *object* reaches it only at its next start (the running VM keeps the ControllerRevision it
pinned), and so does any change to a VM kept stopped (``runStrategy: Halted``, ``running: false``). A VM
only in HEAD is created. Two outcomes are no template change at all and weigh more than a restart: a running VM
that HEAD halts shuts down when applied (virt-controller's ``syncRunStrategy`` stops its VMI), and a VM only in
BASE is deleted by a pruning sync (Argo CD, Flux, ``kubectl apply --prune``; plain ``kubectl apply`` leaves it).
A HEAD VM the API server refuses is outcome error, as a refusal on update is. A VM named only by
``metadata.generateName`` (matched across revisions by it, as ``diff`` matches it) is no running VM's document:
each ``kubectl create`` makes another VM of a new name, and ``kubectl apply`` refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..api.names import VIRTUAL_MACHINE, shown_name
from ..catalog.find import Lookup
from ..config import ClusterConfig
from ..errors import KubeVirtError, Location, ToolError
from ..inputs.generated_names import apply_refuses, generated_only
from ..pipeline import restart, restart_defaults
from ..pipeline.restart import ERROR, LIVE_UPDATE, NO_CHANGE, RESTART_REQUIRED, UPDATE_STAGE, Impact, VMIFacts
from ..records import dataclass, field, replace
from ..yamlio import Document

SHUTS_DOWN, DELETED = "shuts-down", "deleted"
READ_STAGE = "read"  # the error of a VM whose file HEAD leaves unreadable
# A halt or a deletion stops the guest as soon as the change is synced: more than a restart someone schedules.
SEVERITY = {NO_CHANGE: 0, LIVE_UPDATE: 1, RESTART_REQUIRED: 2, SHUTS_DOWN: 3, DELETED: 3, ERROR: 4}
STOPPED, STOPPING = "stopped", "stopping"
CATALOG_ONLY = "catalog-only"
ADDED, REMOVED, NOT_STARTED, UNDECIDED = "added", "removed", "not-started", "undecided"
TEMPLATE = "template"
GENERATED = "generated"
# The API server names such a VM on create (a random suffix): no running VM carries the file's name, so applying
# the file touches none; kubectl apply (and the GitOps tools built on it) refuses it.
GENERATED_REACH = {
    ADDED: "each kubectl create makes a new VM from HEAD, and no running VM is touched",
    "": "each kubectl create makes a new VM from HEAD; the VMs created from BASE have names of their own and keep "
        "what they run with",
    REMOVED: "no longer created from this file; the VMs created from it have names of their own and are neither "
             "deleted nor changed",
}
GENERATED_NOTE = "named only by metadata.generateName: {reach}; {refusal}"
# KubeVirt copies a VirtualMachineTemplate into a new VM when it is processed (virtctl create vm --template,
# the template's create subresource) and keeps no link: VMs made from it before the change never see it.
TEMPLATE_REACH = ("a VirtualMachineTemplate change reaches only VMs created from it after the merge; KubeVirt never "
                  "updates the VMs already created from it (this is what a new VM gets)")


@dataclass(frozen=True)
class Revision:
    """One side of the pull request as read: its documents, catalog and cluster configuration."""

    documents: tuple[Document, ...]
    catalog: Lookup
    config: ClusterConfig
    stored: Mapping[tuple[str, str], Any] = field(default_factory=dict)  # each VM as stored (render --stored)
    admitted: Mapping[tuple[str, str], bool] = field(default_factory=dict)  # whether KubeVirt admits it on create
    refused: Mapping[tuple[str, str], ToolError] = field(default_factory=dict)  # VMs the API server refuses as read
    unreadable: Mapping[str, ToolError] = field(default_factory=dict)  # files that cannot be read, by path


@dataclass(frozen=True)
class VMImpact:
    """One VirtualMachine of the pull request and what applying it does to the running VM."""

    namespace: str
    name: str
    source: str
    impact: Impact
    situation: str = ""  # "" (running, its document changed), stopped, stopping, catalog-only, added, removed,
    # not-started, undecided
    when: str = ""  # when a change that does not reach the running VM applies
    warnings: tuple[str, ...] = ()  # committed values that make RestartRequired stick (kubevirt#17610)
    location: Location | None = None  # the field that decided it (the first cause's), else the VM's document
    cause_locations: tuple[Location, ...] = ()  # in step with ``impact.causes``: each cause's field in HEAD

    @property
    def outcome(self) -> str:
        return self.impact.outcome


def _vms(documents: Iterable[Document], namespace: str) -> dict[tuple[str, str], Document]:
    out = {}
    for doc in documents:
        if isinstance(doc.data, dict) and doc.data.get("kind") == VIRTUAL_MACHINE:
            meta = doc.data.get("metadata") or {}
            out[(str(meta.get("namespace") or namespace), shown_name(meta))] = doc  # as diff keys it
    return out


def stopped(vm: Mapping[str, Any]) -> bool:
    """Whether the VM's run strategy keeps it stopped (no VMI to update)."""
    spec = vm.get("spec") or {}
    return spec.get("runStrategy") == "Halted" or (spec.get("runStrategy") is None and spec.get("running") is False)


def impacts(base: Revision, head: Revision, namespace: str, facts: VMIFacts,
            expansion_changed: Mapping[tuple[str, str], bool]) -> list[VMImpact]:
    """Every VM of either revision whose document or expansion changed (``expansion_changed``: by key, whether
    ``diff`` found its expansion different), in ``diff``'s order."""
    before, after = _vms(base.documents, namespace), _vms(head.documents, namespace)
    out = []
    for key in expansion_changed:
        old, new = before.get(key), after.get(key)
        if old is None and new is None:
            continue
        if (old is not None and new is not None and old.data == new.data and not expansion_changed[key]
                and not restart.expanded_at_start(old.data, base.config)):
            continue
        doc = new if new is not None else old
        try:
            found = _one(key, old, new, base, head, namespace, facts)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            # input no check anticipated: say so for this VM, never crash the run
            found = VMImpact(key[0], key[1], doc.source if doc is not None else "", Impact(NO_CHANGE), UNDECIDED,
                             f"cannot be decided ({type(exc).__name__}: {exc})")
        if found.location is None:
            found = replace(found, location=_where(found, doc))
        if new is not None:
            found = replace(found, cause_locations=tuple(new.locate(c.field) if c.field else new.location
                                                         for c in found.impact.causes))
        out.append(found)
    return out


def _one(key: tuple[str, str], old: Document | None, new: Document | None, base: Revision, head: Revision,
         namespace: str, facts: VMIFacts) -> VMImpact:
    ns, name = key
    doc = new if new is not None else old
    source = doc.source if doc is not None else ""
    if doc is not None and from_template(doc):
        return VMImpact(ns, name, source, Impact(NO_CHANGE), TEMPLATE, TEMPLATE_REACH)
    if new is None:
        refusal = head.refused.get(key)
        if refusal is not None:  # the file still holds the VM: the API server refuses HEAD's version of it
            where = refusal.location
            return VMImpact(ns, name, where.path if where else source,
                            Impact(ERROR, error=_unlabelled(refusal.message, key), error_stage=UPDATE_STAGE),
                            location=where)
    prefix = generated_only(doc.data) if doc is not None else ""
    if prefix:
        reach = GENERATED_REACH[ADDED if old is None else REMOVED if new is None else ""]
        warnings = restart_defaults.added(new.data, old.data if old else None) if new is not None else ()
        return VMImpact(ns, name, source, Impact(NO_CHANGE), GENERATED,
                        GENERATED_NOTE.format(reach=reach, refusal=apply_refuses(prefix)), warnings)
    if new is None:
        broken = head.unreadable.get(source)
        if broken is not None:  # HEAD breaks the VM's file: a sync fails, it deletes nothing (W3)
            return VMImpact(ns, name, source, Impact(ERROR, error=broken.message, error_stage=READ_STAGE),
                            location=broken.location)
        return _removed(ns, name, source, old)
    warnings = restart_defaults.added(new.data, old.data if old else None)
    if old is None:
        return VMImpact(ns, name, source, Impact(NO_CHANGE), ADDED, "created from HEAD", warnings)
    if stopped(old.data):
        return VMImpact(ns, name, source, Impact(NO_CHANGE), STOPPED, "not running: the change applies at the next "
                        "start", warnings)
    if stopped(new.data):  # virt-controller's syncRunStrategy stops the VMI; RestartRequired goes with it
        strategy = "runStrategy" in (new.data.get("spec") or {})
        said = "runStrategy Halted" if strategy else "running false"
        return VMImpact(ns, name, source, Impact(SHUTS_DOWN), STOPPING,
                        f"HEAD sets {said}, and virt-controller stops the running VMI as soon as it is applied; the "
                        "rest of the change applies when the VM starts again", warnings,
                        location=_field(new, ("spec", "runStrategy" if strategy else "running")))
    if old.data == new.data and not restart.expanded_at_start(old.data, base.config):
        return VMImpact(ns, name, source, Impact(NO_CHANGE), CATALOG_ONLY,
                        "only the instancetype/preference object changed; the VM keeps the ControllerRevision it "
                        "pinned, across restarts too: it applies when the VM's matcher changes or its revision "
                        "reference is cleared (new VMs get it now)", warnings)
    try:
        started = restart.start(old.data, namespace, base.catalog, base.config, facts,
                                None if facts.arch else base.stored.get(key))
    except KubeVirtError as exc:
        return VMImpact(ns, name, source, Impact(NO_CHANGE, error=exc.message), NOT_STARTED,
                        "BASE does not start (KubeVirt refuses it): HEAD is what starts", warnings)
    try:
        applied = restart.apply(started, old.data, new.data, namespace, head.catalog, head.config, facts,
                                admitted=head.admitted.get(key, False) and not facts.arch)
    except KubeVirtError as exc:
        return VMImpact(ns, name, source, Impact(ERROR, error=exc.message, error_stage=exc.stage), "", "", warnings,
                        location=_field(new, exc.field) if exc.field else None)
    return VMImpact(ns, name, source, restart.decide(started, applied, facts), "", "", warnings)


def _removed(ns: str, name: str, source: str, old: Document | None) -> VMImpact:
    """A VM only in BASE: deleted by a pruning sync."""
    if old is not None and stopped(old.data):
        return VMImpact(ns, name, source, Impact(DELETED), REMOVED,
                        "a pruning sync (Argo CD, Flux, kubectl apply --prune) deletes the stopped VM and what it "
                        "owns (its DataVolumes); plain kubectl apply leaves it")
    return VMImpact(ns, name, source, Impact(DELETED), REMOVED,
                    "a pruning sync (Argo CD, Flux, kubectl apply --prune) deletes the VM and its VMI, and the "
                    "guest stops; plain kubectl apply leaves it running")


def from_template(doc: Document) -> bool:
    """Whether ``doc`` is the VirtualMachine of a template (``spec.virtualMachine``, an OpenShift ``objects[i]``),
    not one the cluster runs."""
    return doc.prefix[-2:] == ("spec", "virtualMachine") or (len(doc.prefix) >= 2 and doc.prefix[-2] == "objects")


def _unlabelled(message: str, key: tuple[str, str]) -> str:
    """A refusal's message without the ``VirtualMachine ns/name: `` a report of the file puts before it."""
    label = f"VirtualMachine {key[0]}/{key[1]}: "
    return message[len(label):] if message.startswith(label) else message


def _field(doc: Document, path: tuple[str | int, ...]) -> Location | None:
    """Where ``path`` of ``doc`` is (its nearest present parent when absent)."""
    return doc.locate(tuple(path)) if path else None


def _where(found: VMImpact, doc: Document | None) -> Location | None:
    """Where a finding about ``found`` belongs: the first changed field it names, else its document."""
    if doc is None:
        return None
    for cause in found.impact.causes:
        if cause.field:
            return doc.locate(cause.field)
    impact = found.impact
    for on, path, matcher in ((impact.cpu, ("domain", "cpu", "sockets"), "instancetype"),
                              (impact.memory, ("domain", "memory", "guest"), "instancetype"),
                              (impact.network, ("domain", "devices", "interfaces"), ""),
                              (impact.volumes, ("volumes",), ""),
                              (impact.placement, ("nodeSelector",), ""), (impact.placement, ("affinity",), ""),
                              (impact.placement, ("tolerations",), "")):
        if on and _has(doc.data, (*LIVE_TEMPLATE, *path)):
            return doc.locate((*LIVE_TEMPLATE, *path))
        if on and matcher and _has(doc.data, ("spec", matcher, "name")):
            return doc.locate(("spec", matcher, "name"))
    return doc.location


LIVE_TEMPLATE = ("spec", "template", "spec")


def _has(data: Any, path: tuple[str, ...]) -> bool:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True


@dataclass(frozen=True)
class Summary:
    """How many VMs of the pull request each outcome has."""

    restart: int
    live: int
    no_change: int
    error: int
    shuts_down: int = 0
    deleted: int = 0

    @property
    def worst(self) -> str:
        return (ERROR if self.error else DELETED if self.deleted else SHUTS_DOWN if self.shuts_down
                else RESTART_REQUIRED if self.restart else LIVE_UPDATE if self.live else NO_CHANGE)


def summary(rows: Sequence[VMImpact]) -> Summary:
    count = {o: sum(r.outcome == o for r in rows) for o in SEVERITY}
    return Summary(count[RESTART_REQUIRED], count[LIVE_UPDATE], count[NO_CHANGE], count[ERROR], count[SHUTS_DOWN],
                   count[DELETED])


# --fail-on LEVEL: the least severe outcome that fails the run (every more severe one fails it too)
FAIL_ON = {"live": LIVE_UPDATE, "restart": RESTART_REQUIRED, "stop": SHUTS_DOWN, "error": ERROR}


def fails(rows: Sequence[VMImpact], fail_on: str | None) -> bool:
    """Whether ``--fail-on`` is met: some VM's outcome is at least as severe as the one named."""
    if not fail_on:
        return False
    threshold = SEVERITY[FAIL_ON[fail_on]]
    return any(SEVERITY[r.outcome] >= threshold for r in rows)
