"""Bindings KubeVirt discontinued in v1.3, refused on creation (pkg/network/admitter/discontinued.go)."""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath, Spec
from .spec import interfaces, interfaces_path

# binding key on the interface -> KubeVirt's message, in the validator's order
DISCONTINUED = (
    ("slirp", "Slirp interface support has been discontinued since v1.3"),
    ("passt", "Passt network binding has been discontinued since v1.3"),
    ("macvtap", "Macvtap network binding has been discontinued since v1.3"),
)


def discontinued_bindings(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateDiscontinuedBindings``: one cause per discontinued binding, interface by interface."""
    causes = []
    # before v1.8.0 only slirp (validateCreationSlirpBinding); passt and macvtap had their own checks
    found = DISCONTINUED if cfg.release.discontinues_passt_and_macvtap_bindings else DISCONTINUED[:1]
    for idx, iface in enumerate(interfaces(spec)):
        for binding, message in found:
            if iface.get(binding) is not None:  # has(), inline: every interface asks
                causes.append(interfaces_path(field).index(idx).child(binding).cause(message))
    return causes


def controller_refusal(spec: Spec, cfg: ClusterConfig) -> str | None:
    """virt-controller's own refusal to create a VMI with discontinued bindings (``startVMI`` in
    pkg/virt-controller/watch/vm/vm.go runs ``ValidateCreation`` on the VMI it is about to create): the causes
    printed as Go prints ``*metav1.StatusCause`` values joined by ``errors.Join``. The VM webhook refuses such a
    VM on create first; this is reached by a VM admitted before the bindings were discontinued."""
    causes = discontinued_bindings(FieldPath.of("spec"), spec, cfg)
    printed = [f"&StatusCause{{Type:FieldValueInvalid,Message:{c.message},Field:{c.field},}}" for c in causes]
    return "failed create validation: " + "\n".join(printed) if printed else None
