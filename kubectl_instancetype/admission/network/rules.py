"""The network admitter's entry points (pkg/network/admitter/validator.go) and the DRA admitter's creation
checks, each an ordered table of rules in KubeVirt's order.

* :func:`validate` is ``Validator.Validate``, which ``ValidateVirtualMachineInstanceSpec`` runs;
* :func:`dra_creation` is ``draadmitter.ValidateCreation``, run by it right after;
* :func:`validate_creation` is ``Validator.ValidateCreation``, which the VM webhook runs on create;
* :func:`vmi_spec_validators` is the SIG-Network spec validator virt-api registers with the VMI create
  webhook (pkg/virt-api/api.go: ``netadmitter.Validate``, creation rules then :func:`validate`), so a VMI
  meets :func:`validate`'s rules twice and a refusal repeats their causes.
"""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath, Rule, Spec, run_rules
from . import binding, claims, dhcp, discontinued, dra, netiface, netsource, ports, state
from .spec import InterfaceCheck, NetRule, NetSpec, each_interface

# validateInterfacesFields: each interface through these, interface by interface, each with the interface's
# keys it reads (None: its name, which every interface has, even empty): an interface holding none of them
# passes the check.
INTERFACE_FIELDS: tuple[tuple[InterfaceCheck, frozenset[str] | None], ...] = (
    (netiface.name_format, None),
    (netiface.model, frozenset(("model",))),
    (netiface.mac_address, frozenset(("macAddress",))),
    (netiface.pci_address, frozenset(("pciAddress",))),
    (ports.ports, frozenset(("ports",))),
    (ports.port_ranges, frozenset(("portRanges",))),
    (dhcp.dhcp_options, frozenset(("dhcpOptions",))),
)


def interfaces_fields(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfacesFields``."""
    return each_interface(field, spec, cfg, INTERFACE_FIELDS)


VALIDATE: tuple[NetRule, ...] = (
    netsource.single_pod_network,
    netsource.single_network_source,
    netsource.multus_network_source,
    state.interface_state,
    binding.interface_binding,
    netiface.network_name_unique,
    dra.network_devices,
    netiface.networks_assigned,
    netiface.interface_name_unique,
    netiface.interfaces_assigned,
    interfaces_fields,
)
CREATION: tuple[Rule, ...] = (discontinued.discontinued_bindings,)


def validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``Validator.Validate``."""
    net_spec = NetSpec.of(spec)
    causes: list[Cause] = []
    for rule in VALIDATE:
        causes.extend(rule(field, net_spec, cfg))
    return causes


def dra_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``draadmitter.ValidateCreation``."""
    return claims.creation(field, spec, cfg)


def validate_creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``Validator.ValidateCreation``."""
    return run_rules(CREATION, field, spec, cfg)


def vmi_spec_validators(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``netadmitter.Validate``: the creation rules, then :func:`validate`."""
    return [*validate_creation(field, spec, cfg), *validate(field, spec, cfg)]
