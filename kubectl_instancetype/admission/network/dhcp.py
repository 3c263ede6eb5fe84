"""An interface's DHCP options (pkg/network/admitter/netiface.go, ``validateDHCPOptions``)."""

from __future__ import annotations

import ipaddress
import re
from functools import cache

from ...config import ClusterConfig
from ..cause import Cause, FieldPath
from .spec import Item, interface_path, number

PRIVATE_OPTIONS = range(224, 255)


@cache
def _dotted_re() -> re.Pattern[str]:
    """A dotted IPv4 address (compiled on first use)."""
    return re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)")


def _ipv4(value: str) -> bool:
    """Four decimal fields up to 255. Leading zeros pass: KubeVirt, as built for the corpus, accepts
    ``01.2.3.4`` and ``0001.2.3.4`` (its answers say so), as Go did before 1.17."""
    fields = _dotted_re().fullmatch(value)
    return fields is not None and all(int(f) <= 255 for f in fields.groups())


def is_ipv4(value: object) -> bool:
    """``net.ParseIP(ip).To4() != nil``: dotted IPv4, or IPv6 that maps an IPv4 address (no zone)."""
    if not isinstance(value, str):
        return False
    if _ipv4(value):
        return True
    if ":" not in value or "%" in value:
        return False
    head, _, tail = value.rpartition(":")
    if "." in tail:
        if not _ipv4(tail):
            return False
        octets = [int(f) for f in tail.split(".")]
        value = f"{head}:{octets[0] * 256 + octets[1]:x}:{octets[2] * 256 + octets[3]:x}"
    try:
        return ipaddress.IPv6Address(value).ipv4_mapped is not None
    except ValueError:
        return False


def dhcp_options(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """Private options unique and within 224-254, NTP servers IPv4 addresses. The private options' causes
    name the spec itself, not the interface."""
    options = iface.get("dhcpOptions")
    if options is None:
        return []
    at = interface_path(field, idx)
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
