"""The API identity of catalog objects: group version, the four kinds, and the label prefix they share."""

from __future__ import annotations

API_VERSION = "instancetype.kubevirt.io/v1beta1"

CLUSTER_INSTANCETYPE = "VirtualMachineClusterInstancetype"
CLUSTER_PREFERENCE = "VirtualMachineClusterPreference"
INSTANCETYPE = "VirtualMachineInstancetype"
PREFERENCE = "VirtualMachinePreference"

#: The catalog ships every object in both scopes; the namespaced copy differs only in its kind.
INSTANCETYPE_KINDS = (CLUSTER_INSTANCETYPE, INSTANCETYPE)
PREFERENCE_KINDS = (CLUSTER_PREFERENCE, PREFERENCE)
KINDS = (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE)

#: Prefix of the labels (and instancetype annotations) common-instancetypes sets on its objects.
PREFIX = "instancetype.kubevirt.io/"
VENDOR = "kubevirt.io"
