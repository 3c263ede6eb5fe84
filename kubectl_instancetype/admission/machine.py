"""The machine a VMI asks for: its machine type among the cluster's emulated machines, the checks of its
architecture (:mod:`.arch`) and its Hyper-V enlightenments (:mod:`.hyperv`).

Sources: pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go (``validateEmulatedMachine``,
``ValidateVirtualMachineInstancePerArch``) and pkg/virt-api/webhooks/hyperv.go.
"""

from __future__ import annotations

from ..api.gomatch import match
from ..config import ClusterConfig, remembered
from . import arch, gates
from . import hyperv as hyperv_rules
from .cause import Cause, FieldPath, Spec
from .resources import domain, section


def emulated_machine(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateEmulatedMachine``: a machine type given matches one of the patterns the cluster allows for
    the spec's architecture (Go's ``filepath.Match``); the message lists them as Go prints a slice."""
    machine = section(domain(spec), "machine")
    kind = (machine or {}).get("type") or ""
    if not kind:
        return []
    allowed = _allowed(cfg, spec.get("architecture") or "")
    for pattern in allowed:
        if match(pattern, kind):
            return []
    at = field.child("domain", "machine", "type")
    return [at.cause(f"{at} is not supported: {kind} (allowed values: [{' '.join(allowed)}])")]


def _allowed(cfg: ClusterConfig, arch: str) -> tuple[str, ...]:
    """``cfg.emulated_machines_for(arch)``, asked for every VM: worked out once a run."""
    patterns: tuple[str, ...] = remembered(cfg, ClusterConfig.emulated_machines_for, arch)
    return patterns


def per_arch(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateVirtualMachineInstancePerArch`` (VMI webhook only)."""
    return arch.validate(field, spec, cfg.release)


def hyperv(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateVirtualMachineInstanceHyperv`` (VMI webhook only), ``field`` being
    ``spec.domain.features.hyperv``."""
    return hyperv_rules.validate(field, spec)


# virt-api's own architecture (runtime.GOARCH): KubeVirt's release images run it on amd64.
VIRT_API_ARCHITECTURE = "amd64"


def multi_architecture(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateArchitecture`` (before v1.8.0, ``release.architecture_needs_multi_architecture_gate``): an
    architecture other than virt-api's needs the MultiArchitecture gate."""
    if not cfg.release.architecture_needs_multi_architecture_gate:
        return []
    arch = spec.get("architecture") or ""
    if arch and arch != VIRT_API_ARCHITECTURE and not gates.is_enabled(cfg, "MultiArchitecture"):
        at = field.child("architecture")
        return [at.cause(f"MultiArchitecture feature gate is not enabled in kubevirt-config, invalid entry {at}")]
    return []
