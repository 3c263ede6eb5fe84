"""An interface's MAC and PCI addresses as KubeVirt parses them (pkg/network/link/mac.go with Go's
``net.ParseMAC``; pkg/util/hardware/hw_utils.go, ``ParsePciAddress``)."""

from __future__ import annotations

import re
from functools import cache


# PCI_ADDRESS_PATTERN; Go's \d is ASCII only.
@cache
def pci_address_re() -> re.Pattern[str]:
    """A PCI address (compiled on first use)."""
    return re.compile(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])")


_HEX = b"0123456789abcdefABCDEF"


def _hex_byte(data: bytes, sep: int | None) -> bool:
    """``xtoi2``: two hex digits, followed by ``sep`` if anything follows."""
    if len(data) > 2 and data[2] != sep:
        return False
    return len(data) >= 2 and data[0] in _HEX and data[1] in _HEX


def parse_mac(text: str) -> int | None:
    """``net.ParseMAC``: the address's length in bytes, or None when Go refuses it (colon, hyphen or dot
    notation, 6, 8 or 20 bytes)."""
    s = text.encode("utf-8")
    if len(s) < 14:
        return None
    if s[2] in b":-":
        if (len(s) + 1) % 3:
            return None
        n = (len(s) + 1) // 3
        if n not in (6, 8, 20):
            return None
        return n if all(_hex_byte(s[3 * i:], s[2]) for i in range(n)) else None
    if s[4] == ord("."):
        if (len(s) + 1) % 5:
            return None
        n = 2 * (len(s) + 1) // 5
        if n not in (6, 8, 20):
            return None
        groups = range(0, len(s), 5)
        return n if all(_hex_byte(s[x:x + 2], None) and _hex_byte(s[x + 2:], s[4]) for x in groups) else None
    return None


def mac_error(mac: str) -> str | None:
    """``link.ValidateMacAddress``: None for an empty or valid address, else the error's text."""
    if not mac:
        return None
    length = parse_mac(mac)
    if length is None:
        return f"malformed MAC address ({mac})"
    if length > 6:
        return f"too long MAC address ({mac})"
    return None


def is_pci_address(text: str) -> bool:
    """``ParsePciAddress`` succeeds."""
    return pci_address_re().fullmatch(text) is not None
