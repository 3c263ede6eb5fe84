"""An interface's binding: exactly one method or plugin, and the bindings tied to the pod network
(pkg/network/admitter: binding.go, passt.go)."""

from __future__ import annotations

from ...config import ClusterConfig
from .. import gates
from ..cause import Cause, FieldPath
from .spec import InterfaceCheck, Item, NetSpec, each_interface, has, interface_path, is_pod, name, text

# The pointers ``countInterfaceBindings`` counts; the discontinued slirp, passt and macvtap are not among them.
BINDINGS = ("bridge", "masquerade", "sriov", "passtBinding", "binding")
# pkg/network/link/mac.go, StaticMasqueradeBridgeMAC: the in-pod bridge's own address.
MASQUERADE_BRIDGE_MAC = "02:00:00:00:00:00"
# ``hasInterfaceBindingMethod`` before v1.9.0: v1.8's methods, and before v1.8.0 the discontinued ones instead of
# passtBinding (release.discontinues_passt_and_macvtap_bindings).
METHODS = ("bridge", "masquerade", "sriov", "passtBinding")
METHODS_BEFORE_V1_8 = ("bridge", "masquerade", "sriov", "slirp", "macvtap", "passt")


def binding_exists(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfaceBindingExists``: exactly one binding method or plugin; before v1.9.0 only not both
    a plugin and a method (``release.interface_needs_exactly_one_binding``)."""
    if not cfg.release.interface_needs_exactly_one_binding:
        methods = METHODS if cfg.release.discontinues_passt_and_macvtap_bindings else METHODS_BEFORE_V1_8
        if has(iface, "binding") and any(has(iface, b) for b in methods):
            return [interface_path(field, idx).child("binding").cause(
                f"logical {name(iface)} interface cannot have both binding plugin and interface binding method")]
        return []
    if len([b for b in BINDINGS if iface.get(b) is not None]) != 1:  # has(), inline: every interface asks
        at = interface_path(field, idx)
        return [at.cause(f"logical {name(iface)} interface must have exactly one binding method or binding plugin")]
    return []


def masquerade(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateMasqueradeBinding``: on the pod network, not with the in-pod bridge's MAC address."""
    if not has(iface, "masquerade"):
        return []
    at = interface_path(field, idx)
    causes = []
    if not is_pod(net):
        causes.append(at.child("name").cause("Masquerade interface only implemented with pod network"))
    if text(iface, "macAddress") == MASQUERADE_BRIDGE_MAC:
        causes.append(at.child("macAddress").cause(
            "The requested MAC address is reserved for the in-pod bridge. Please choose another one."))
    return causes


def bridge(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateBridgeBinding``: a bridge on the pod network only if the cluster permits it."""
    if not cfg.permit_bridge_on_pod_network and has(iface, "bridge") and is_pod(net):
        at = interface_path(field, idx)
        return [at.child("name").cause("Bridge on pod network configuration is not enabled under kubevirt-config")]
    return []


def macvtap(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateMacvtapBinding`` (before v1.8.0, when macvtap was not yet refused as discontinued): the
    Macvtap gate, and a Multus network."""
    if cfg.release.discontinues_passt_and_macvtap_bindings or not has(iface, "macvtap"):
        return []
    at = interface_path(field, idx)
    causes = []
    if not gates.is_enabled(cfg, "Macvtap"):
        causes.append(at.child("name").cause("Macvtap feature gate is not enabled"))
    if not has(net, "multus"):
        causes.append(at.child("name").cause("Macvtap interface only implemented with Multus network"))
    return causes


def passt(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validatePasstBinding``: the PasstBinding gate, and the pod network. Before v1.8.0 the same for the
    ``passt`` binding and its Passt gate."""
    binding, gate = ("passtBinding", "PasstBinding") if cfg.release.discontinues_passt_and_macvtap_bindings \
        else ("passt", "Passt")
    if not has(iface, binding):
        return []
    at = interface_path(field, idx).child("name")
    causes = []
    if not gates.is_enabled(cfg, gate):
        causes.append(at.cause(f"{gate} feature gate is not enabled"))
    if not is_pod(net):
        causes.append(at.cause(f"{gate} interface only implemented with pod network"))
    return causes


# Each check with the interface's keys it reads (None: any), as in :data:`.rules.INTERFACE_FIELDS`.
CHECKS: tuple[tuple[InterfaceCheck, frozenset[str] | None], ...] = (
    (binding_exists, None),
    (masquerade, frozenset(("masquerade",))),
    (bridge, frozenset(("bridge",))),
    (macvtap, frozenset(("macvtap",))),
    (passt, frozenset(("passt", "passtBinding"))),
)


def interface_binding(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfaceBinding``: each interface through :data:`CHECKS`."""
    return each_interface(field, spec, cfg, CHECKS)
