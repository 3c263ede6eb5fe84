"""The ports an interface on the pod network forwards, one by one or as ranges
(pkg/network/admitter/netiface.go, ``validatePortConfiguration``, ``validatePortRangesConfiguration``)."""

from __future__ import annotations

import itertools
import re

from ...config import ClusterConfig
from .. import gates
from ..cause import Cause, FieldPath
from .spec import Item, has, has_items, interface_path, is_pod, number, text

MAX_PORT_RANGES = 10
PROTOCOLS = ("TCP", "UDP")


def port_name_valid(port: str) -> bool:
    """apimachinery ``IsValidPortName`` finds nothing wrong (an IANA_SVC_NAME)."""
    return (len(port) <= 15 and re.fullmatch(r"[-a-z0-9]+", port) is not None and re.search("[a-z]", port) is not None
            and "--" not in port and not port.startswith("-") and not port.endswith("-"))


def _ports(iface: Item) -> list[Item]:
    value = iface.get("ports")
    return [p if isinstance(p, dict) else {} for p in value] if isinstance(value, list) else []


def ports(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validatePortConfiguration``: on the pod network, named ports unique and well-formed, then each
    port's number and protocol."""
    if not is_pod(net) or not has_items(iface, "ports"):
        return []
    at = interface_path(field, idx)
    causes = []
    seen: set[str] = set()
    for i, port in enumerate(_ports(iface)):
        port_name = text(port, "name")
        if not port_name:
            continue
        where = at.child("ports").index(i).child("name")
        if port_name in seen:
            causes.append(where.cause(f"Duplicate name of the port: {port_name}"))
        if not port_name_valid(port_name):
            causes.append(where.cause(f"Invalid name of the port: {port_name}"))
        seen.add(port_name)
    for i, port in enumerate(_ports(iface)):
        where, port_number = at.child("ports").index(i), number(port, "port")
        # before v1.9.0 both causes sit at ports[i], and 65536 passes (release.forward_port_causes_at_port)
        at_port = where.child("port") if cfg.release.forward_port_causes_at_port else where
        too_big = port_number >= 65536 if cfg.release.forward_port_causes_at_port else port_number > 65536
        if port_number == 0:
            causes.append(at_port.cause("Port field is mandatory."))
        if port_number < 0 or too_big:
            causes.append(at_port.cause("Port field must be in range 0 < x < 65536."))
        if text(port, "protocol") not in ("", *PROTOCOLS):
            causes.append(where.child("protocol").cause("Unknown protocol, only TCP or UDP allowed"))
    return causes


def port_ranges(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validatePortRangesConfiguration``: only under the PortRangesSpec gate; on the pod network, not with
    ``ports``, on masquerade only, and valid, non-overlapping ranges."""
    if not cfg.release.knows_port_ranges or not has_items(iface, "portRanges"):
        return []  # no portRanges field before v1.9.0: Go's decoding drops it; none, nothing to refuse
    at = interface_path(field, idx)
    if not gates.is_enabled(cfg, "PortRangesSpec"):
        return [at.child("name").cause(
            "portRanges is specified on interface but the PortRangesSpec feature gate is not enabled")]
    if not is_pod(net):
        return []
    causes = []
    if has_items(iface, "ports"):
        causes.append(at.child("name").cause("Cannot define both ports and portRanges on interface"))
    if not has(iface, "masquerade"):
        causes.append(at.child("name").cause("portRanges are only supported on masquerade interfaces"))
    return causes + _ranges(at, iface)


def _ranges(at: FieldPath, iface: Item) -> list[Cause]:
    """``validateForwardPortRanges``."""
    value = iface.get("portRanges")
    ranges = [r if isinstance(r, dict) else {} for r in value] if isinstance(value, list) else []
    if len(ranges) > MAX_PORT_RANGES:
        return [at.child("portRanges").cause("No more than 10 portRanges are allowed")]
    causes = []
    by_protocol: dict[str, list[tuple[int, int]]] = {}
    for i, r in enumerate(ranges):
        where = at.child("portRanges").index(i)
        protocol, start, end = text(r, "protocol"), number(r, "start"), number(r, "end")
        if protocol not in PROTOCOLS:
            causes.append(where.child("protocol").cause("Unknown protocol, only TCP or UDP allowed"))
        elif start <= 0 or start >= 65536:
            causes.append(where.child("start").cause("Start must be a valid port number, 0 < x < 65536"))
        elif end <= 0 or end >= 65536:
            causes.append(where.child("end").cause("End must be a valid port number, 0 < x < 65536"))
        elif start > end:
            causes.append(where.child("start").cause("Start must be less than or equal to end"))
        else:
            by_protocol.setdefault(protocol, []).append((start, end))
    # Go ranges over a map here: with overlaps in both protocols, KubeVirt's order of the two varies.
    for protocol, intervals in by_protocol.items():
        intervals.sort()
        for prev, curr in itertools.pairwise(intervals):
            if curr[0] <= prev[1]:
                causes.append(at.child("portRanges").cause(
                    f"{protocol} portRanges [{prev[0]}-{prev[1]}] and [{curr[0]}-{curr[1]}] overlap"))
    return causes

