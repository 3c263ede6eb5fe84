"""The instancetype series of the common catalog (u1, o1, cx1, m1, n1, rt1, d1) and their sizes.

A series is one class of workload: a display name, a description, the spec features every size shares,
and a ladder of sizes (vCPUs and guest memory). Series with huge pages publish each size once per page
size, every page size but the first adding a suffix to the size (``cx1.large1gi``). Labels restate the
spec so that UIs can filter on them; they are derived here from the same facts so they cannot drift apart.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...api.names import LABEL_PREFIX as PREFIX
from ...api.names import VENDOR
from ...records import dataclass, field
from . import descriptions
from .tree import merge, sorted_tree


@dataclass(frozen=True)
class Feature:
    """A spec fragment shared by every size of a series, with the labels that advertise it."""

    spec: dict[str, Any]
    labels: dict[str, str] = field(default_factory=dict)


DEDICATED = Feature(
    {"cpu": {"dedicatedCPUPlacement": True, "isolateEmulatorThread": True}},
    {"dedicatedCPUPlacement": "true", "isolateEmulatorThread": "true"},
)
NUMA = Feature({"cpu": {"numa": {"guestMappingPassthrough": {}}}}, {"numa": "true"})
REALTIME = Feature({"cpu": {"realtime": {}}}, {"realtime": "true"})
IO_THREADS = Feature({"ioThreadsPolicy": "auto"})
OVERCOMMIT = Feature({"memory": {"overcommitPercent": 50}})
# Keep CRI-O from balancing load, quota and IRQs onto the pinned CPUs (DPDK and realtime workloads).
CRIO_ISOLATION = Feature(
    {
        "annotations": {
            "cpu-load-balancing.crio.io": "disable",
            "cpu-quota.crio.io": "disable",
            "irq-load-balancing.crio.io": "disable",
        }
    }
)


@dataclass(frozen=True)
class Size:
    """One rung of a series' ladder."""

    name: str
    cpus: int
    memory: str


def ladder(*rungs: tuple[str, int, str]) -> tuple[Size, ...]:
    """Sizes from ``(name, vCPUs, guest memory)`` triples."""
    return tuple(Size(*rung) for rung in rungs)


GENERAL_SIZES = ladder(
    ("nano", 1, "512Mi"), ("micro", 1, "1Gi"), ("small", 1, "2Gi"), ("medium", 1, "4Gi"),
    ("2xmedium", 2, "4Gi"), ("large", 2, "8Gi"), ("xlarge", 4, "16Gi"), ("2xlarge", 8, "32Gi"),
    ("4xlarge", 16, "64Gi"), ("8xlarge", 32, "128Gi"),
)  # fmt: skip


def without(sizes: tuple[Size, ...], *names: str) -> tuple[Size, ...]:
    """A ladder minus the named rungs."""
    return tuple(size for size in sizes if size.name not in names)


@dataclass(frozen=True)
class Series:
    """One instancetype series: ``<name>.<size>[<page suffix>]`` for every size and page size."""

    name: str
    klass: str  # the ``instancetype.kubevirt.io/class`` label
    display_name: str
    icon: str  # a PatternFly / Font Awesome icon class
    description: str
    sizes: tuple[Size, ...]
    features: tuple[Feature, ...] = ()
    hugepages: tuple[str, ...] = ()  # page sizes; the first one gives the unsuffixed names
    max_sockets_is_guest: bool = False  # no spare sockets for CPU hotplug (see the cx1 description)
    version: str = "1"  # the digit in the series name, also a label


SERIES = (
    Series("cx1", "compute.exclusive", "Compute Exclusive", "pficon-registry", descriptions.CX1,
           ladder(("medium", 1, "2Gi"), ("large", 2, "4Gi"), ("xlarge", 4, "8Gi"), ("2xlarge", 8, "16Gi"),
                  ("4xlarge", 16, "32Gi"), ("8xlarge", 32, "64Gi")),
           (DEDICATED, NUMA, IO_THREADS), ("2Mi", "1Gi"), max_sockets_is_guest=True),
    Series("d1", "dedicated.vcpu", "Dedicated vCPU", "pficon-server-group", descriptions.D1,
           GENERAL_SIZES, (DEDICATED, IO_THREADS)),
    Series("m1", "memory.intensive", "Memory Intensive", "fa-memory", descriptions.M1,
           ladder(("large", 2, "16Gi"), ("xlarge", 4, "32Gi"), ("2xlarge", 8, "64Gi"),
                  ("4xlarge", 16, "128Gi"), ("8xlarge", 32, "256Gi")),
           (), ("2Mi", "1Gi")),
    Series("n1", "network", "Network", "pficon-network", descriptions.N1,
           ladder(("medium", 4, "4Gi"), ("large", 4, "8Gi"), ("xlarge", 8, "16Gi"), ("2xlarge", 16, "32Gi"),
                  ("4xlarge", 32, "64Gi"), ("8xlarge", 64, "128Gi")),
           (DEDICATED, CRIO_ISOLATION), ("1Gi",)),
    Series("o1", "overcommitted", "Overcommitted", "pficon-virtual-machine", descriptions.O1,
           without(GENERAL_SIZES, "2xmedium"), (OVERCOMMIT,)),
    Series("rt1", "realtime", "Realtime", "pficon-server-group", descriptions.RT1,
           without(GENERAL_SIZES, "nano", "2xmedium"), (DEDICATED, NUMA, REALTIME, CRIO_ISOLATION), ("1Gi",)),
    Series("u1", "general.purpose", "General Purpose", "pficon-server-group", descriptions.U1,
           GENERAL_SIZES),
)  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """Where one instancetype comes from: its series, size and huge page size (if any)."""

    name: str
    size_label: str  # the size as named and labelled, page suffix included (``large1gi``)
    series: Series
    size: Size
    page_size: str | None


@cache
def index() -> dict[str, Entry]:
    """Every instancetype of the catalog by name, in name order, with the facts it is built from."""
    entries = {}
    for series in SERIES:
        pages: tuple[str | None, ...] = series.hugepages or (None,)
        for size in series.sizes:
            for position, page_size in enumerate(pages):
                label = size.name + (str(page_size).lower() if position else "")
                name = f"{series.name}.{label}"
                entries[name] = Entry(name, label, series, size, page_size)
    return dict(sorted(entries.items()))


def instancetype(entry: Entry) -> dict[str, Any]:
    """``metadata`` and ``spec`` of one instancetype, keys sorted as in the published bundles."""
    series = entry.series
    annotations = {PREFIX + "description": series.description, PREFIX + "displayName": series.display_name}
    metadata = {"annotations": annotations, "labels": _labels(entry), "name": entry.name}
    return sorted_tree({"metadata": metadata, "spec": _spec(entry)})


def _spec(entry: Entry) -> dict[str, Any]:
    sizing: dict[str, Any] = {"cpu": {"guest": entry.size.cpus}, "memory": {"guest": entry.size.memory}}
    if entry.series.max_sockets_is_guest:
        sizing["cpu"]["maxSockets"] = entry.size.cpus
    if entry.page_size:
        sizing["memory"]["hugepages"] = {"pageSize": entry.page_size}
    return merge([*(feature.spec for feature in entry.series.features), sizing])


def _labels(entry: Entry) -> dict[str, str]:
    series = entry.series
    labels = {
        "class": series.klass, "cpu": str(entry.size.cpus), "icon-pf": series.icon,
        "memory": entry.size.memory, "size": entry.size_label, "vendor": VENDOR, "version": series.version,
    }  # fmt: skip
    for feature in series.features:
        labels.update(feature.labels)
    if entry.page_size:
        labels["hugepages"] = entry.page_size
    return {PREFIX + key: value for key, value in labels.items()}
