"""Interfaces and networks by name: each network has an interface and each interface a network, names are
unique and well-formed; an interface's model and addresses (pkg/network/admitter/netiface.go)."""

from __future__ import annotations

import re

from ...config import ClusterConfig
from ...schema.fielderror import go_quote
from ..cause import Cause, FieldPath
from .address import is_pci_address, mac_error
from .spec import Item, NetSpec, interface_path, interfaces_path, name, networks_path, text

NAME_FORMAT = re.compile(r"[A-Za-z0-9_-]+")
MODELS = ("e1000", "e1000e", "igb", "ne2k_pci", "pcnet", "rtl8139", "virtio")


def networks_assigned(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateNetworksAssignedToInterfaces``: an interface of each network's name."""
    names = set(spec.interface_names)
    causes = []
    for idx, net_name in enumerate(spec.network_names):
        if net_name not in names:
            at = networks_path(field).index(idx).child("name")
            causes.append(at.cause(f"{at} '{net_name}' not found."))
    return causes


def interfaces_assigned(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfacesAssignedToNetworks``: a network of each interface's name."""
    names = set(spec.network_names)
    causes = []
    for idx, iface_name in enumerate(spec.interface_names):
        if iface_name not in names:
            at = interfaces_path(field).index(idx).child("name")
            causes.append(at.cause(f"{at} '{iface_name}' not found."))
    return causes


def network_name_unique(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateNetworkNameUnique``: every repeated network name."""
    seen: set[str] = set()
    causes = []
    for idx, net_name in enumerate(spec.network_names):
        if net_name in seen:
            causes.append(networks_path(field).index(idx).child("name").cause(
                f"Network with name {go_quote(net_name)} already exists, every network must have a unique name"))
        seen.add(net_name)
    return causes


def interface_name_unique(field: FieldPath, spec: NetSpec, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfaceNameUnique``: every repeated interface name."""
    seen: set[str] = set()
    causes = []
    for idx, iface_name in enumerate(spec.interface_names):
        if iface_name in seen:
            causes.append(interfaces_path(field).index(idx).child("name").cause(
                "Only one interface can be connected to one specific network"))
        seen.add(iface_name)
    return causes


def name_format(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfaceNameFormat``."""
    if NAME_FORMAT.fullmatch(name(iface)) is None:
        return [interface_path(field, idx).child("name").cause(
            "Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)")]
    return []


def model(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateInterfaceModel``: a model QEMU offers."""
    value = text(iface, "model")
    if value and value not in MODELS:
        at = interface_path(field, idx)
        return [at.child("model").cause(f"interface {at.child('name')} uses model {value} that is not supported.")]
    return []


def mac_address(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validateMacAddress``."""
    error = mac_error(text(iface, "macAddress"))
    if error is not None:
        at = interface_path(field, idx)
        return [at.child("macAddress").cause(f"interface {at.child('name')} has {error}.")]
    return []


def pci_address(field: FieldPath, idx: int, iface: Item, net: Item, cfg: ClusterConfig) -> list[Cause]:
    """``validatePciAddress``."""
    value = text(iface, "pciAddress")
    if value and not is_pci_address(value):
        at = interface_path(field, idx)
        return [at.child("pciAddress").cause(f"interface {at.child('name')} has malformed PCI address ({value}).")]
    return []
