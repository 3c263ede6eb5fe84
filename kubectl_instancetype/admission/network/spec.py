"""How the network rules read a VMI spec: its interfaces and networks as KubeVirt's Go types see them
(pkg/network/vmispec: network.go, interface.go).

A field Go decodes into a pointer is set when the document holds a value for it (``bridge: {}``), unset when
it is missing or null; a missing string or number is Go's zero value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ...config import ClusterConfig
from ..cause import Cause, FieldPath, Spec

Item = dict[str, Any]


class NetSpec(NamedTuple):
    """A spec as the network rules read it: its interfaces and networks as Go decodes them, and the network
    of each name, read once for all the rules of one validation (each rule used to read them again)."""

    spec: Spec
    interfaces: list[Item]
    networks: list[Item]
    interface_names: list[str]  # name() of each interface
    network_names: list[str]  # name() of each network
    by_name: dict[str, Item]  # IndexNetworkSpecByName: the last network of each name

    @staticmethod
    def of(spec: Spec) -> NetSpec:
        ifaces, nets = interfaces(spec), networks(spec)
        net_names, iface_names = _names(nets), _names(ifaces)
        return NetSpec(spec, ifaces, nets, iface_names, net_names, dict(zip(net_names, nets, strict=True)))


# One rule of the network admitter: the spec's field, the spec as :class:`NetSpec`, the cluster configuration.
NetRule = Callable[[FieldPath, NetSpec, ClusterConfig], list[Cause]]
# A check of one interface: the spec's field, the interface's index, the interface, the network of its name
# (empty when there is none: Go's zero ``v1.Network``) and the cluster configuration.
InterfaceCheck = Callable[[FieldPath, int, Item, Item, ClusterConfig], list[Cause]]


def _names(items: list[Item]) -> list[str]:
    """:func:`name` of each item (inline: it is asked of every interface and network)."""
    return [value if isinstance(value := item.get("name"), str) else "" for item in items]


def _items(value: Any) -> list[Item]:
    return [i if isinstance(i, dict) else {} for i in value] if isinstance(value, list) else []


def interfaces(spec: Spec) -> list[Item]:
    """``spec.Domain.Devices.Interfaces``."""
    return _items(((spec.get("domain") or {}).get("devices") or {}).get("interfaces"))


def networks(spec: Spec) -> list[Item]:
    """``spec.Networks``."""
    return _items(spec.get("networks"))


def text(item: Item, key: str) -> str:
    """A string field, ``""`` when unset."""
    value = item.get(key)
    return value if isinstance(value, str) else ""


def number(item: Item, key: str) -> int:
    """An integer field, ``0`` when unset."""
    value = item.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def has(item: Item, key: str) -> bool:
    """Whether a pointer field is set."""
    return item.get(key) is not None


def has_items(item: Item, key: str) -> bool:
    """Whether a slice field is set: KubeVirt meets the spec after a round trip through Go's JSON, where
    ``omitempty`` drops an empty list (``ports: []`` is no ports)."""
    value = item.get(key)
    return isinstance(value, list) and len(value) > 0


def name(item: Item) -> str:
    return text(item, "name")


def is_pod(net: Item) -> bool:
    return has(net, "pod")


def multus(net: Item) -> Item | None:
    value = net.get("multus")
    return value if isinstance(value, dict) else ({} if value is not None else None)


def is_multus_default(net: Item) -> bool:
    m = multus(net)
    return m is not None and m.get("default") is True


def claim(net: Item) -> Item | None:
    """``net.ResourceClaim``: the DRA claim request of a network (``IsDRANetwork``)."""
    value = net.get("resourceClaim")
    return value if isinstance(value, dict) else ({} if value is not None else None)


def default_network(nets: list[Item]) -> Item | None:
    """``LookUpDefaultNetwork``: the first pod or Multus default network of ``nets``."""
    return next((n for n in nets if is_pod(n) or is_multus_default(n)), None)


def dra_tuples(nets: list[Item]) -> dict[str, int]:
    """``ExtractDRANetworkClaimRequestTuples``: the first index in ``nets`` of each complete
    ``claimName/requestName``."""
    first: dict[str, int] = {}
    for idx, net in enumerate(nets):
        rc = claim(net)
        if rc is None or not text(rc, "claimName") or not text(rc, "requestName"):
            continue
        first.setdefault(f"{text(rc, 'claimName')}/{text(rc, 'requestName')}", idx)
    return first


def interfaces_path(field: FieldPath) -> FieldPath:
    return field.child("domain", "devices", "interfaces")


def interface_path(field: FieldPath, idx: int) -> FieldPath:
    """The interface at ``idx`` (the checks make it only for a cause: a clean VM's make no path)."""
    return interfaces_path(field).index(idx)


def networks_path(field: FieldPath) -> FieldPath:
    return field.child("networks")


def each_interface(field: FieldPath, net_spec: NetSpec, cfg: ClusterConfig,
                   checks: tuple[tuple[InterfaceCheck, frozenset[str] | None], ...]) -> list[Cause]:
    """Every interface through ``checks``, interface by interface, with the network of its name; a check whose
    keys (None: any) the interface does not hold is skipped: it has nothing to refuse."""
    by_name, names = net_spec.by_name, net_spec.interface_names
    causes = []
    for idx, iface in enumerate(net_spec.interfaces):
        net = by_name.get(names[idx], {})
        for check, reads in checks:
            if reads is None or not reads.isdisjoint(iface):
                causes.extend(check(field, idx, iface, net, cfg))
    return causes
