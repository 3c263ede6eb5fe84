"""A VMI's metadata (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go,
``ValidateVirtualMachineInstanceMetadata``; grace_io_virtualization.go, ``validateGraceIOVirtualizationAnnotations``).

The labels KubeVirt's components set on VMIs (``restrictedVmiLabels``) are refused unless the request comes
from one of KubeVirt's service accounts: virt-controller's, when it creates a VM's VMI; never a user's VM.
The ignition and hook sidecar annotations need their feature gates.
"""

from __future__ import annotations

from ..config import ClusterConfig
from . import gates, grace
from .cause import Cause, FieldPath, Spec

RESTRICTED_LABELS = frozenset((
    "kubevirt.io/created-by", "kubevirt.io/migrationJobUID", "kubevirt.io/nodeName",
    "kubevirt.io/migrationTargetNodeName", "kubevirt.io/schedulable", "kubevirt.io/install-strategy",
))
IGNITION = "kubevirt.io/ignitiondata"
HOOK_SIDECARS = "hooks.kubevirt.io/hookSidecars"


def vmi_metadata(field: FieldPath, metadata: Spec, cfg: ClusterConfig, kubevirt_service_account: bool) -> list[Cause]:
    """The reserved labels (for users), and the ignition and sidecar annotations' gates."""
    labels = metadata.get("labels") or {}
    annotations = metadata.get("annotations") or {}
    causes = []
    if labels and not kubevirt_service_account and any(label in RESTRICTED_LABELS for label in labels):
        causes.append(field.child("labels").cause(
            "creation of the following reserved kubevirt.io/ labels on a VMI object is prohibited"))
    if not annotations:
        return causes
    at = field.child("annotations")
    if annotations.get(IGNITION) and not gates.is_enabled(cfg, "ExperimentalIgnitionSupport"):
        causes.append(at.cause("ExperimentalIgnitionSupport feature gate is not enabled in kubevirt-config, "
                               f"invalid entry {at.child(IGNITION)}"))
    if annotations.get(HOOK_SIDECARS) and not gates.is_enabled(cfg, "Sidecar"):
        causes.append(at.cause(f"sidecar feature gate is not enabled in kubevirt-config, invalid entry "
                               f"{at.child(HOOK_SIDECARS)}"))
    return causes


def grace_io_annotations(field: FieldPath, spec: Spec, annotations: Spec, cfg: ClusterConfig) -> list[Cause]:
    """Grace GPU passthrough's annotations (:func:`.grace.annotation_causes`), from v1.9.0."""
    if not cfg.release.validates_grace_io_virtualization:
        return []
    return grace.annotation_causes(field, spec, annotations, cfg)
