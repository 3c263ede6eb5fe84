"""Where the launcher Pod may run: node selectors and affinity (``nodeselectorrenderer.go`` and the
affinity helpers of ``template.go``).

``kubevirt.io/schedulable``, the architecture, the CR's node selectors, the VMI's, then the labels the node
labeller publishes for what the VMI needs: CPU manager, Hyper-V features (HypervStrictCheck), CPU model and
features, machine type, TSC frequency, realtime, SEV/SEV-ES/SEV-SNP, Secure Execution, TDX. Affinity: the VMI's,
then "not an obsolete host model" for host-model CPUs and "without the feature" for each forbidden one.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import clone_json
from ..config import ClusterConfig
from . import settings, traits

Spec = dict[str, Any]
HYPERV_LABELS = ("vpindex", "runtime", "reset", "synic", "synictimer", "frequencies", "reenlightenment", "tlbflush",
                 "ipi")
HYPERV_FIELDS = {"vpindex": "vpindex", "runtime": "runtime", "reset": "reset", "synic": "synic",
                 "synictimer": "synictimer", "frequencies": "frequencies", "reenlightenment": "reenlightenment",
                 "tlbflush": "tlbflush", "ipi": "ipi"}


def node_selector(vmi: Spec, cfg: ClusterConfig) -> dict[str, str]:
    """``NewNodeSelectorRenderer(...).Render()``."""
    spec = traits.spec_of(vmi)
    arch = str(spec.get("architecture") or "")
    out = {"kubevirt.io/schedulable": "true"}
    if arch:
        out["kubernetes.io/arch"] = arch.lower()
    out.update(settings.node_selectors(cfg))
    out.update({str(k): str(v) for k, v in (spec.get("nodeSelector") or {}).items()})
    cpu = traits.cpu(vmi) or {}
    if traits.is_cpu_dedicated(vmi):
        out["kubevirt.io/cpumanager" if cfg.release.cpumanager_label_qualified else "cpumanager"] = "true"
    if settings.gate(cfg, "HypervStrictCheck"):
        out.update(_hyperv(traits.domain(vmi).get("features") or {}))
    model = str(cpu.get("model") or "")
    if model and model not in ("host-model", "host-passthrough"):
        out["cpu-model.node.kubevirt.io/" + model] = "true"
    status_machine = ((vmi.get("status") or {}).get("machine") or {}).get("type")
    machine = status_machine or (traits.domain(vmi).get("machine") or {}).get("type")
    if machine:
        out["machine-type.node.kubevirt.io/" + str(machine)] = "true"
    if model:
        for feature in cpu.get("features") or ():
            if isinstance(feature, dict) and feature.get("policy") in (None, "", "require"):
                out["cpu-feature.node.kubevirt.io/" + str(feature.get("name"))] = "true"
    frequency = tsc_frequency_required(vmi)
    if frequency is not None:
        out[f"scheduling.node.kubevirt.io/tsc-frequency-{frequency}"] = "true"
    if cpu.get("realtime") is not None:
        out["kubevirt.io/realtime"] = "true"
    for applies, label in ((traits.is_sev, "kubevirt.io/sev"), (traits.is_sev_es, "kubevirt.io/sev-es"),
                           (traits.is_sev_snp, "kubevirt.io/sev-snp"),
                           (traits.is_secure_execution, "kubevirt.io/s390-pv"), (traits.is_tdx, "kubevirt.io/tdx")):
        if applies(vmi):
            out[label] = "true"
    return out


def tsc_frequency_required(vmi: Spec) -> int | None:
    """``topology.IsManualTSCFrequencyRequired``: the hint's frequency when the VMI needs a fixed TSC."""
    hints = (vmi.get("status") or {}).get("topologyHints") or {}
    frequency = hints.get("tscFrequency")
    if not isinstance(frequency, int) or frequency <= 0 or not needs_tsc(vmi):
        return None
    return frequency


def needs_tsc(vmi: Spec) -> bool:
    """``GetTscFrequencyRequirement(vmi).Type != NotRequired``: an invtsc feature required (or forced), or
    Hyper-V reenlightenment explicitly enabled (``pkg/virt-controller/watch/topology/tsc.go``)."""
    cpu = traits.cpu(vmi) or {}
    for feature in cpu.get("features") or ():
        if isinstance(feature, dict) and feature.get("name") == "invtsc" and feature.get("policy") in ("require",
                                                                                                         "force"):
            return True
    hyperv = (traits.domain(vmi).get("features") or {}).get("hyperv") or {}
    reenlightenment = hyperv.get("reenlightenment")
    return isinstance(reenlightenment, dict) and reenlightenment.get("enabled") is True


def requires_tsc_for_boot(vmi: Spec) -> bool:
    """An invtsc feature required or forced (``RequiredForBoot``)."""
    cpu = traits.cpu(vmi) or {}
    return any(isinstance(f, dict) and f.get("name") == "invtsc" and f.get("policy") in ("require", "force")
               for f in cpu.get("features") or ())


def _hyperv(features: Spec) -> dict[str, str]:
    hyperv = features.get("hyperv")
    if not isinstance(hyperv, dict):
        return {}
    out = {}
    for label in HYPERV_LABELS:
        state = hyperv.get(label)
        if label == "synictimer":
            state = {"enabled": (hyperv.get("synictimer") or {}).get("enabled")} if hyperv.get("synictimer") else {}
        if isinstance(state, dict) and state.get("enabled") is True:
            out["hyperv.node.kubevirt.io/" + label] = "true"
    evmcs = hyperv.get("evmcs")
    if isinstance(evmcs, dict) and evmcs.get("enabled") is not False:
        out["cpu-vendor.node.kubevirt.io/Intel"] = "true"
    return out


def _reject(affinity: Spec | None, label: str) -> Spec:
    """``modifyNodeAffintyToRejectLabel``: a DoesNotExist requirement in every required term."""
    requirement = {"key": label, "operator": "DoesNotExist"}
    out = clone_json(affinity) if affinity else {}
    node = out.get("nodeAffinity")
    if isinstance(node, dict):
        required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
        if isinstance(required, dict):
            for term in required.get("nodeSelectorTerms") or ():
                term["matchExpressions"] = [*(term.get("matchExpressions") or []), requirement]
        else:
            node["requiredDuringSchedulingIgnoredDuringExecution"] = {
                "nodeSelectorTerms": [{"matchExpressions": [requirement]}]}
    else:
        out["nodeAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [requirement]}]}}
    return out


def affinity(vmi: Spec) -> Spec | None:
    """The VMI's affinity with ``setNodeAffinityForPod``'s requirements."""
    out = clone_json(traits.spec_of(vmi).get("affinity")) if isinstance(traits.spec_of(vmi).get("affinity"), dict) \
        else None
    cpu = traits.cpu(vmi)
    if cpu is None or not cpu.get("model") or cpu.get("model") == "host-model":
        out = _reject(out, "node-labeller.kubevirt.io/obsolete-host-model")
    for feature in (cpu or {}).get("features") or ():
        if isinstance(feature, dict) and feature.get("policy") == "forbid":
            out = _reject(out, "cpu-feature.node.kubevirt.io/" + str(feature.get("name")))
    return out
