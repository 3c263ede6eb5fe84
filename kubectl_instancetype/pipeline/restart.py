"""Restart impact: what virt-controller's VM controller does when a change is applied to a running VM
(``sync`` in pkg/virt-controller/watch/vm/vm.go).

Two renders go in. BASE *as started* (:func:`start`): the VM as the cluster stored it, with the
ControllerRevisions it pinned, and the VMI virt-controller created from it, whose hot-plug headroom
(``maxSockets``, ``maxGuest``, pkg/defaults) was fixed then. HEAD *as applied* (:func:`apply`): ``kubectl
apply``'s three-way merge over the stored VM, then the VM webhooks on UPDATE (which may refuse it: outcome
``error``). :func:`decide` then reconciles in virt-controller's order until nothing changes — the restart
check (:mod:`.restart_check`), the network synchronizer (:mod:`.restart_network`), the firmware
synchronizer, and under ``vmRolloutStrategy: LiveUpdate`` the CPU, placement and memory handlers — and
returns an :class:`Impact`: the outcome, KubeVirt's exact ``RestartRequired`` message (the first one stays:
``UpdateCondition`` keeps the message of a condition already there), what was hot-plugged, and what the
workload updater does about it (pkg/virt-controller/watch/workload-updater).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..api.encoding import encode_vmi
from ..api.golang import child, clone_json
from ..api.matchers import MATCHERS
from ..api.mergepatch import kubectl_apply
from ..api.origin import NO_TRACE, Origins, Path, Trace, origin_at
from ..catalog.find import Found, Lookup, find_spec
from ..config import ClusterConfig
from ..errors import KubeVirtError
from ..expand.apply import apply_spec
from ..records import dataclass, replace
from ..vmi.firmware import stable_firmware_uuid
from . import (
    expand,
    restart_check,
    restart_hotplug,
    restart_network,
    vm_controller,
    vm_mutating_webhook,
    vm_validating_webhook,
    vmi_validating_webhook,
)
from .lookup import TEMPLATE, Context, lookup
from .stages import render_stored, render_vmi, run

Spec = dict[str, Any]
UPDATE_STAGE = "head-vm-admit"
NO_CHANGE, LIVE_UPDATE, RESTART_REQUIRED, ERROR = "no-change", "live-update", "restart-required", "error"
SOCKETS = ("domain", "cpu", "sockets")
GUEST = ("domain", "memory", "guest")
MAX_ROUNDS = 4


@dataclass(frozen=True)
class VMIFacts:
    """What no file tells about the running VMI: whether it is live-migratable (``LiveMigratable=True``,
    assumed) and the cluster's default architecture it got at creation ("" = the configuration's)."""

    migratable: bool = True
    arch: str = ""


ASSUMED = VMIFacts()  # migratable, the configuration's architecture


@dataclass(frozen=True)
class Started:
    """BASE as the cluster runs it: the stored VM, the VMI's spec, the objects its revisions pinned."""

    vm: Spec
    vmi: Spec
    catalog: Lookup
    config: ClusterConfig


@dataclass(frozen=True)
class Applied:
    """HEAD as ``kubectl apply`` and the VM webhooks on UPDATE leave the live VM."""

    vm: Spec
    catalog: Lookup
    config: ClusterConfig
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cause:
    """One field of the template whose change decided the outcome: its path in the VM (``interfaces[1].model``),
    both values, where HEAD's value comes from (the VM itself, or an instancetype/preference field), the field of
    HEAD's VM document to point at (the matcher's name when the value comes from the object it selects), and the
    change that would make it live where KubeVirt's rule gives one."""

    path: str
    before: Any
    after: Any
    origin: str
    field: tuple[str | int, ...] = ()
    fix: str = ""


@dataclass(frozen=True)
class Impact:
    """What happens to the running VM: KubeVirt's answer, as values."""

    outcome: str
    restart_message: str = ""
    cpu: tuple[str, str] | None = None  # the VMI's sockets before -> after (CPU hot-plug)
    memory: tuple[str, str] | None = None  # the VMI's guest memory before -> after (memory hot-plug)
    placement: bool = False
    network: bool = False
    volumes: bool = False
    vmi_conditions: tuple[str, ...] = ()
    actuation: str = ""  # "" nothing pending, "migrate", "evict", "none" (no workloadUpdateMethods allow it)
    error: str = ""
    causes: tuple[Cause, ...] = ()
    notes: tuple[str, ...] = ()
    error_stage: str = ""  # UPDATE_STAGE: the webhooks refuse HEAD; vm_controller.STAGE: virt-controller cannot
    # apply it (an object it names does not exist)
    migratable: bool = True  # the VMI's LiveMigratable (a pending hot-plug of one that is not waits for a restart)

    @property
    def live(self) -> bool:
        return bool(self.cpu or self.memory or self.placement or self.network or self.volumes)


def rollout_live_update(cfg: ClusterConfig) -> bool:
    """``IsVMRolloutStrategyLiveUpdate`` (the release's default when unset: see :mod:`..config`)."""
    return cfg.live_update


def _effective(cfg: ClusterConfig, facts: VMIFacts) -> ClusterConfig:
    """``cfg`` with the assumed default architecture."""
    if facts.arch:
        cfg = replace(cfg, default_architecture=facts.arch)
    return cfg


def start(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, facts: VMIFacts = ASSUMED,
          stored: Spec | None = None) -> Started:
    """BASE created and started: the stored VM (``stored`` when the caller rendered it already) and the VMI
    (KubeVirtError when KubeVirt refuses BASE). The VMI carries the VM's firmware UUID (the webhook's on create,
    else virt-controller's name-derived one)."""
    cfg = _effective(cfg, facts)
    namespace = str((vm.get("metadata") or {}).get("namespace") or namespace)
    admitted = stored is not None
    if stored is None:
        stored = render_stored(vm, namespace, catalog, cfg)
    vmi = _started_vmi(vm, namespace, catalog, cfg, admitted)
    uuid = ((_template(stored).get("domain") or {}).get("firmware") or {}).get("uuid")
    if uuid:
        child(child(vmi, "domain"), "firmware")["uuid"] = uuid
    return Started(stored, vmi, catalog, cfg)


def expanded_at_start(vm: Spec, cfg: ClusterConfig) -> bool:
    """Whether virt-controller replaced the VM's matchers with their expansion when it first saw it
    (``referencePolicy: expand``/``expandAll``): the live VM then differs from its file, and every ``kubectl
    apply`` of the file puts the matchers back."""
    return vm_controller.expands(vm, cfg.reference_policy) and expand.has_matchers(vm)


@cache
def _start_stages() -> tuple[Any, ...]:
    """VMI mode without its two admission webhooks: for a VM whose create render KubeVirt already admitted."""
    from .stages import vmi_mode

    return tuple(stage for stage in vmi_mode() if stage not in (vm_validating_webhook.admit,
                                                                  vmi_validating_webhook.admit))


def _started_vmi(vm: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig, admitted: bool) -> Spec:
    """The VMI's spec as virt-controller created it (the webhooks' verdict is known when ``admitted``)."""
    if not admitted:
        return clone_json(render_vmi(vm, namespace, catalog, cfg).get("spec") or {})
    return clone_json(encode_vmi(run(_start_stages(), vm, namespace, catalog, cfg)).get("spec") or {})


class _Pinned:
    """The objects HEAD's VM resolves: those it still names through the revisions BASE pinned (BASE's
    objects), any other from HEAD's catalog, or BASE's (objects only in BASE stay: no pruning)."""

    def __init__(self, started: Started, head: Lookup) -> None:
        self.base, self.head = started.catalog, head
        self.namespace = str((started.vm.get("metadata") or {}).get("namespace") or "default")
        spec = started.vm.get("spec") or {}
        self.pinned = {(m.resolve(str((spec[m.field] or {}).get("kind") or "")), str(spec[m.field].get("name")))
                       for m in MATCHERS if isinstance(spec.get(m.field), dict)}

    def unchanged_in(self, head: Lookup) -> bool:
        """Whether ``head`` holds the pinned objects as BASE did (or not at all)."""
        return all(head.get(kind, self.namespace, name) in (None, self.base.get(kind, self.namespace, name))
                   for kind, name in self.pinned if kind)

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
        if (kind, name) in self.pinned:
            return self.base.get(kind, namespace, name)
        return self.head.get(kind, namespace, name) or self.base.get(kind, namespace, name)


def apply(started: Started, base_doc: Spec, head_doc: Spec, namespace: str, catalog: Lookup, cfg: ClusterConfig,
          facts: VMIFacts = ASSUMED, admitted: bool = False) -> Applied:
    """HEAD applied to the running VM; KubeVirtError (stage ``head-vm-admit``) when the webhooks refuse it.

    ``admitted``: KubeVirt admits HEAD's VM on create. The validating webhook on UPDATE then answers the same
    unless it resolves other objects (the revisions BASE pinned hold objects HEAD changed) or the live VM is not
    HEAD's file (expanded at start), and is not run again."""
    cfg = _effective(cfg, facts)
    namespace = str((started.vm.get("metadata") or {}).get("namespace") or namespace)
    pinned = _Pinned(started, catalog)
    live = kubectl_apply(base_doc, head_doc, started.vm)
    warnings: list[str] = []
    lookups: list[str] = []
    try:
        vm = vm_mutating_webhook.mutate_matchers(live, namespace, pinned, cfg.release)
        ctx = Context(namespace, pinned, cfg, lookup(_unpinned(vm), namespace, pinned), None, warnings)
        lookups += [failure.message for failure in ctx.matched.failures]
        vm = vm_mutating_webhook.preferred_defaults(vm, ctx)
        _update_defaults(vm, cfg)
        if not (admitted and pinned.unchanged_in(catalog) and not expanded_at_start(head_doc, started.config)):
            vm_validating_webhook.admit(vm, ctx)
    except KubeVirtError as exc:
        # a lookup the webhook went on without explains a refusal that does not name it
        said = exc.message + "".join(f" ({message})" for message in dict.fromkeys(
            [*lookups, *(message for message, _ in exc.lookups)]) if message not in exc.message)
        raise KubeVirtError(said, UPDATE_STAGE, exc.paths, exc.field, exc.causes) from exc
    # The webhooks admit a VM whose instancetype or preference does not exist (they log and go on); virt-controller
    # then cannot apply it (pkg/instancetype/controller/vm ``Sync`` fails the lookup): nothing reaches the VMI.
    ctx.matched.require(vm_controller.STAGE)
    return Applied(vm, pinned, cfg, tuple(warnings))


def _update_defaults(vm: Spec, cfg: ClusterConfig) -> None:
    """``SetVirtualMachineDefaults`` on UPDATE: the cluster's architecture and machine type when unset."""
    template = (vm.get("spec") or {}).get("template")
    if not isinstance(template, dict):
        return
    tspec = child(template, "spec")
    if not tspec.get("architecture"):
        tspec["architecture"] = cfg.default_architecture
    machine = child(child(tspec, "domain"), "machine")
    if not machine.get("type"):
        machine["type"] = cfg.machine_type_for(str(tspec["architecture"]))


def _unpinned(vm: Spec) -> Spec:
    """``vm`` without its status: the revisions it names are resolved through :class:`_Pinned`."""
    return {k: v for k, v in vm.items() if k != "status"}


def _template(vm: Spec) -> Spec:
    return ((vm.get("spec") or {}).get("template") or {}).get("spec") or {}


def expanded(vm: Spec, catalog: Lookup, namespace: str, book: Origins | None = None) -> Spec:
    """``ApplyToVM``: the template spec with the instancetype and preference applied (nothing else)."""
    spec = clone_json(_template(vm))
    meta = clone_json(((vm.get("spec") or {}).get("template") or {}).get("metadata") or {})
    found: list[Found | None] = []
    for matcher in MATCHERS:
        try:
            found.append(find_spec(matcher, _unpinned(vm), namespace, catalog))
        except KubeVirtError:
            return spec  # ApplyToVM fails: virt-controller gives up on this comparison
    trace = NO_TRACE if book is None else Trace(book, *TEMPLATE).using(found[0], found[1]).rooted(())
    apply_spec(vm_validating_webhook.BASE, found[0].spec if found[0] else None, found[1].spec if found[1] else None,
               spec, meta, trace)
    return spec


@dataclass(frozen=True)
class _State:
    """What one reconcile leaves: the live VM's template (as written), the VMI spec, the condition's message."""

    template: Spec
    vmi: Spec
    message: str


def decide(started: Started, applied: Applied, facts: VMIFacts = ASSUMED) -> Impact:
    """Reconcile the applied VM against the running VMI until nothing changes (virt-controller's ``sync``)."""
    namespace = str((started.vm.get("metadata") or {}).get("namespace") or "default")
    name = str((started.vm.get("metadata") or {}).get("name") or "")
    last = expanded(started.vm, started.catalog, namespace)
    book = Origins()
    vm = clone_json(applied.vm)
    state = _State(_template(vm), clone_json(started.vmi), "")
    at_boot = ((started.vmi.get("domain") or {}).get("memory") or {}).get("guest")
    cpu = memory = None
    placement = network = volumes = False
    causes: tuple[Cause, ...] = ()
    notes: list[str] = []
    seen: Spec | None = None
    current: Spec = {}
    for round_ in range(1, MAX_ROUNDS + 1):
        if state.template != seen:  # only the firmware synchronizer changes it between reconciles
            vm["spec"]["template"]["spec"] = seen = state.template
            current = expanded(vm, applied.catalog, namespace, book)
        result = _reconcile(last, current, state, applied, facts, name, at_boot)
        if result.cpu:
            cpu = (cpu[0] if cpu else result.cpu[0], result.cpu[1])
        if result.memory:
            memory = (memory[0] if memory else result.memory[0], result.memory[1])
        placement, network = placement or result.placement, network or result.network
        volumes = volumes or result.volumes
        if result.state.message and not state.message:
            causes = _causes(result, last, current, book, state.vmi)
            if round_ > 1:
                notes.append(f"RestartRequired appears on virt-controller's reconcile {round_}, after the VMI was "
                             "patched by the one before")
        if result.state == state:
            break
        state = result.state
    conditions = tuple(c for c, on in (("HotVCPUChange", cpu), ("HotMemoryChange", memory)) if on)
    return Impact(
        RESTART_REQUIRED if state.message else LIVE_UPDATE if (cpu or memory or placement or network or volumes)
        else NO_CHANGE, state.message, cpu, memory, placement, network, volumes, conditions,
        restart_hotplug.actuation(conditions, applied.config, facts.migratable), "",
        causes if state.message else (), tuple(notes), migratable=facts.migratable)


@dataclass(frozen=True)
class _Round:
    state: _State
    cpu: tuple[str, str] | None = None
    memory: tuple[str, str] | None = None
    placement: bool = False
    network: bool = False
    flagged_by_check: tuple[Path, ...] = ()
    volumes: bool = False
    network_live: bool = True  # the network check left the interfaces and networks to the synchronizer


def _reconcile(last: Spec, current: Spec, state: _State, applied: Applied, facts: VMIFacts, name: str,
               at_boot: Any) -> _Round:
    """One ``sync``: the restart check, the synchronizers, then the live-update handlers (``at_boot``: the
    VMI's ``status.memory.guestAtBoot``)."""
    cfg = applied.config
    release = cfg.release
    live_update = rollout_live_update(cfg)
    vmi = clone_json(state.vmi)
    net_live = restart_check.network_live(current, vmi, release, cfg, facts.migratable)
    migration = (applied.vm.get("spec") or {}).get("updateVolumesStrategy") == "Migration"
    kept = restart_check.neutralised(last, current, vmi, release, live_update, net_live, migration)
    flagged = tuple(restart_check.differences(kept, current))
    message = (state.message or restart_check.MESSAGE) if flagged else ""
    template = clone_json(state.template)
    synced = restart_network.synced_vmi(template, vmi,
                                        restart_network.syncs_network_names(release, facts.migratable))
    network = restart_network.changed(vmi, synced)
    vmi = synced
    volumes = (restart_hotplug.declarative_volumes(cfg) and not migration
               and restart_check.hotplugged_volumes(template, vmi))
    firmware = (template.get("domain") or {}).get("firmware") or {}
    if not firmware.get("uuid") and release.synchronizes_firmware_uuid:  # persists virt-controller's UUID
        child(child(template, "domain"), "firmware")["uuid"] = stable_firmware_uuid(name)
    cpu = memory = None
    placement = False
    if live_update and not flagged:
        message, cpu = restart_hotplug.cpu(current, vmi, message)
        placement = restart_hotplug.placement(current, vmi)
        message, memory = restart_hotplug.memory(current, vmi, at_boot, message, facts.migratable)
    return _Round(_State(template, vmi, message), cpu, memory, placement, network, flagged, volumes, net_live)


TEMPLATE_PATH: Path = ("spec", "template", "spec")
NETWORK_PATHS: tuple[Path, ...] = (("domain", "devices", "interfaces"), ("networks",))
MATCHER_NAME = {"instancetype": ("spec", "instancetype", "name"), "preference": ("spec", "preference", "name")}


def field_path(path: Path) -> str:
    """``spec.template.spec.domain.devices.interfaces[1].model``: a path as a reviewer reads it."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _causes(result: _Round, last: Spec, current: Spec, book: Origins, vmi: Spec) -> tuple[Cause, ...]:
    """The fields whose change decided the restart, with HEAD's origin of each (``vmi``: the VMI the reconcile
    compared the template with)."""
    message = result.state.message
    if message == restart_check.MESSAGE:
        paths: tuple[Path, ...] = result.flagged_by_check
    elif message in restart_hotplug.CPU_MESSAGES:
        paths = (SOCKETS,)
    else:
        paths = (GUEST,)
    network = tuple(p for p in paths if any(p[:len(n)] == n for n in NETWORK_PATHS))
    out: list[Cause] = []
    differing = restart_network.differing(current, vmi) if network and not result.network_live else []
    if differing:
        # the network check refused: what differs is the VMI's interface from the template's, not BASE from HEAD
        out += [_cause(path, before, after, book) for path, before, after in differing]
        paths = tuple(p for p in paths if p not in network)
    out += [_cause(path, _at(last, path), _at(current, path), book) for path in paths]
    return tuple(out[:8])


def _cause(path: Path, before: Any, after: Any, book: Origins) -> Cause:
    origin = origin_at(book.as_mapping(), path)
    source = origin.source if origin else ""
    fix = _fix(path, before, after, source)
    # the field to change: the interface the fix goes on, else the matcher whose object supplies the value
    field = (*TEMPLATE_PATH, *path[:4]) if fix and after is not None else \
        (*TEMPLATE_PATH, *path[:3]) if fix else MATCHER_NAME.get(source, (*TEMPLATE_PATH, *path))
    return Cause(field_path((*TEMPLATE_PATH, *path)), before, after, origin.text() if origin else "the VirtualMachine",
                 field, fix)


def _fix(path: Path, before: Any, after: Any, source: str) -> str:
    """The change that makes a refused NIC change live, by KubeVirt's rules: a NIC field the expansion adds
    (kubevirt#18955: the synchronizer hot-plugs the interface as the VM writes it, so a value only the preference
    supplies differs from the VMI's; written in the VM, the hot-plugged interface has it too); a bridge or SR-IOV
    interface removed (the network synchronizer unplugs one marked ``state: absent``, pkg/network/controllers)."""
    if path[:3] != NETWORK_PATHS[0]:
        return ""
    if source in MATCHER_NAME and len(path) == 5 and after is not None:
        return f"write `{path[4]}: {after}` on this interface in the VM: then it is live"
    if len(path) == 4 and after is None and isinstance(before, dict) and (
            before.get("bridge") is not None or before.get("sriov") is not None):
        return (f"keep interface `{before.get('name')}` with `state: absent` instead of removing it: then it is "
                "unplugged live")
    return ""


def _at(spec: Any, path: Path) -> Any:
    for key in path:
        if isinstance(spec, dict) and isinstance(key, str):
            spec = spec.get(key)
        elif isinstance(spec, list) and isinstance(key, int) and key < len(spec):
            spec = spec[key]
        else:
            return None
    return spec
