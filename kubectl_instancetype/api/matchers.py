"""The two matchers of a VirtualMachine and which Kind each one's ``kind`` selects.

KubeVirt lower-cases the kind (Go's ``strings.ToLower``), accepts singular and plural resource names, and
reads an empty kind as the cluster-scoped one (pkg/instancetype/find/spec.go, preference/find/spec.go,
and the same rule for the name annotations in pkg/virt-controller/watch/vm/vm.go).
"""

from __future__ import annotations

from typing import Any

from ..records import dataclass
from .golang import go_lower
from .names import CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE
from .releases import DEFAULT, Release


@dataclass(frozen=True)
class MatcherKind:
    """What one of the two matchers of a VM (instancetype or preference) refers to."""

    field: str  # "instancetype" or "preference"
    namespaced: str  # the namespaced Kind
    cluster: str  # the cluster-scoped Kind
    matcher_name: str  # Go type name used in KubeVirt's messages
    status_field: str  # VM status reference field

    @property
    def path(self) -> tuple[str, str]:
        """The matcher's field in a VirtualMachine."""
        return ("spec", self.field)

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


INSTANCETYPE_MATCHER = MatcherKind(
    "instancetype", INSTANCETYPE, CLUSTER_INSTANCETYPE, "InstancetypeMatcher", "instancetypeRef"
)
PREFERENCE_MATCHER = MatcherKind(
    "preference", PREFERENCE, CLUSTER_PREFERENCE, "PreferenceMatcher", "preferenceRef"
)
#: KubeVirt's order: the instance type first.
MATCHERS = (INSTANCETYPE_MATCHER, PREFERENCE_MATCHER)


def matcher_causes(matcher: MatcherKind, vm: dict[str, Any],
                   release: Release = DEFAULT) -> list[tuple[str, tuple[str, ...]]]:
    """KubeVirt's causes against one matcher, in its order, with their fields (before v1.7.0: the older
    wording, at the name or kind): the VM mutating webhook's instance type mutator
    (pkg/instancetype/webhooks/vm/mutator.go), which the API server calls before the CRD validation."""
    m = (vm.get("spec") or {}).get(matcher.field)
    if m is None:
        return []
    name, infer = m.get("name") or "", m.get("inferFromVolume") or ""
    new, at = release.infer_from_volume_new_messages, matcher.path
    causes: list[tuple[str, tuple[str, ...]]] = []
    if not name and not infer:
        causes.append((f"Either Name or InferFromVolume should be provided within the {matcher.matcher_name}", at))
    if infer and name:
        causes.append(("Name already set, should be cleared before setting inferFromVolume", at) if new else
                      (f"Name should not be provided when InferFromVolume is used within the {matcher.matcher_name}",
                       (*at, "name")))
    if infer and m.get("kind"):
        causes.append(("Kind already set, should be cleared before setting inferFromVolume", at) if new else
                      (f"Kind should not be provided when InferFromVolume is used within the {matcher.matcher_name}",
                       (*at, "kind")))
    policy = m.get("inferFromVolumeFailurePolicy")
    if policy is not None and policy not in ("Ignore", "Reject"):
        causes.append((f"Invalid value '{policy}' for InferFromVolumeFailurePolicy",
                       (*at, "inferFromVolumeFailurePolicy") if not new else at))
    return causes
