"""IP addresses as Kubernetes' ``netutils.ParseIPSloppy`` reads them and Go's ``net.IP.String`` prints them
(k8s.io/utils/internal/third_party/forked/golang/net/ip.go).

KubeVirt decodes a VMI spec's ``dnsConfig.nameservers`` (and DHCP ``ntpServers``) through this pair
(staging/src/kubevirt.io/api/core/v1/sanitizers.go, ``sanitizeIP``): an address is rewritten in its
canonical spelling (``010.0.0.1`` is ``10.0.0.1``, ``::ffff:1.2.3.4`` is ``1.2.3.4``); anything else is kept.
Unlike Go 1.17's ``net.ParseIP``, the sloppy parser accepts IPv4 parts with leading zeros.
"""

from __future__ import annotations

import ipaddress

_BIG = 0xFFFFFF  # dtoi/xtoi give up at this value


def _ipv4(text: str) -> bytes | None:
    """``parseIPv4``: four decimal parts of at most 255, leading zeros allowed."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    out = []
    for part in parts:
        if not part or not part.isascii() or not part.isdigit():
            return None
        value = int(part)
        if value > 0xFF:
            return None
        out.append(value)
    return bytes(out)


def _ipv6(text: str) -> bytes | None:
    """``parseIPv6``: hex groups, one ``::``, an IPv4 tail; each group at most 0xFFFF."""
    if "." in text:
        head, _, tail = text.rpartition(":")
        v4 = _ipv4(tail)
        if v4 is None:
            return None
        text = f"{head}:{v4[0] << 8 | v4[1]:x}:{v4[2] << 8 | v4[3]:x}"
    halves = text.split("::")
    if len(halves) > 2:
        return None
    groups = [_groups(half) for half in halves]
    if any(g is None for g in groups):
        return None
    words = [w for g in groups for w in g or []]
    complete = len(words) <= 7 if len(halves) == 2 else len(words) == 8  # "::" stands for one group or more
    if not complete:
        return None
    if len(halves) == 2:
        left = groups[0] or []
        words = [*left, *([0] * (8 - len(words))), *(groups[1] or [])]
    return b"".join(w.to_bytes(2, "big") for w in words)


def _groups(half: str) -> list[int] | None:
    if half == "":
        return []
    out = []
    for group in half.split(":"):
        if not group or any(c not in "0123456789abcdefABCDEF" for c in group):
            return None
        value = int(group, 16)
        if value > 0xFFFF or value >= _BIG:
            return None
        out.append(value)
    return out


def parse_sloppy(text: str) -> bytes | None:
    """``ParseIPSloppy``: the address's 4 or 16 bytes, or None. The first '.' or ':' decides the family."""
    for char in text:
        if char == ".":
            return _ipv4(text)
        if char == ":":
            return _ipv6(text)
    return None


def ip_string(address: bytes) -> str:
    """Go's ``IP.String``: dotted IPv4 (also for IPv4-mapped IPv6), else RFC 5952 IPv6."""
    if len(address) == 16 and address[:12] == b"\x00" * 10 + b"\xff\xff":
        address = address[12:]
    if len(address) == 4:
        return ".".join(str(b) for b in address)
    return ipaddress.IPv6Address(address).compressed


def sanitize_ip(text: str) -> str:
    """KubeVirt's ``sanitizeIP`` as its decoder uses it: the canonical spelling, or ``text`` unchanged."""
    address = parse_sloppy(text)
    return text if address is None else ip_string(address)
