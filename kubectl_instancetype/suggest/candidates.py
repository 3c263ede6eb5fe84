"""The instancetypes and preferences a VirtualMachine in a namespace could name, and the order that breaks
ties between equally good ones.

Candidates are every object of the catalog in the VM's scope: the cluster-scoped kinds (``--catalog``, the
``-f`` inputs and, unless turned off, the built-in common-instancetypes catalog) and the namespaced kinds of
the VM's namespace. Among equals, cluster-scoped objects come first (they are what a cluster offers every
namespace), then the general-purpose ``u1`` series, then the smallest, then the name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..api.names import CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, LABEL_PREFIX, PREFERENCE
from ..catalog import Catalog
from ..quantity import QuantityError, from_json
from ..records import dataclass

GENERAL_PURPOSE_CLASS = "general.purpose"  # the ``instancetype.kubevirt.io/class`` label of the u1 series
GENERAL_PURPOSE_SERIES = "u1."


@dataclass(frozen=True)
class Candidate:
    """One instancetype or preference: its kind, name and spec, and what the tie-breaks read from it."""

    kind: str
    name: str
    spec: dict[str, Any]
    labels: dict[str, str]

    @property
    def cluster(self) -> bool:
        return self.kind in (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE)

    @property
    def general_purpose(self) -> bool:
        return (self.name.startswith(GENERAL_PURPOSE_SERIES)
                or self.labels.get(LABEL_PREFIX + "class") == GENERAL_PURPOSE_CLASS)

    @property
    def vcpus(self) -> int:
        guest = (self.spec.get("cpu") or {}).get("guest")
        return guest if isinstance(guest, int) and not isinstance(guest, bool) else 0

    @property
    def memory(self) -> int:
        """Guest memory in bytes (0 when unset or unreadable)."""
        return quantity_bytes((self.spec.get("memory") or {}).get("guest"))

    def matcher(self) -> dict[str, str]:
        """The VM's matcher naming this object: the kind only when it is not the default, cluster-scoped one."""
        return {"name": self.name} if self.cluster else {"name": self.name, "kind": self.kind}

    def describe(self) -> str:
        """``u1.medium``, or ``VirtualMachineInstancetype small`` for a namespaced object."""
        return self.name if self.cluster else f"{self.kind} {self.name}"


def quantity_bytes(value: Any) -> int:
    """The integer value of a quantity in a spec, 0 when it is absent or not a quantity."""
    if value is None:
        return 0
    try:
        return from_json(value).value()
    except (QuantityError, ValueError):
        return 0


def _candidates(catalog: Catalog, kinds: tuple[str, str], namespace: str) -> Iterator[Candidate]:
    for kind in kinds:
        for name in catalog.names(kind, namespace):
            obj = catalog.get(kind, namespace, name) or {}
            spec = obj.get("spec")
            if isinstance(spec, dict):
                labels = (obj.get("metadata") or {}).get("labels") or {}
                yield Candidate(kind, name, spec, {str(k): str(v) for k, v in labels.items()})


def instancetypes(catalog: Catalog, namespace: str) -> list[Candidate]:
    """Every instancetype a VM in ``namespace`` can name, cluster-scoped first."""
    return list(_candidates(catalog, (CLUSTER_INSTANCETYPE, INSTANCETYPE), namespace))


def preferences(catalog: Catalog, namespace: str) -> list[Candidate]:
    """Every preference a VM in ``namespace`` can name, cluster-scoped first."""
    return list(_candidates(catalog, (CLUSTER_PREFERENCE, PREFERENCE), namespace))


def tie_break(candidate: Candidate | None) -> tuple[int, int, int, int, str]:
    """The order among otherwise equal candidates: cluster-scoped, general purpose, smallest, by name;
    no preference at all (None) before any."""
    if candidate is None:
        return (0, 0, 0, 0, "")
    return (int(not candidate.cluster), int(not candidate.general_purpose), candidate.vcpus, candidate.memory,
            candidate.name)
