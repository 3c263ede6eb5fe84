"""Each network's source: one pod network, one Multus default, exactly one source per network, a Multus
network name (pkg/network/admitter/netsource.go)."""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath
from .spec import NetSpec, is_multus_default, multus, networks_path, text


def single_pod_network(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateSinglePodNetwork``. The first cause names ``<field>.interfaces``, a field no spec has."""
    pods = defaults = 0
    for net in spec.networks:  # is_pod and is_multus_default, inline: every network is asked
        if net.get("pod") is not None:
            pods += 1
        if net.get("multus") is not None and is_multus_default(net):
            defaults += 1
    causes = []
    if pods > 1:
        at = field.child("interfaces")
        causes.append(at.cause(f"more than one interface is connected to a pod network in {at}"))
    if defaults > 1:
        causes.append(networks_path(field).cause("Multus CNI should only have one default network"))
    if pods > 0 and defaults > 0:
        causes.append(networks_path(field).cause(
            "Pod network cannot be defined when Multus default network is defined"))
    return causes


def single_network_source(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateSingleNetworkSource``: a pod, Multus or DRA source, and only one."""
    causes = []
    for idx, net in enumerate(spec.networks):
        # claim(net), is_pod(net) and multus(net) set, inline: every network is asked
        dra = net.get("resourceClaim") is not None and cfg.release.knows_dra_networks  # Go drops it before v1.9.0
        count = (net.get("pod") is not None) + (net.get("multus") is not None) + dra
        if count == 0:
            causes.append(networks_path(field).index(idx).cause("should have a network type"))
        elif count > 1:
            causes.append(networks_path(field).index(idx).cause("should have only one network type"))
    return causes


def multus_network_source(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateMultusNetworkSource``: the first Multus network without a network name, only."""
    for idx, net in enumerate(spec.networks):
        if net.get("multus") is None:  # multus(net) is None, inline: every network is asked
            continue
        m = multus(net)
        if m is not None and not text(m, "networkName"):
            return [networks_path(field).index(idx).cause("CNI delegating plugin must have a networkName")]
    return []
