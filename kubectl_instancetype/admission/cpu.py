"""The CPU rules of the VMI spec webhook, and the CPU hot-plug limit of a VM under the ``LiveUpdate`` rollout
strategy.

Sources: pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go (``validateCPU*``,
``validateCpu*``, ``validateNUMA``, ``validateRealtime``; the dedicated-CPU checks of ``validateCpuPinning`` in
its order) and vms-admitter.go (``validateLiveUpdateCPU``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..config import ClusterConfig
from ..quantity import Quantity
from . import gates
from .cause import Cause, FieldPath, Spec
from .resources import count, cpu, limit, listed, memory, quantity, request, vcpus

FEATURE_POLICIES = ("", "force", "require", "optional", "disable", "forbid")  # validCPUFeaturePolicies
MUST_BE_POSITIVE = "{} '{}': must be greater than or equal to 0."  # valueMustBePositiveMessagePattern
TOO_MANY_SOCKETS = "Number of sockets in CPU topology is greater than the maximum sockets allowed"

NIL_MEMORY = ("no spec.domain.memory with dedicated CPUs and no memory request or limit makes KubeVirt's webhook fail "
              "(nil pointer dereference), so the cluster refuses it")


def _at(field: FieldPath, *names: str) -> FieldPath:
    return field.child("domain", *names)


def request_not_negative(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPURequestNotNegative``."""
    if not listed(spec, "requests", "cpu"):
        return []
    requested = request(spec, "cpu")
    if requested.milli_value() >= 0:
        return []
    at = _at(field, "resources", "requests", "cpu")
    return [at.cause(MUST_BE_POSITIVE.format(at, requested))]


def limit_not_negative(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPULimitNotNegative``."""
    if not listed(spec, "limits", "cpu"):
        return []
    limited = limit(spec, "cpu")
    if limited.milli_value() >= 0:
        return []
    at = _at(field, "resources", "limits", "cpu")
    return [at.cause(MUST_BE_POSITIVE.format(at, limited))]


def request_not_over_limit(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCpuRequestDoesNotExceedLimit``: with a CPU limit, the request is not above it."""
    if not listed(spec, "limits", "cpu"):
        return []
    requested, limited = request(spec, "cpu"), limit(spec, "cpu")
    if not (limited.milli_value() > 0 and requested.milli_value() > limited.milli_value()):
        return []
    at, at_limit = _at(field, "resources", "requests", "cpu"), _at(field, "resources", "limits", "cpu")
    return [at.cause(f"{at} '{requested}' is greater than {at_limit} '{limited}'")]


def pinning(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCpuPinning``: what ``dedicatedCpuPlacement: true`` requires, in KubeVirt's order."""
    if not (cpu(spec) or {}).get("dedicatedCpuPlacement"):
        return []
    read = _Dedicated.of(spec)
    causes: list[Cause] = []
    for check in _DEDICATED_CHECKS:
        causes.extend(check(field, read, cfg))
    return causes


class _Dedicated(NamedTuple):
    """What the dedicated-CPU checks read of a spec: read once for the nine of them (most read the same
    quantities)."""

    spec: Spec
    cpu_request: Quantity
    cpu_limit: Quantity
    memory_request: Quantity
    memory_limit: Quantity
    cpu_requested: int  # the Value() of each quantity
    cpu_limited: int
    memory_requested: int
    memory_limited: int
    vcpus: int
    threads: int

    @staticmethod
    def of(spec: Spec) -> _Dedicated:
        spec_cpu, cpu_request, cpu_limit = cpu(spec), request(spec, "cpu"), limit(spec, "cpu")
        memory_request, memory_limit = request(spec, "memory"), limit(spec, "memory")
        return _Dedicated(spec, cpu_request, cpu_limit, memory_request, memory_limit, cpu_request.value(),
                          cpu_limit.value(), memory_request.value(), memory_limit.value(), vcpus(spec_cpu),
                          count(spec_cpu, "threads"))


def _memory_provided(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateMemoryIsProvided``: a memory limit or request, hugepages, or a non-zero guest memory."""
    if cfg.release.memory_provided_checks_only_resources:
        # v1.5.0-v1.6.3's validateMemoryLimitAndRequestProvided: a memory limit or request (Value() != 0), nothing else
        if read.memory_limited != 0 or read.memory_requested != 0:
            return []
        a, b = _at(field, "resources", "requests", "memory"), _at(field, "resources", "limits", "memory")
        return [b.cause(f"{a} or {b} should be provided")]
    if not read.memory_limit.is_zero() or not read.memory_request.is_zero():
        return []
    mem = memory(read.spec)
    if mem is None and cfg.release.memory_provided_panics_without_memory:
        # validateMemoryLimitAndRequestProvided (v1.6.4-v1.6.6, v1.7.0-v1.7.3) reads spec.domain.memory.hugepages
        # without looking for spec.domain.memory: the webhook panics, and the API server refuses the object
        at = _at(field, "memory")
        return [at.cause(f"{at}: {NIL_MEMORY}")]
    if mem is not None and mem.get("hugepages") is not None:
        return []
    guest = quantity((mem or {}).get("guest"))
    if guest is not None and not guest.is_zero():
        return []
    names = (("resources", "requests", "memory"), ("resources", "limits", "memory"), ("memory", "hugepages"),
             ("memory", "guest"))
    a, b, c, d = (_at(field, *n) for n in names)
    return [b.cause(f"{a}, {b}, {c} or {d} should be provided")]


def _request_integer(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPURequestIsInteger`` (KubeVirt's spelling "interger")."""
    if read.cpu_requested > 0 and read.cpu_requested * 1000 != read.cpu_request.milli_value():
        return [_at(field, "resources", "requests", "cpu").cause("provided resources CPU requests must be an interger")]
    return []


def _limit_integer(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPULimitIsInteger``."""
    if read.cpu_limited > 0 and read.cpu_limited * 1000 != read.cpu_limit.milli_value():
        return [_at(field, "resources", "limits", "cpu").cause("provided resources CPU limits must be an interger")]
    return []


def _memory_request_equals_limit(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateMemoryRequestsAndLimits``."""
    requested, limited = read.memory_requested, read.memory_limited
    if requested > 0 and limited > 0 and requested != limited:
        at, at_limit = _at(field, "resources", "requests", "memory"), _at(field, "resources", "limits", "memory")
        return [at.cause(f"{at} must be equal to {at_limit}")]
    return []


def _cpu_paths(field: FieldPath) -> tuple[FieldPath, FieldPath, FieldPath, FieldPath]:
    """The request, limit, cores and dedicatedCpuPlacement fields the dedicated-CPU messages name."""
    return (_at(field, "resources", "requests", "cpu"), _at(field, "resources", "limits", "cpu"),
            _at(field, "cpu", "cores"), _at(field, "cpu", "dedicatedCpuPlacement"))


def _something_provided(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateRequestLimitOrCoresProvidedOnDedicatedCPUPlacement`` (the trailing space is KubeVirt's)."""
    if read.cpu_requested == 0 and read.cpu_limited == 0 and read.vcpus == 0:
        req, lim, cores, dedicated = _cpu_paths(field)
        return [dedicated.cause(
            f"either {req} or {lim} or {cores} must be provided when DedicatedCPUPlacement is true ")]
    return []


def _cpu_request_equals_limit(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateRequestEqualsLimitOnDedicatedCPUPlacement``."""
    requested, limited = read.cpu_requested, read.cpu_limited
    if requested > 0 and limited > 0 and requested != limited:
        req, lim, _, dedicated = _cpu_paths(field)
        return [dedicated.cause(f"{req} or {lim} must be equal when DedicatedCPUPlacement is true ")]
    return []


def _cores_match_resources(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateRequestOrLimitWithCoresProvidedOnDedicatedCPUPlacement``: a CPU request or limit with a
    topology must equal its vCPU count (either of them)."""
    requested, limited, n = read.cpu_requested, read.cpu_limited, read.vcpus
    if (requested > 0 or limited > 0) and n > 0 and requested != n and limited != n:
        req, lim, cores, dedicated = _cpu_paths(field)
        return [dedicated.cause(
            f"{req} or {lim} must not be provided at the same time with {cores} when DedicatedCPUPlacement is true ")]
    return []


def _threads_on_arm64(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateThreadCountOnArchitecture``: one thread per core on arm64 (the spec's architecture, else the
    cluster's default)."""
    arch = read.spec.get("architecture") or cfg.default_architecture
    threads = read.threads
    if threads > 1 and arch == "arm64":
        at_threads, at_arch = _at(field, "cpu", "threads"), field.child("architecture")
        return [at_arch.cause(
            f"threads must not be greater than 1 at {at_threads} (got {threads}) when {at_arch} is arm64")]
    return []


def _threads_dedicated(field: FieldPath, read: _Dedicated, cfg: ClusterConfig) -> list[Cause]:
    """``validateThreadCountOnDedicatedCPUPlacement``."""
    threads = read.threads
    if threads > 2:
        at_threads, dedicated = _at(field, "cpu", "threads"), _at(field, "cpu", "dedicatedCpuPlacement")
        return [dedicated.cause(f"Not more than two threads must be provided at {at_threads} (got {threads}) "
                                "when DedicatedCPUPlacement is true")]
    return []


_DEDICATED_CHECKS: tuple[Callable[[FieldPath, _Dedicated, ClusterConfig], list[Cause]], ...] = (
    _memory_provided,
    _request_integer,
    _limit_integer,
    _memory_request_equals_limit,
    _something_provided,
    _cpu_request_equals_limit,
    _cores_match_resources,
    _threads_on_arm64,
    _threads_dedicated,
)


def _guest_mapping_passthrough(spec: Spec) -> bool:
    numa_spec = (cpu(spec) or {}).get("numa")
    return isinstance(numa_spec, dict) and numa_spec.get("guestMappingPassthrough") is not None


def numa(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateNUMA``: guest NUMA passthrough needs the NUMA gate, dedicated CPUs and hugepages."""
    if not _guest_mapping_passthrough(spec):
        return []
    at = _at(field, "cpu", "numa", "guestMappingPassthrough")
    causes = []
    if not gates.is_enabled(cfg, "NUMA"):
        causes.append(at.cause(f"NUMA feature gate is not enabled in kubevirt-config, invalid entry {at}"))
    if not (cpu(spec) or {}).get("dedicatedCpuPlacement"):
        dedicated = _at(field, "cpu", "dedicatedCpuPlacement")
        causes.append(at.cause(f"{dedicated} must be set to true when NUMA topology strategy is set in {at}"))
    if (memory(spec) or {}).get("hugepages") is None:
        hugepages = _at(field, "memory", "hugepages")
        causes.append(at.cause(f"{hugepages} must be requested when NUMA topology strategy is set in {at}"))
    return causes


def isolate_emulator_thread(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPUIsolatorThread``."""
    spec_cpu = cpu(spec) or {}
    if spec_cpu.get("isolateEmulatorThread") and not spec_cpu.get("dedicatedCpuPlacement"):
        at = _at(field, "cpu", "isolateEmulatorThread")
        return [at.cause("IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement")]
    return []


def feature_policies(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPUFeaturePolicies``: each CPU feature's policy is one libvirt knows (or empty)."""
    causes = []
    for i, feature in enumerate((cpu(spec) or {}).get("features") or []):
        feature = feature if isinstance(feature, dict) else {}
        policy = feature.get("policy") or ""
        if policy not in FEATURE_POLICIES:
            at = _at(field, "cpu", "features").index(i).child("policy")
            name = feature.get("name") or ""
            causes.append(at.cause(f"CPU feature {name} uses policy {policy} that is not supported."))
    return causes


def hotplug(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCPUHotplug``: with ``maxSockets``, the sockets do not exceed it."""
    spec_cpu = cpu(spec)
    max_sockets = count(spec_cpu, "maxSockets")
    if max_sockets != 0 and count(spec_cpu, "sockets") > max_sockets:
        return [_at(field, "cpu", "sockets").cause(TOO_MANY_SOCKETS)]
    return []


def realtime(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateRealtime``: a realtime CPU needs dedicated CPUs and guest NUMA passthrough."""
    spec_cpu = cpu(spec)
    if spec_cpu is None or spec_cpu.get("realtime") is None:
        return []
    at_realtime = _at(field, "cpu", "realtime")
    causes = []
    if not spec_cpu.get("dedicatedCpuPlacement"):
        dedicated = _at(field, "cpu", "dedicatedCpuPlacement")
        causes.append(dedicated.cause(f"{dedicated} must be set to true when {at_realtime} is used"))
    if not _guest_mapping_passthrough(spec):
        at = _at(field, "cpu", "numa", "guestMappingPassthrough")
        causes.append(at.cause(f"{at} must be defined when {at_realtime} is used"))
    return causes


def live_update_cpu(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateLiveUpdateCPU`` for a VM (``field`` is the VM's ``spec``, ``spec`` its template spec): the
    template's sockets do not exceed its ``maxSockets``."""
    spec_cpu = cpu(spec)
    max_sockets = count(spec_cpu, "maxSockets")
    if max_sockets != 0 and count(spec_cpu, "sockets") > max_sockets:  # sockets 0 is never above it
        return [field.child("template", "spec", "domain", "cpu", "sockets").cause(TOO_MANY_SOCKETS)]
    return []
