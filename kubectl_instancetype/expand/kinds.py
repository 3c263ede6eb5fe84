"""Matcher kinds: which object a ``spec.instancetype`` / ``spec.preference`` matcher selects.

KubeVirt lower-cases the kind (full Unicode), accepts singular and plural resource names, and reads an
empty kind as the cluster-scoped one (pkg/instancetype/find/spec.go, preference/find/spec.go).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog import CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE


@dataclass(frozen=True)
class MatcherKind:
    """What one of the two matchers of a VM (instancetype or preference) refers to."""

    field: str  # "instancetype" or "preference"
    namespaced: str  # the namespaced Kind
    cluster: str  # the cluster-scoped Kind
    matcher_name: str  # Go type name used in KubeVirt's messages
    status_field: str  # VM status reference field

    def resolve(self, kind: str) -> str | None:
        """The Kind a matcher's ``kind`` selects, or None when KubeVirt would not accept it."""
        lowered = go_lower(kind)
        if lowered in ("", self.cluster.lower(), self.cluster.lower() + "s"):
            return self.cluster
        if lowered in (self.namespaced.lower(), self.namespaced.lower() + "s"):
            return self.namespaced
        return None

    def unexpected(self, kind: str) -> str:
        return f"got unexpected kind in {self.matcher_name}: {kind}"


def go_lower(text: str) -> str:
    """Go's strings.ToLower: simple one-to-one case mapping (Python's str.lower maps U+0130 to two
    characters and knows a final sigma; Go does neither)."""
    return "".join("i" if c == "\u0130" else c.lower() for c in text)


INSTANCETYPE_MATCHER = MatcherKind(
    "instancetype", INSTANCETYPE, CLUSTER_INSTANCETYPE, "InstancetypeMatcher", "instancetypeRef"
)
PREFERENCE_MATCHER = MatcherKind(
    "preference", PREFERENCE, CLUSTER_PREFERENCE, "PreferenceMatcher", "preferenceRef"
)

RESOURCE_NAMES = {
    INSTANCETYPE: "virtualmachineinstancetypes.instancetype.kubevirt.io",
    CLUSTER_INSTANCETYPE: "virtualmachineclusterinstancetypes.instancetype.kubevirt.io",
    PREFERENCE: "virtualmachinepreferences.instancetype.kubevirt.io",
    CLUSTER_PREFERENCE: "virtualmachineclusterpreferences.instancetype.kubevirt.io",
    "ControllerRevision": "controllerrevisions.apps",
    "PersistentVolumeClaim": "persistentvolumeclaims",
    "DataVolume": "datavolumes.cdi.kubevirt.io",
    "DataSource": "datasources.cdi.kubevirt.io",
    "VolumeSnapshot": "volumesnapshots.snapshot.storage.k8s.io",
}


def not_found(kind: str, name: str) -> str:
    """The Kubernetes API server's NotFound message for ``kind`` ``name``."""
    return f'{RESOURCE_NAMES[kind]} "{name}" not found'
