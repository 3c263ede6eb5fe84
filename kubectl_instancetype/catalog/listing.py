"""What ``catalog list`` and ``catalog show`` see: every instancetype and preference of the sources and of
the built-in catalog, with where it comes from, and the table kubectl would print for them.

Unlike rendering, browsing shows the built-in catalog in both scopes (its namespaced copies have no
namespace). A source's cluster-scoped object hides the built-in one of the same kind and name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..api.golang import go_lower
from ..errors import UsageError
from ..records import dataclass
from .index import (
    BUILTIN_SOURCE,
    CATALOG_KINDS,
    CLUSTER_INSTANCETYPE,
    CLUSTER_KINDS,
    CLUSTER_PREFERENCE,
    INSTANCETYPE,
    PREFERENCE,
    Catalog,
)
from .selector import Selector

KIND_ORDER = (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE)
CLASS_LABEL = "instancetype.kubevirt.io/class"
HUGEPAGES_LABEL = "instancetype.kubevirt.io/hugepages"
DISPLAY_NAME = "instancetype.kubevirt.io/displayName"
NONE = "<none>"

# Every spelling kubectl accepts for these kinds (spec §1.1): kind, singular, plural and short names.
_KIND_ALIASES = {
    CLUSTER_INSTANCETYPE: ("vmclusterinstancetype", "vmclusterinstancetypes", "vmcf", "vmcfs"),
    CLUSTER_PREFERENCE: ("vmcp", "vmcps"),
    INSTANCETYPE: ("vminstancetype", "vminstancetypes", "vmf", "vmfs"),
    PREFERENCE: ("vmpref", "vmprefs", "vmp", "vmps"),
}


@dataclass(frozen=True)
class Listed:
    """One catalog object and the source it comes from (``file:line:col`` or ``built-in``)."""

    obj: dict[str, Any]
    source: str
    namespace: str = ""  # of a namespaced object from a source; the built-in copies have none

    @property
    def kind(self) -> str:
        return str(self.obj["kind"])

    @property
    def name(self) -> str:
        return str(self.obj["metadata"]["name"])

    @property
    def labels(self) -> dict[str, str]:
        return dict(self.obj["metadata"].get("labels") or {})

    def sort_key(self) -> tuple[int, str, str]:
        return (KIND_ORDER.index(self.kind), self.namespace, self.name)


def listed(catalog: Catalog, builtin_objects: Callable[[], Iterable[dict[str, Any]]] | None) -> list[Listed]:
    """Every instancetype and preference, sources first, sorted by kind, namespace and name."""
    out = [Listed(e.obj, e.source, ns) for (kind, ns, _), e in catalog.entries.items() if kind in CATALOG_KINDS]
    if builtin_objects is not None:
        for obj in builtin_objects():
            if obj["kind"] not in CLUSTER_KINDS or (obj["kind"], "", obj["metadata"]["name"]) not in catalog.entries:
                out.append(Listed(obj, BUILTIN_SOURCE))
    return sorted(out, key=Listed.sort_key)


def selected(items: Iterable[Listed], selector: Selector) -> list[Listed]:
    return [item for item in items if selector.matches(item.labels)]


def resolve_kind(text: str) -> str:
    """The Kind a ``--kind`` value names (case-insensitive kind, resource or short name); UsageError else."""
    lowered = go_lower(text)
    # The words users say: like a matcher without a kind, they mean the cluster-scoped kinds.
    plain = {"instancetype": CLUSTER_INSTANCETYPE, "instancetypes": CLUSTER_INSTANCETYPE,
             "preference": CLUSTER_PREFERENCE, "preferences": CLUSTER_PREFERENCE}
    if lowered in plain:
        return plain[lowered]
    for kind in KIND_ORDER:
        if lowered in (kind.lower(), kind.lower() + "s", *_KIND_ALIASES[kind]):
            return kind
    raise UsageError(f"--kind {text!r} is not an instancetype or preference kind")


def pick(items: Iterable[Listed], name: str, kind: str | None, namespace: str) -> Listed | None:
    """The object ``catalog show`` prints: without a kind, the cluster-scoped one as a matcher would
    take it; UsageError when an instancetype and a preference share the name."""
    found = [i for i in items if i.name == name and (kind is None or i.kind == kind)
             and i.namespace in ("", namespace)]
    if kind is None and any(i.kind in CLUSTER_KINDS for i in found):
        found = [i for i in found if i.kind in CLUSTER_KINDS]
    kinds = sorted({i.kind for i in found}, key=KIND_ORDER.index)
    if len(kinds) > 1:
        raise UsageError(f"{name!r} names more than one kind ({', '.join(kinds)}): choose one with --kind")
    exact = [i for i in found if i.namespace == namespace] or found
    return exact[0] if exact else None


def row(item: Listed, wide: bool, namespaced: bool = False) -> list[str]:
    """The table cells of one object: NAME, KIND, CPU, MEMORY, CLASS, SOURCE (+ wide columns; NAMESPACE first
    when ``namespaced``)."""
    spec = item.obj.get("spec") or {}
    instancetype = item.kind in (INSTANCETYPE, CLUSTER_INSTANCETYPE)
    cpu = (spec.get("cpu") or {}).get("guest") if instancetype else None
    memory = (spec.get("memory") or {}).get("guest") if instancetype else None
    cells = [item.name, item.kind, _cell(cpu), _cell(memory), _cell(item.labels.get(CLASS_LABEL)), item.source]
    if wide:
        annotations = item.obj["metadata"].get("annotations") or {}
        cells = [_cell(item.namespace), *cells, _cell(item.labels.get(HUGEPAGES_LABEL)),
                 _cell(annotations.get(DISPLAY_NAME))]
    elif namespaced:
        cells = [_cell(item.namespace), *cells]
    return cells


HEADERS = ["NAME", "KIND", "CPU", "MEMORY", "CLASS", "SOURCE"]
WIDE_HEADERS = ["NAMESPACE", *HEADERS, "HUGEPAGES", "DISPLAY NAME"]


def table(items: Iterable[Listed], wide: bool) -> str:
    """kubectl's table layout: left-aligned columns three spaces apart, the last one unpadded. A NAMESPACE
    column leads when a namespaced object is listed, as ``kubectl get -A`` prints it (two ``small`` of two
    namespaces are otherwise two rows alike but for their source)."""
    items = list(items)
    namespaced = any(item.namespace for item in items)
    headers = WIDE_HEADERS if wide else ["NAMESPACE", *HEADERS] if namespaced else HEADERS
    rows = [headers, *(row(item, wide, namespaced) for item in items)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "".join(
        "   ".join([cell.ljust(width) for cell, width in zip(r, widths, strict=False)] + [r[-1]]).rstrip() + "\n"
        for r in rows
    )


def _cell(value: Any) -> str:
    if value is None or value == "":
        return NONE
    return str(value)


def resource_name(item: Listed) -> str:
    """``-o name``: ``<kind in lower case>.instancetype.kubevirt.io/<name>`` as kubectl prints it."""
    return f"{item.kind.lower()}.instancetype.kubevirt.io/{item.name}"
