"""Interface bindings KubeVirt discontinued in v1.3 (pkg/network/admitter/discontinued.go).

A VirtualMachine may still name ``slirp``, ``passt`` or ``macvtap`` on an interface: the VM webhooks that
KubeVirt's instance type code models let it through, but virt-controller runs the network validator's
creation checks on the VMI it is about to create (``startVMI`` in pkg/virt-controller/watch/vm/vm.go) and
refuses to start the VM.
"""

from __future__ import annotations

from typing import Any

Spec = dict[str, Any]

# binding key on the interface -> KubeVirt's message, in the validator's order
_DISCONTINUED = (
    ("slirp", "Slirp interface support has been discontinued since v1.3"),
    ("passt", "Passt network binding has been discontinued since v1.3"),
    ("macvtap", "Macvtap network binding has been discontinued since v1.3"),
)


def discontinued_bindings(spec: Spec) -> list[str]:
    """One cause per discontinued binding in a VMI spec, printed as Go prints a ``*metav1.StatusCause``."""
    interfaces = ((spec.get("domain") or {}).get("devices") or {}).get("interfaces") or []
    causes = []
    for index, iface in enumerate(interfaces):
        for binding, message in _DISCONTINUED:
            if isinstance(iface, dict) and iface.get(binding) is not None:
                field = f"spec.domain.devices.interfaces[{index}].{binding}"
                causes.append(f"&StatusCause{{Type:FieldValueInvalid,Message:{message},Field:{field},}}")
    return causes


def creation_problem(spec: Spec) -> str | None:
    """virt-controller's refusal to create a VMI with discontinued bindings (causes joined by ``errors.Join``)."""
    causes = discontinued_bindings(spec)
    return "failed create validation: " + "\n".join(causes) if causes else None
