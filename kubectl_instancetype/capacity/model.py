"""The capacity report of a set of launcher Pods: per namespace, each VM's node-level requests and limits
(``PodRequests``/``PodLimits``, the memory overhead KubeVirt adds included), quota admission in file order, the
totals of the admitted Pods, and what each ResourceQuota has used and has left."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import Location
from ..quantity import Quantity
from ..quota.admission import Ledger, ResourceQuota
from ..quota.pods import is_extended, pod_limits, pod_requests, unbounded
from ..quota.resources import add_lists, subtract
from ..records import dataclass, replace

ADMITTED, REFUSED, STOPPED, FAILED = "admitted", "refused", "stopped", "failed"
STARTING = ("Always", "RerunOnFailure", "Once")


def starts(vm: Mapping[str, Any]) -> bool:
    """Whether virt-controller starts the VM once it is created (``running: true``, or a run strategy that
    starts it: Always, RerunOnFailure, Once); Halted, Manual and WaitAsReceiver leave it without a Pod."""
    spec = vm.get("spec") or {}
    strategy = spec.get("runStrategy")
    return strategy in STARTING if strategy is not None else spec.get("running") is True


@dataclass(frozen=True)
class Launcher:
    """One VM of the files and its launcher Pod (``pod`` None with KubeVirt's ``error`` when the VM is refused
    or its Pod cannot be rendered)."""

    namespace: str
    name: str
    location: Location  # where the VM (or Pod) is
    pod: Mapping[str, Any] | None
    error: str = ""
    started: bool = True
    kind: str = "VirtualMachine"
    refused: str = ""  # an admission plugin before quota refuses the Pod (RuntimeClass): the API server's words


@dataclass(frozen=True)
class PlacedQuota:
    """A ResourceQuota of the files and where it is."""

    quota: ResourceQuota
    location: Location


@dataclass(frozen=True)
class Row:
    """One VM in the report: its Pod's node-level requests and limits and what admission answers."""

    launcher: Launcher
    status: str  # admitted, refused, stopped (not started: not counted), failed (no Pod)
    requests: Mapping[str, Quantity]
    limits: Mapping[str, Quantity]
    reason: str = ""  # the API server's refusal, or KubeVirt's error
    quota: str = ""  # the quota that refuses it
    migration: str = ""  # an admitted VM: the refusal of a live migration's target Pod once all are admitted
    unbounded: tuple[str, ...] = ()  # cpu/memory a container sets no limit for: the Pod's limit does not bound it

    @property
    def counted(self) -> bool:
        return self.status == ADMITTED


@dataclass(frozen=True)
class QuotaUse:
    """A quota after the Pods of the files: what they use of each hard limit and what is left."""

    placed: PlacedQuota
    used: Mapping[str, Quantity]

    def remaining(self) -> dict[str, Quantity]:
        """hard - used for each hard limit (negative where a quota was already exceeded: never by admission)."""
        hard = self.placed.quota.hard
        return {name: subtract(hard[name], self.used[name]) for name in hard}


@dataclass(frozen=True)
class NamespaceReport:
    namespace: str
    rows: tuple[Row, ...]
    quotas: tuple[QuotaUse, ...]
    requests: Mapping[str, Quantity]  # the admitted Pods' sum
    limits: Mapping[str, Quantity]


@dataclass(frozen=True)
class Report:
    namespaces: tuple[NamespaceReport, ...]
    from_status: bool = False  # the quotas started from their status.used

    def rows(self) -> list[Row]:
        return [row for ns in self.namespaces for row in ns.rows]

    def count(self, status: str) -> int:
        return sum(row.status == status for row in self.rows())

    def totals(self) -> tuple[dict[str, Quantity], dict[str, Quantity]]:
        """The admitted Pods' requests and limits over every namespace."""
        requests: dict[str, Quantity] = {}
        limits: dict[str, Quantity] = {}
        for ns in self.namespaces:
            requests, limits = add_lists(requests, ns.requests), add_lists(limits, ns.limits)
        return requests, limits


def report(launchers: Iterable[Launcher], quotas: Iterable[PlacedQuota], all_vms: bool = False,
           from_status: bool = False) -> Report:
    """The report of ``launchers`` in the order given (the order they are created) against ``quotas``; with
    ``all_vms``, the VMs that would not start are counted as started; with ``from_status``, the quotas start
    from the ``status.used`` of their manifests."""
    by_namespace: dict[str, list[Launcher]] = {}
    for launcher in launchers:
        by_namespace.setdefault(launcher.namespace, []).append(launcher)
    placed: dict[str, list[PlacedQuota]] = {}
    for quota in quotas:
        placed.setdefault(quota.quota.namespace, []).append(quota)
    names = sorted(set(by_namespace) | set(placed))
    return Report(tuple(_namespace(n, by_namespace.get(n, []), placed.get(n, []), all_vms, from_status)
                        for n in names), from_status)


def _namespace(name: str, launchers: list[Launcher], quotas: list[PlacedQuota], all_vms: bool,
               from_status: bool) -> NamespaceReport:
    ledger = Ledger.of(tuple(q.quota for q in quotas), from_status)
    rows: list[Row] = []
    requests: dict[str, Quantity] = {}
    limits: dict[str, Quantity] = {}
    for launcher in launchers:
        if launcher.pod is None:
            rows.append(Row(launcher, FAILED, {}, {}, launcher.error))
            continue
        wants, caps = pod_requests(launcher.pod), pod_limits(launcher.pod)
        if not (launcher.started or all_vms):
            rows.append(Row(launcher, STOPPED, wants, caps))
            continue
        if launcher.refused:
            rows.append(Row(launcher, REFUSED, wants, caps, launcher.refused))
            continue
        verdict, ledger = ledger.admit(launcher.pod)
        if not verdict.admitted:
            rows.append(Row(launcher, REFUSED, wants, caps, verdict.reason, verdict.quota))
            continue
        rows.append(Row(launcher, ADMITTED, wants, caps))
        requests, limits = add_lists(requests, wants), add_lists(limits, caps)
    uses = tuple(QuotaUse(q, used) for q, used in zip(quotas, ledger.used, strict=True))
    rows = [replace(row, unbounded=unbounded(row.launcher.pod)) if row.launcher.pod is not None else row
            for row in rows]
    return NamespaceReport(name, tuple(_migrating(row, ledger) for row in rows), uses, requests, limits)


def _migrating(row: Row, ledger: Ledger) -> Row:
    """``row`` with what quota admission answers a live migration's target Pod (a second launcher Pod of the
    VM, the same resources, in the same namespace) once every VM is admitted: a quota without room for it
    blocks the VM's migrations, node drains included."""
    if row.status != ADMITTED or row.launcher.kind == "Pod" or row.launcher.pod is None:
        return row
    verdict, _ = ledger.admit(row.launcher.pod)
    return row if verdict.admitted else replace(row, migration=verdict.reason)


def hugepages(values: Mapping[str, Quantity]) -> dict[str, Quantity]:
    return {name: value for name, value in values.items() if name.startswith("hugepages-")}


def devices(values: Mapping[str, Quantity]) -> dict[str, Quantity]:
    """The extended resources (device plugins: KubeVirt's /dev/kvm, tun and vhost-net, GPUs, SR-IOV VFs)."""
    return {name: value for name, value in values.items() if is_extended(name)}
