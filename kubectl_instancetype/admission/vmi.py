"""The VirtualMachineInstance validating webhook on CREATE (pkg/virt-api/webhooks/validating-webhook/
admitters/vmi-create-admitter.go, ``VMICreateAdmitter.Admit``), as virt-api serves it to virt-controller.

Unlike the VM webhook it gathers every step's causes before answering. The request comes from
virt-controller's service account, so the reserved ``kubevirt.io/`` labels the controller sets are allowed.
"""

from __future__ import annotations

from ..config import ClusterConfig
from . import disks, gates, machine, memory, metadata, vmi_spec, volumes
from .cause import Cause, FieldPath, Rule, Spec, run_rules
from .network import rules as network
from .vm import Verdict


def storage_validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """SIG-Storage's VMI validator (pkg/storage/admitters/vmi-storage-admitter.go, ``Validate``): registered
    after v1.9.0 only (``release.vmi_webhook_repeats_disk_causes``), so main gives these causes a second time."""
    if not cfg.release.vmi_webhook_repeats_disk_causes:
        return []
    return [
        *volumes.container_disks(field, spec, cfg),
        *volumes.utility_volumes_on_creation(field, spec, cfg),
        *disks.validate_disks(field.child("domain", "devices", "disks"), _disks(spec), cfg),
    ]


def _disks(spec: Spec) -> list[object]:
    return list(((spec.get("domain") or {}).get("devices") or {}).get("disks") or [])


# The spec validators virt-api registers with the webhook (pkg/virt-api/api.go), in its order.
SPEC_VALIDATORS: tuple[Rule, ...] = (network.vmi_spec_validators, storage_validate)


def admit_create(vmi: Spec, cfg: ClusterConfig) -> Verdict:
    """The webhook's answer for ``vmi``: every cause, or the deprecation warnings."""
    spec, meta = vmi.get("spec") or {}, vmi.get("metadata") or {}
    root, at_meta = FieldPath.of("spec"), FieldPath.of("metadata")
    causes = [
        *gates.discontinued_in_use(cfg, spec),
        *run_rules(SPEC_VALIDATORS, root, spec, cfg),
        *vmi_spec.validate(root, spec, cfg),
        *volumes.volume_disks(root, spec, cfg),
        *memory.mandatory_fields(root, spec, cfg),
        *metadata.vmi_metadata(at_meta, meta, cfg, True),
        *metadata.grace_io_annotations(at_meta, spec, meta.get("annotations") or {}, cfg),
        *machine.hyperv(root.child("domain", "features", "hyperv"), spec, cfg),
        *machine.per_arch(root, spec, cfg),
    ]
    if causes:
        return Verdict(tuple(causes))
    return Verdict(warnings=tuple(gates.deprecated_in_use(cfg, spec)))
