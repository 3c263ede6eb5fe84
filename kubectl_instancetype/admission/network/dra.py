"""Networks backed by a DRA resource claim (pkg/network/admitter/dra.go, ``validateNetworkDevicesWithDRA``)."""

from __future__ import annotations

from ...config import ClusterConfig
from ...schema.fielderror import go_quote
from .. import gates
from ..cause import Cause, FieldPath, Spec
from .spec import Item, NetSpec, claim, dra_tuples, has, interfaces_path, multus, name, networks_path, text


def network_devices(field: FieldPath, net_spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """Under the NetworkDevicesWithDRA gate, never beside Multus; each DRA network with an SR-IOV or plugin
    interface, a claim and a request name, a claim of ``spec.resourceClaims``, and a pair of its own."""
    nets = net_spec.networks
    if not cfg.release.knows_dra_networks:  # no networks[].resourceClaim before v1.9.0
        return []
    if not any(n.get("resourceClaim") is not None for n in nets):  # claim(n), inline: every network is asked
        return []
    if not gates.is_enabled(cfg, "NetworkDevicesWithDRA"):
        return [networks_path(field).cause(
            "vmi.spec.networks contains DRA networks but NetworkDevicesWithDRA feature gate is not enabled")]
    if any(multus(n) is not None for n in nets):
        return [networks_path(field).cause(
            "mixing Multus and DRA resourceClaim networks in the same VMI is not supported")]
    first = dra_tuples(nets)
    claims = {text(rc, "name") for rc in _resource_claims(net_spec.spec)}
    causes = []
    for idx, net in enumerate(nets):
        rc = claim(net)
        if rc is None:
            continue
        causes.extend(_interface_binding(field, net_spec.interfaces, name(net)))
        at = networks_path(field).index(idx)
        claim_name, request_name = text(rc, "claimName"), text(rc, "requestName")
        if not claim_name:
            causes.append(at.child("resourceClaim", "claimName").cause("claimName is required for DRA network"))
        if not request_name:
            causes.append(at.child("resourceClaim", "requestName").cause("requestName is required for DRA network"))
        if not claim_name or not request_name:
            continue
        if claim_name not in claims:
            causes.append(at.child("resourceClaim", "claimName").cause(
                f"network references resourceClaim {go_quote(claim_name)} which is not defined in spec.resourceClaims"))
        key = f"{claim_name}/{request_name}"
        if first.get(key, idx) != idx:
            causes.append(at.cause(f"duplicate claimName/requestName combination {go_quote(key)}"))
    return causes


def _resource_claims(spec: Spec) -> list[Item]:
    value = spec.get("resourceClaims")
    return [c if isinstance(c, dict) else {} for c in value] if isinstance(value, list) else []


def _interface_binding(field: FieldPath, interfaces: list[Item], network: str) -> list[Cause]:
    """``validateDRANetworkInterfaceBinding``: the first interface of the network's name."""
    iface = next((i for i in interfaces if name(i) == network), None)
    if iface is None or has(iface, "sriov") or has(iface, "binding"):
        return []
    return [interfaces_path(field).cause(
        f"DRA network {go_quote(network)} requires an SR-IOV or binding plugin interface")]
