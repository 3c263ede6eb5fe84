"""How a ``spread`` preference splits vCPUs (shared by the CPU applier, validation and requirements).

pkg/instancetype/preference/apply/cpu.go: the ratio starts at 2, the top-level
``preferSpreadSocketToCoreRatio`` replaces it when non-zero, ``spreadOptions.ratio`` when set (even to 0);
``across`` defaults to ``SocketsCores``.
"""

from __future__ import annotations

from typing import Any

SOCKETS_CORES = "SocketsCores"
CORES_THREADS = "CoresThreads"
SOCKETS_CORES_THREADS = "SocketsCoresThreads"

# Deprecated spellings behave exactly like their new counterparts.
TOPOLOGY_ALIASES = {
    "preferSockets": "sockets",
    "preferCores": "cores",
    "preferThreads": "threads",
    "preferSpread": "spread",
    "preferAny": "any",
}
TOPOLOGIES = frozenset(("sockets", "cores", "threads", "spread", "any"))


def preferred_topology(pref: dict[str, Any] | None) -> str:
    """The preference's CPU topology in its new spelling; ``sockets`` when unset."""
    value = ((pref or {}).get("cpu") or {}).get("preferredCPUTopology")
    if value is None:
        return "sockets"
    return TOPOLOGY_ALIASES.get(value, value)


def spread_options(pref: dict[str, Any] | None) -> tuple[int, str]:
    """(ratio, across) of a spread preference."""
    pref = pref or {}
    ratio = 2
    if pref.get("preferSpreadSocketToCoreRatio"):
        ratio = int(pref["preferSpreadSocketToCoreRatio"])
    options = (pref.get("cpu") or {}).get("spreadOptions") or {}
    if options.get("ratio") is not None:
        ratio = int(options["ratio"])
    across = options.get("across")
    return ratio, SOCKETS_CORES if across is None else str(across)
