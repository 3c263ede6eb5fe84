"""How a VMI starts, runs and is placed (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go:
``validateStartStrategy``, ``validateSpecAffinity``, ``validateSpecTopologySpreadConstraints``, ``validateProbe``
with the pod network check, ``validateLiveMigration``, ``validateRebootPolicy``, ``validateServiceAccountName``).
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..schema.fielderror import go_quote
from ..schema.names import dns1123_subdomain
from . import gates, placement
from .cause import Cause, FieldPath, Spec

PAUSED = "Paused"
EVICTION_STRATEGIES = ("LiveMigrate", "LiveMigrateIfPossible", "None", "External")
PROBE_HANDLERS = ("httpGet", "tcpSocket", "exec", "guestAgentPing")


def start_strategy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateStartStrategy``: only ``Paused``, and not with a liveness probe."""
    strategy = spec.get("startStrategy")
    if strategy is None:
        return []
    at = field.child("startStrategy")
    if strategy != PAUSED:
        return [at.cause(f"{at} is set with an unrecognized option: {strategy}")]
    if spec.get("livenessProbe") is not None:
        return [at.cause(f"either {at} or {field.child('livenessProbe')} should be provided.Pausing VMI with "
                         "LivenessProbe is not supported")]
    return []


def affinity(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateSpecAffinity``: Kubernetes' affinity rules (:func:`.placement.affinity`)."""
    value = spec.get("affinity")
    return [] if value is None else placement.affinity(field, value)


def topology_spread_constraints(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateSpecTopologySpreadConstraints`` (:func:`.placement.topology_spread_constraints`)."""
    value = spec.get("topologySpreadConstraints")
    return [] if value is None else placement.topology_spread_constraints(field.child("topologySpreadConstraints"),
                                                                          value)


def probes(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateProbe`` for the readiness and liveness probes (one handler each), then, without a pod
    network, their HTTP and TCP handlers are refused."""
    kinds = ("readinessProbe", "livenessProbe")
    if spec.get(kinds[0]) is None and spec.get(kinds[1]) is None:
        return []  # most specs have no probe
    causes = [cause for kind in kinds for cause in _probe(field.child(kind), spec.get(kind))]
    if any((network or {}).get("pod") is not None for network in spec.get("networks") or []):
        return causes
    for kind in kinds:
        probe = spec.get(kind)
        for handler in ("httpGet", "tcpSocket"):
            if probe is not None and probe.get(handler) is not None:
                at = field.child(kind, handler)
                causes.append(at.cause(f"{at} is only allowed if the Pod Network is attached"))
    return causes


def _probe(at: FieldPath, probe: Any) -> list[Cause]:
    if probe is None:
        return []
    handlers = sum(probe.get(handler) is not None for handler in PROBE_HANDLERS)
    if handlers > 1:
        return [at.cause(f"{at} must have exactly one probe type set")]
    if handlers < 1:
        return [at.cause(f"either {at.child('tcpSocket')}, {at.child('exec')} or {at.child('httpGet')} must be set "
                         f"if a {at} is specified")]
    return []


def live_migration(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateLiveMigration``: the spec's eviction strategy (else the cluster's) is one KubeVirt knows."""
    strategy = spec.get("evictionStrategy")
    if strategy is None or strategy in EVICTION_STRATEGIES:
        return []  # the cluster's own strategy was checked when the configuration was read
    at = field.child("evictionStrategy")
    return [at.cause(f"{at} is set with an unrecognized option: {strategy}")]


def reboot_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateRebootPolicy``: a reboot policy needs the RebootPolicy gate."""
    if (spec.get("domain") or {}).get("rebootPolicy") is None or gates.is_enabled(cfg, "RebootPolicy"):
        return []
    return [field.child("domain", "rebootPolicy").cause(
        "RebootPolicy is specified but the RebootPolicy feature gate is not enabled")]


def service_account_name(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateServiceAccountName``: a DNS-1123 subdomain, the one a serviceAccount volume names."""
    name = spec.get("serviceAccountName") or ""
    if not name or not cfg.release.validates_service_account_name:
        return []
    at = field.child("serviceAccountName")
    causes = []
    errors = dns1123_subdomain(name)
    if errors:
        causes.append(at.cause(f"{at} is not a valid service account name: {'; '.join(errors)}"))
    for volume in spec.get("volumes") or []:
        account = (volume or {}).get("serviceAccount")
        if account is not None and (account.get("serviceAccountName") or "") != name:
            other = account.get("serviceAccountName") or ""
            causes.append(at.cause(f"spec.serviceAccountName {go_quote(name)} and serviceAccount volume "
                                   f"{go_quote(other)} must reference the same service account"))
            break
    return causes
