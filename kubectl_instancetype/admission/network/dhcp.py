"""An interface's DHCP options (pkg/network/admitter/netiface.go, ``validateDHCPOptions``)."""

from __future__ import annotations

import ipaddress

from ...config import ClusterConfig
from ..cause import Cause, FieldPath
from .spec import Item, interfaces_path, number

PRIVATE_OPTIONS = range(224, 255)


def is_ipv4(value: object) -> bool:
    """``net.ParseIP(ip).To4() != nil``: dotted IPv4, or IPv6 that maps an IPv4 address (no zone)."""
    if not isinstance(value, str):
        return False
    try:
        ipaddress.IPv4Address(value)
        return True
    except ValueError:
        pass
    if ":" not in value or "%" in value:
        return False
    try:
        return ipaddress.IPv6Address(value).ipv4_mapped is not None
    except ValueError:
        return False


def dhcp_options(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """Private options unique and within 224-254, NTP servers IPv4 addresses. The private options' causes
    name the spec itself, not the interface."""
    at = interfaces_path(field).index(idx)
    options = iface.get("dhcpOptions")
    if options is None:
        return []
    options = options if isinstance(options, dict) else {}
    private = [o if isinstance(o, dict) else {} for o in options.get("privateOptions") or []]
    causes = []
    if len({number(o, "option") for o in private}) < len(private):
        causes.append(field.cause("Found Duplicates: you have provided duplicate DHCPPrivateOptions"))
    for option in private:
        if number(option, "option") not in PRIVATE_OPTIONS:
            causes.append(field.cause("provided DHCPPrivateOptions are out of range, must be in range 224 to 254"))
    for i, server in enumerate(options.get("ntpServers") or []):
        if not is_ipv4(server):
            causes.append(at.child("dhcpOptions", "ntpServers").index(i).cause(
                "NTP servers must be a list of valid IPv4 addresses."))
    return causes
