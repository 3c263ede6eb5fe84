"""An interface's requested link state (pkg/network/admitter/admit.go, ``validateInterfaceStateValue``)."""

from __future__ import annotations

from ...config import ClusterConfig
from ...schema.fielderror import go_quote
from ..cause import Cause, FieldPath
from .spec import NetSpec, default_network, has, interfaces_path, name, text

ABSENT, DOWN, UP = "absent", "down", "up"


def interface_state(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """A known state; no link state on SR-IOV; ``absent`` only on a bridge to a network other than the
    default one."""
    causes = []
    for idx, iface in enumerate(spec.interfaces):
        state = text(iface, "state")
        if not state:
            continue  # no state: nothing below refuses it
        at = interfaces_path(field).index(idx).child("state")
        quoted = f"{go_quote(name(iface))} interface's state {go_quote(state)}"
        if state not in ("", ABSENT, DOWN, UP):
            causes.append(at.cause(f"logical {name(iface)} interface state value is unsupported: {state}"))
        if has(iface, "sriov") and state in (DOWN, UP):
            causes.append(at.cause(f"{quoted} is not supported for SR-IOV NICs"))
        if state == ABSENT and not has(iface, "bridge"):
            causes.append(at.cause(f"{quoted} is supported only for bridge binding"))
        if state == ABSENT:
            default = default_network(spec.networks)  # only an absent interface asks
            if default is not None and name(default) == name(iface):
                causes.append(at.cause(f"{quoted} is not supported on default networks"))
    return causes
