"""The VMI webhook's Hyper-V checks (pkg/virt-api/webhooks/hyperv.go, ``ValidateVirtualMachineInstanceHyperv``):
each enabled enlightenment's requirement is enabled too, ``evmcs`` comes with the ``vmx`` CPU feature at
``require``, and explicit Hyper-V features exclude ``hypervPassthrough``.

The VMI mutating webhook has already turned on every requirement left unset (:mod:`..vmi.objdefaults`), so a
requirement fails only where the spec disables it.

KubeVirt surprises twice here. The webhook hands these checks ``spec.domain.features.hyperv`` and they append
``domain.features.hyperv`` again, so the dependency causes name ``spec.domain.features.hyperv.domain.features.
hyperv.<feature>``: we print that field as KubeVirt does and locate the cause at the real feature. And the
``evmcs`` CPU feature causes name ``spec.domain.cpu.features`` whatever the path given.
"""

from __future__ import annotations

from typing import Any

from .cause import Cause, FieldPath, Spec
from .resources import cpu, domain, section

# Each enlightenment and the one it requires, leaves first, as getHypervFeatureDependencies lists them.
REQUIREMENTS = (("evmcs", "vapic"), ("ipi", "vpindex"), ("tlbflush", "vpindex"), ("synictimer", "synic"),
                ("synic", "vpindex"))
VMX, REQUIRE = "vmx", "require"  # nodelabellerutil.VmxFeature, RequirePolicy
PASSTHROUGH_EXCLUSIVE = (
    "Cannot explicitly set hyperV features if HypervPassthrough is being used. Please use either HyperV or "
    "HypervPassthrough."
)


def validate(field: FieldPath, spec: Spec) -> list[Cause]:
    """``ValidateVirtualMachineInstanceHyperv`` with ``field`` = ``spec.domain.features.hyperv``."""
    return [*_dependencies(field, spec), *_evmcs(spec), *_mode(field, spec)]


def _enabled(state: Any) -> bool:
    """``isFeatureStateEnabled``: present, with ``enabled`` set and true."""
    return isinstance(state, dict) and state.get("enabled") is True


def _state(hyperv: dict[str, Any], name: str) -> Any:
    """The feature state KubeVirt reads for ``name``: the timer-like ``synictimer`` always has one (its
    ``enabled`` copied), ``tlbflush`` one when present."""
    value = hyperv.get(name)
    if name == "synictimer":
        return {"enabled": value.get("enabled")} if isinstance(value, dict) else {}
    return value


def _dependencies(field: FieldPath, spec: Spec) -> list[Cause]:
    features = section(domain(spec), "features") or {}
    hyperv = section(features, "hyperv")
    if hyperv is None:
        return []
    shown = field.child("domain", "features", "hyperv")  # KubeVirt's doubled path
    causes = []
    for name, required in REQUIREMENTS:
        if _enabled(_state(hyperv, name)) and not _enabled(_state(hyperv, required)):
            message = f"'{shown.child(name)}' requires '{shown.child(required)}', which was disabled."
            causes.append(Cause(message, str(shown.child(name)), (*field.keys, name)))
    return causes


def _evmcs(spec: Spec) -> list[Cause]:
    hyperv = section(section(domain(spec), "features") or {}, "hyperv") or {}
    evmcs = hyperv.get("evmcs")
    if not isinstance(evmcs, dict) or evmcs.get("enabled") is False:
        return []
    features = (cpu(spec) or {}).get("features") or []
    at = FieldPath.of("spec", "domain", "cpu", "features")
    if not features:
        return [at.cause(f"{VMX} cpu feature is required when evmcs is set")]
    return [
        at.index(i).child("policy").cause(f"{VMX} cpu feature has to be set to {REQUIRE} policy")
        for i, feature in enumerate(features)
        if isinstance(feature, dict) and feature.get("name") == VMX and feature.get("policy") != REQUIRE
    ]


def _mode(field: FieldPath, spec: Spec) -> list[Cause]:
    features = section(domain(spec), "features") or {}
    if features.get("hyperv") is not None and features.get("hypervPassthrough") is not None:
        return [field.cause(PASSTHROUGH_EXCLUSIVE)]
    return []
