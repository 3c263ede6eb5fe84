"""Bindings KubeVirt discontinued in v1.3, refused on creation (pkg/network/admitter/discontinued.go)."""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath, Spec
from .spec import has, interfaces, interfaces_path

# binding key on the interface -> KubeVirt's message, in the validator's order
DISCONTINUED = (
    ("slirp", "Slirp interface support has been discontinued since v1.3"),
    ("passt", "Passt network binding has been discontinued since v1.3"),
    ("macvtap", "Macvtap network binding has been discontinued since v1.3"),
)


def discontinued_bindings(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateDiscontinuedBindings``: one cause per discontinued binding, interface by interface."""
    causes = []
    for idx, iface in enumerate(interfaces(spec)):
        for binding, message in DISCONTINUED:
            if has(iface, binding):
                causes.append(interfaces_path(field).index(idx).child(binding).cause(message))
    return causes
