"""The VirtualMachine validating webhook on CREATE after its instancetype part
(pkg/virt-api/webhooks/validating-webhook/admitters/vms-admitter.go, ``VMsAdmitter.Admit``).

The instancetype part (spread, conflicts, cluster defaults, preference requirements) is the pipeline's
``admit`` stage; it hands over the VM as received and the template spec it applied the instancetype,
preference and defaults to. Then, in KubeVirt's order, each step refusing with all of its causes:

1. the discontinued feature gates the VM's own template uses (:func:`.gates.discontinued_in_use`);
2. the network admitter's creation rules, on the applied template (:func:`.network.rules.validate_creation`);
3. ``ValidateVirtualMachineSpec`` on the VM with the applied template (:func:`validate_vm_spec`);
4. the storage admitter on the VM as received (:func:`.datavolumes.storage_admit`).

``validateVolumeRequests`` and the storage admitter's status checks read ``status``, which the API server
drops from a new object before any webhook sees it, so they have nothing to check on create.
An admitted VM gets the webhook's warnings.
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..records import dataclass
from . import cpu, datavolumes, gates, memory, metadata, vmi_spec
from .cause import Cause, FieldPath, Spec
from .network import rules as network

RUN_STRATEGIES = ("Halted", "Manual", "Always", "RerunOnFailure", "Once")
WAIT_AS_RECEIVER = "WaitAsReceiver"
RUNNING_DEPRECATED = "spec.running is deprecated, please use spec.runStrategy instead."
ROOT = FieldPath.of("spec")  # paths are immutable values: one of each will do
# vms-admitter.go builds the network validator with field.NewPath("spec") over the template spec: its causes
# read "spec.domain...", while they stand for the template's fields.
TEMPLATE_AS_SPEC = FieldPath(("spec", "template", "spec"), "spec")


@dataclass(frozen=True)
class Verdict:
    """What the webhook answers: the causes of a refusal (the first failing step's), or warnings."""

    causes: tuple[Cause, ...] = ()
    warnings: tuple[str, ...] = ()


def admit_create(vm: Spec, applied: Spec, namespace: str, cfg: ClusterConfig) -> Verdict:
    """The steps after the instancetype part for ``vm`` (as received) whose template spec, with the
    instancetype, preference and cluster defaults applied, is ``applied``."""
    spec = vm.get("spec") or {}
    template = spec.get("template")
    own = (template or {}).get("spec") or {}
    steps = (
        lambda: gates.discontinued_in_use(cfg, own),
        lambda: network.validate_creation(TEMPLATE_AS_SPEC, applied, cfg),
        lambda: validate_vm_spec(ROOT, {**spec, "template": {**template, "spec": applied}} if template else spec, cfg),
        lambda: datavolumes.storage_admit(vm, namespace, cfg),
    )
    for step in steps:
        causes = step()
        if causes:
            return Verdict(tuple(causes))
    warnings = [*gates.deprecated_in_use(cfg, own)]
    if spec.get("running") is not None:
        warnings.append(RUNNING_DEPRECATED)
    return Verdict(warnings=tuple(warnings))


def validate_vm_spec(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateVirtualMachineSpec``: the template's metadata and spec, the DataVolume templates, the run
    strategy and the live-update limits. Also the VirtualMachinePool webhook's check of its VM template."""
    template = spec.get("template")
    if not isinstance(template, dict):
        return [field.child("template").cause("missing virtual machine template.")]
    meta, tspec = template.get("metadata") or {}, template.get("spec") or {}
    at_meta = field.child("template", "metadata")
    return [
        *metadata.vmi_metadata(at_meta, meta, cfg, False),
        *metadata.grace_io_annotations(at_meta, tspec, meta.get("annotations") or {}, cfg),
        *vmi_spec.validate(field.child("template", "spec"), tspec, cfg),
        *datavolumes.data_volume_templates(field, spec, cfg),
        *run_strategy(field, spec, cfg),
        *live_update(field, tspec, cfg),
    ]


def run_strategy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateRunStrategy``: exactly one of ``running`` and ``runStrategy``, a strategy KubeVirt knows."""
    running, strategy = spec.get("running"), spec.get("runStrategy")
    causes = []
    if running is not None and strategy is not None:
        causes.append(field.child("running").cause(
            "Running and RunStrategy are mutually exclusive. Note that Running is deprecated, please use "
            "RunStrategy instead"))
    if running is None and strategy is None:
        causes.append(field.child("running").cause("RunStrategy must be specified"))
    if strategy is None:
        return causes
    if strategy == WAIT_AS_RECEIVER and cfg.release.knows_wait_as_receiver:
        if not gates.is_enabled(cfg, "DecentralizedLiveMigration"):
            causes.append(field.child("runStrategy").cause(
                f"Invalid RunStrategy ({strategy}), DecentralizedLiveMigration feature gate is not enabled in "
                "kubevirt resource"))
    elif strategy not in RUN_STRATEGIES:
        causes.append(field.child("runStrategy").cause(f"Invalid RunStrategy ({strategy})"))
    return causes


def live_update(field: FieldPath, tspec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateLiveUpdateFeatures``: only under ``vmRolloutStrategy: LiveUpdate``."""
    if not cfg.live_update:
        return []
    domain: dict[str, Any] = tspec.get("domain") or {}
    causes = []
    if domain.get("cpu") is not None:
        causes.extend(cpu.live_update_cpu(field, tspec, cfg))
    if (domain.get("memory") or {}).get("maxGuest") is not None:
        causes.extend(memory.live_update_memory(field, tspec, cfg))
    return causes
