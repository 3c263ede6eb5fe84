"""The CPU, memory, machine, per-architecture and Hyper-V rules (admission/{cpu,memory,machine,arch,hyperv}), each
with KubeVirt's exact message and field (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go,
vms-admitter.go, pkg/liveupdate/memory/memory.go, pkg/virt-api/webhooks/{amd64,arm64,s390x,hyperv}.go, main
d923fdb8). The whole webhooks are compared with KubeVirt's answers in testdata/kubevirt-answers/compute-*."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import TESTDATA

from kubectl_instancetype.admission import arch, cpu, hyperv, machine, memory
from kubectl_instancetype.admission.cause import Cause, FieldPath
from kubectl_instancetype.api.gomatch import match
from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig, load_config

Spec = dict[str, Any]
VM = FieldPath.of("spec", "template", "spec")  # a VM's template spec
VMI = FieldPath.of("spec")
T = "spec.template.spec.domain"
STAGE = load_config({"vmRolloutStrategy": "Stage"})


def causes(found: list[Cause]) -> list[tuple[str, str]]:
    return [(c.message, c.field) for c in found]


def domain(**parts: Any) -> Spec:
    return {"domain": parts}


def resources(requests: Spec | None = None, limits: Spec | None = None) -> Spec:
    return {k: v for k, v in (("requests", requests), ("limits", limits)) if v is not None}


# --- memory ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "expected"), [
    (domain(), []),
    (domain(resources=resources({"memory": "-1Gi"})),
     [(f"{T}.resources.requests.memory '-1Gi': must be greater than or equal to 0.",
       f"{T}.resources.requests.memory")]),
    (domain(resources=resources({"memory": "999k"})),
     [(f"{T}.resources.requests.memory '999k': must be greater than or equal to 1M.",
       f"{T}.resources.requests.memory")]),
    (domain(resources=resources({"memory": "1M"})), []),
    (domain(resources=resources({"memory": "0"})), []),
])
def test_memory_request(spec: Spec, expected: list[tuple[str, str]]) -> None:
    assert causes(memory.requests_not_negative_or_null(VM, spec, DEFAULT_CONFIG)) == expected


@pytest.mark.parametrize(("spec", "expected"), [
    (domain(resources=resources({"memory": "4Gi"}, {"memory": "512Mi"})),
     [(f"{T}.resources.requests.memory '4Gi' is greater than {T}.resources.limits.memory '512Mi'",
       f"{T}.resources.requests.memory")]),
    (domain(resources=resources({"memory": "4Gi"}, {"memory": "-1"})),
     [(f"{T}.resources.limits.memory '-1': must be greater than or equal to 0.", f"{T}.resources.limits.memory")]),
    (domain(resources=resources({"memory": "1536Mi"}, {"memory": "1.5Gi"})), []),
])
def test_memory_limit(spec: Spec, expected: list[tuple[str, str]]) -> None:
    assert causes(memory.limits_not_negative_or_null(VM, spec, DEFAULT_CONFIG)) == expected


PAGE = f"{T}.memory.hugepages.pageSize"
REQ = f"{T}.resources.requests.memory"


@pytest.mark.parametrize(("mem", "res", "expected"), [
    ({"guest": "1Gi"}, None, []),
    ({"hugepages": {"pageSize": "2Mi"}, "guest": "1Gi"}, None, []),
    # the request is printed even when the guest memory was measured ('0' when none is set)
    ({"hugepages": {"pageSize": "1Gi"}, "guest": "512Mi"}, None,
     [(f"{REQ} '0' must be equal to or larger than page size {PAGE} '1Gi'", REQ)]),
    ({"hugepages": {"pageSize": "2Mi"}, "guest": "1025Mi"}, None,
     [(f"{REQ} '0' is not a multiple of the page size {PAGE} '2Mi'", REQ)]),
    ({"hugepages": {"pageSize": "2Mi"}}, resources({"memory": "2049Mi"}),
     [(f"{REQ} '2049Mi' is not a multiple of the page size {PAGE} '2Mi'", REQ)]),
    ({"hugepages": {"pageSize": "2Mi"}}, resources(limits={"memory": "3Mi"}),  # the limit, last
     [(f"{REQ} '0' is not a multiple of the page size {PAGE} '2Mi'", REQ)]),
    ({"hugepages": {"pageSize": "2 Mi"}}, None,
     [(f"{PAGE} '2 Mi': quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", PAGE)]),
    ({"hugepages": {"pageSize": "0"}, "guest": "1Gi"}, None,
     [(f"{PAGE} '0': {memory.ZERO_PAGE}", PAGE)]),
])
def test_hugepages(mem: Spec, res: Spec | None, expected: list[tuple[str, str]]) -> None:
    spec = domain(memory=mem, **({"resources": res} if res else {}))
    assert causes(memory.hugepages_requests(VM, spec, DEFAULT_CONFIG)) == expected


def test_guest_over_the_limit_only_outside_live_update() -> None:
    spec = domain(memory={"guest": "4Gi"}, resources=resources(limits={"memory": "512Mi"}))
    assert causes(memory.guest_limit(VM, spec, DEFAULT_CONFIG)) == []
    assert causes(memory.guest_limit(VM, spec, STAGE)) == [
        (f"{T}.memory.guest '4Gi' must be equal to or less than the memory limit {T}.resources.limits.memory '512Mi'",
         f"{T}.memory.guest")]


def test_reserved_overhead_needs_its_gate() -> None:
    spec = domain(memory={"guest": "1Gi", "reservedOverhead": {"addedOverhead": "100Mi"}})
    assert causes(memory.reserved_overhead_memlock(VM, spec, DEFAULT_CONFIG)) == [
        ("Reserved overhead memlock feature gate is not enabled in kubevirt-config", f"{T}.memory.reservedOverhead")]
    gate = load_config({"developerConfiguration": {"featureGates": ["ReservedOverheadMemlock"]}})
    assert memory.reserved_overhead_memlock(VM, spec, gate) == []


NO_MEMORY = ("no memory requested, at least one of 'spec.domain.memory.guest', "
             "'spec.domain.memory.hugepages.pageSize' or 'spec.domain.resources.requests.memory' must be set", "")


@pytest.mark.parametrize(("spec", "expected"), [
    (domain(), [NO_MEMORY]),
    (domain(memory={}), [NO_MEMORY]),
    (domain(memory={"maxGuest": "2Gi"}), [NO_MEMORY]),
    (domain(memory={"guest": "0"}), []),  # a guest memory, even zero, is something
    (domain(memory={"hugepages": {"pageSize": "2Mi"}}), []),
    (domain(resources=resources({"memory": "1Gi"})), []),
])
def test_mandatory_memory(spec: Spec, expected: list[tuple[str, str]]) -> None:
    assert causes(memory.mandatory_fields(VMI, spec, DEFAULT_CONFIG)) == expected


LIVE = "spec.template.spec.domain.memory.guest"


@pytest.mark.parametrize(("spec", "message"), [
    ({"architecture": "amd64", "domain": {"memory": {"guest": "2Gi", "maxGuest": "8Gi"}}}, None),
    ({"domain": {"cpu": {"realtime": {}}, "memory": {"maxGuest": "8Gi"}}},
     "Memory hotplug is not compatible with realtime VMs"),
    ({"domain": {"cpu": {"numa": {"guestMappingPassthrough": {}}}, "memory": {"maxGuest": "8Gi"}}},
     "Memory hotplug is not compatible with guest mapping passthrough"),
    ({"domain": {"launchSecurity": {}, "memory": {"maxGuest": "8Gi"}}},
     "Memory hotplug is not compatible with encrypted VMs"),
    ({"domain": {"memory": {"maxGuest": "8Gi"}}}, "Guest memory must be configured when memory hotplug is enabled"),
    ({"domain": {"memory": {"guest": "8Gi", "maxGuest": "4Gi"}}},
     "Guest memory is greater than the configured maxGuest memory"),
    ({"domain": {"memory": {"guest": "1025Mi", "maxGuest": "4Gi"}}}, "Guest memory must be 2Mi aligned"),
    ({"architecture": "amd64", "domain": {"memory": {"guest": "2Gi", "maxGuest": "4Gi",
                                                     "hugepages": {"pageSize": "1Gi"}}}}, None),
    ({"architecture": "amd64", "domain": {"memory": {"guest": "2050Mi", "maxGuest": "4Gi",
                                                     "hugepages": {"pageSize": "1Gi"}}}},
     "Guest memory must be 1Gi aligned"),
    ({"architecture": "amd64", "domain": {"memory": {"guest": "2Gi", "maxGuest": "2050Mi"}}}, None),
    ({"domain": {"memory": {"guest": "2Gi", "maxGuest": "2049Mi"}}}, "MaxGuest must be 2Mi aligned"),
    ({"architecture": "arm64", "domain": {"memory": {"guest": "2Gi", "maxGuest": "4Gi"}}},
     "Memory hotplug is only available for x86_64 VMs"),
    ({"architecture": "amd64", "domain": {"memory": {"guest": "512Mi", "maxGuest": "4Gi"}}},
     "Memory hotplug is only available for VMs with at least 1Gi of guest memory"),
])
def test_live_update_memory(spec: Spec, message: str | None) -> None:
    expected = [] if message is None else [(message, LIVE)]
    assert causes(memory.live_update_memory(FieldPath.of("spec"), spec, DEFAULT_CONFIG)) == expected


# --- cpu ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "expected"), [
    (domain(resources=resources({"cpu": "-1"})),
     [(f"{T}.resources.requests.cpu '-1': must be greater than or equal to 0.", f"{T}.resources.requests.cpu")]),
    (domain(resources=resources(limits={"cpu": "-100m"})),
     [(f"{T}.resources.limits.cpu '-100m': must be greater than or equal to 0.", f"{T}.resources.limits.cpu")]),
    (domain(resources=resources({"cpu": "2"}, {"cpu": "1500m"})),
     [(f"{T}.resources.requests.cpu '2' is greater than {T}.resources.limits.cpu '1500m'",
       f"{T}.resources.requests.cpu")]),
    (domain(resources=resources({"cpu": "2"}, {"cpu": "0"})), []),
])
def test_cpu_resources(spec: Spec, expected: list[tuple[str, str]]) -> None:
    found = [*cpu.request_not_negative(VM, spec, DEFAULT_CONFIG), *cpu.limit_not_negative(VM, spec, DEFAULT_CONFIG),
             *cpu.request_not_over_limit(VM, spec, DEFAULT_CONFIG)]
    assert causes(found) == expected


DEDICATED = f"{T}.cpu.dedicatedCpuPlacement"
RCPU, LCPU, CORES = f"{T}.resources.requests.cpu", f"{T}.resources.limits.cpu", f"{T}.cpu.cores"


@pytest.mark.parametrize(("cpu_spec", "res", "mem", "expected"), [
    ({"dedicatedCpuPlacement": False}, None, None, []),
    ({"dedicatedCpuPlacement": True, "cores": 2}, None, {"guest": "1Gi"}, []),
    ({"dedicatedCpuPlacement": True}, None, {"guest": "0"},
     [(f"{T}.resources.requests.memory, {T}.resources.limits.memory, {T}.memory.hugepages or {T}.memory.guest "
       "should be provided", f"{T}.resources.limits.memory"),
      (f"either {RCPU} or {LCPU} or {CORES} must be provided when DedicatedCPUPlacement is true ", DEDICATED)]),
    ({"dedicatedCpuPlacement": True, "cores": 2, "threads": 3},
     resources({"cpu": "1500m", "memory": "1Gi"}, {"cpu": "3", "memory": "2Gi"}), None,
     [("provided resources CPU requests must be an interger", RCPU),
      (f"{T}.resources.requests.memory must be equal to {T}.resources.limits.memory", f"{T}.resources.requests.memory"),
      (f"{RCPU} or {LCPU} must be equal when DedicatedCPUPlacement is true ", DEDICATED),
      (f"{RCPU} or {LCPU} must not be provided at the same time with {CORES} when DedicatedCPUPlacement is true ",
       DEDICATED),
      (f"Not more than two threads must be provided at {T}.cpu.threads (got 3) when DedicatedCPUPlacement is true",
       DEDICATED)]),
    # 2500m counts as 3 (Value rounds up): neither the request (0) nor the limit is the 2 vCPUs
    ({"dedicatedCpuPlacement": True, "cores": 2}, resources(limits={"cpu": "2500m"}), {"guest": "1Gi"},
     [("provided resources CPU limits must be an interger", LCPU),
      (f"{RCPU} or {LCPU} must not be provided at the same time with {CORES} when DedicatedCPUPlacement is true ",
       DEDICATED)]),
    ({"dedicatedCpuPlacement": True, "cores": 2}, resources({"cpu": "2"}, {"cpu": "4"}), {"guest": "1Gi"},
     [(f"{RCPU} or {LCPU} must be equal when DedicatedCPUPlacement is true ", DEDICATED)]),
])
def test_dedicated_cpus(cpu_spec: Spec, res: Spec | None, mem: Spec | None, expected: list[tuple[str, str]]) -> None:
    spec = domain(cpu=cpu_spec, **({"resources": res} if res else {}), **({"memory": mem} if mem else {}))
    assert causes(cpu.pinning(VM, spec, DEFAULT_CONFIG)) == expected


def test_arm64_threads_use_the_default_architecture_when_the_spec_names_none() -> None:
    spec = domain(cpu={"dedicatedCpuPlacement": True, "threads": 2}, memory={"guest": "1Gi"})
    message = (f"threads must not be greater than 1 at {T}.cpu.threads (got 2) when spec.template.spec.architecture "
               "is arm64", "spec.template.spec.architecture")
    assert causes(cpu.pinning(VM, spec, load_config({}, arch="arm64"))) == [message]
    assert causes(cpu.pinning(VM, {**spec, "architecture": "arm64"}, DEFAULT_CONFIG)) == [message]
    assert causes(cpu.pinning(VM, {**spec, "architecture": "amd64"}, load_config({}, arch="arm64"))) == []


def test_vcpus_wrap_as_uint32() -> None:
    # cores × sockets wraps to 0 in uint32, so the threads alone count: 2 vCPUs, not 2**33
    spec = domain(cpu={"dedicatedCpuPlacement": True, "cores": 65536, "sockets": 65536, "threads": 2},
                  resources=resources({"cpu": "2"}), memory={"guest": "1Gi"})
    assert [m for m, _ in causes(cpu.pinning(VM, spec, DEFAULT_CONFIG)) if "same time" in m] == []


NUMA = f"{T}.cpu.numa.guestMappingPassthrough"


def test_numa_passthrough_needs_dedicated_cpus_and_hugepages() -> None:
    spec = domain(cpu={"numa": {"guestMappingPassthrough": {}}})
    assert causes(cpu.numa(VM, spec, DEFAULT_CONFIG)) == [
        (f"{DEDICATED} must be set to true when NUMA topology strategy is set in {NUMA}", NUMA),
        (f"{T}.memory.hugepages must be requested when NUMA topology strategy is set in {NUMA}", NUMA)]
    ok = domain(cpu={"numa": {"guestMappingPassthrough": {}}, "dedicatedCpuPlacement": True},
                memory={"hugepages": {"pageSize": "2Mi"}})
    assert cpu.numa(VM, ok, DEFAULT_CONFIG) == []


def test_realtime_needs_dedicated_cpus_and_numa_passthrough() -> None:
    assert causes(cpu.realtime(VM, domain(cpu={"realtime": {}}), DEFAULT_CONFIG)) == [
        (f"{DEDICATED} must be set to true when {T}.cpu.realtime is used", DEDICATED),
        (f"{NUMA} must be defined when {T}.cpu.realtime is used", NUMA)]


def test_isolate_emulator_thread_feature_policies_and_sockets() -> None:
    spec = domain(cpu={"isolateEmulatorThread": True, "sockets": 4, "maxSockets": 2,
                       "features": [{"name": "vmx", "policy": "bogus"}, {"name": "pcid"}]})
    found = [*cpu.isolate_emulator_thread(VM, spec, DEFAULT_CONFIG), *cpu.feature_policies(VM, spec, DEFAULT_CONFIG),
             *cpu.hotplug(VM, spec, DEFAULT_CONFIG)]
    assert causes(found) == [
        ("IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement",
         f"{T}.cpu.isolateEmulatorThread"),
        ("CPU feature vmx uses policy bogus that is not supported.", f"{T}.cpu.features[0].policy"),
        (cpu.TOO_MANY_SOCKETS, f"{T}.cpu.sockets")]


def test_live_update_cpu_names_the_template() -> None:
    spec = domain(cpu={"sockets": 4, "maxSockets": 2})
    assert causes(cpu.live_update_cpu(FieldPath.of("spec"), spec, DEFAULT_CONFIG)) == [
        (cpu.TOO_MANY_SOCKETS, "spec.template.spec.domain.cpu.sockets")]
    assert cpu.live_update_cpu(FieldPath.of("spec"), domain(cpu={"maxSockets": 2}), DEFAULT_CONFIG) == []


# --- machine --------------------------------------------------------------------------------------------

MACHINE = f"{T}.machine.type"


@pytest.mark.parametrize(("conf", "spec_arch", "kind", "allowed"), [
    ({}, "amd64", "pc-q35-rhel9.4.0", None),
    ({}, "amd64", "pc-i440fx-2.0", "[q35* pc-q35*]"),
    ({}, "amd64", "q35/x", "[q35* pc-q35*]"),  # * never crosses a /
    ({}, "ppc64le", "q35", None),  # any other architecture reads amd64's
    ({}, "arm64", "q35", "[virt*]"),
    ({}, "s390x", "pc-q35-rhel9.4.0", "[s390-ccw-virtio*]"),
    ({"emulatedMachines": ["pc-*"]}, "arm64", "pc-q35", None),  # the deprecated global list first
    ({"emulatedMachines": []}, "amd64", "q35", None),  # an empty list keeps the default
    ({"architectureConfiguration": {"amd64": {"emulatedMachines": None}}}, "amd64", "q35", None),
    ({"architectureConfiguration": {"s390x": {"emulatedMachines": ["s390*", "[z"]}}}, "s390x", "virt", "[s390* [z]"),
])
def test_emulated_machine(conf: Spec, spec_arch: str, kind: str, allowed: str | None) -> None:
    spec = {"architecture": spec_arch, **domain(machine={"type": kind})}
    expected = [] if allowed is None else [(f"{MACHINE} is not supported: {kind} (allowed values: {allowed})", MACHINE)]
    assert causes(machine.emulated_machine(VM, spec, load_config(conf))) == expected


def test_default_machine_types_per_architecture() -> None:
    cfg = load_config({"architectureConfiguration": {"amd64": {"machineType": ""}}})
    assert [cfg.machine_type_for(a) for a in ("amd64", "arm64", "s390x", "ppc64le")] == [
        "q35", "virt", "s390-ccw-virtio", "q35"]


GO_MATCH = json.loads((TESTDATA / "gomatch" / "filepath-match.json").read_text(encoding="utf-8"))


def test_patterns_match_as_gos_filepath_match() -> None:
    """Go 1.27's filepath.Match answers on 464 pattern/name pairs (incl. classes, escapes, malformed patterns)."""
    wrong = [(row["p"], row["n"]) for row in GO_MATCH if match(row["p"], row["n"]) != row["m"]]
    assert wrong == []


# --- per architecture -----------------------------------------------------------------------------------

def arch_spec(name: str, **devices: Any) -> Spec:
    return {"architecture": name, "domain": {"devices": devices}}


@pytest.mark.parametrize(("spec", "expected"), [
    (arch_spec("amd64"), []),
    (arch_spec("ppc64le"), [("unsupported architecture: ppc64le", "spec.architecture")]),
    (arch_spec(""), [("unsupported architecture: ", "spec.architecture")]),
    (arch_spec("amd64", watchdog={"name": "w", "diag288": {}}, video={"type": ""}),
     [("amd64 only supports I6300ESB watchdog device", "spec.domain.devices.watchdog"),
      ("video model '' is not supported on amd64 architecture", "spec.domain.devices.video.type")]),
    (arch_spec("s390x", watchdog={"name": "w", "diag288": {}, "i6300esb": {}}, video={"type": "vga"}),
     [("s390x only supports Diag288 watchdog device", "spec.domain.devices.watchdog"),
      ("video model 'vga' is not supported on s390x architecture", "spec.domain.devices.video.type")]),
    ({"architecture": "arm64", "domain": {
        "firmware": {"bootloader": {"bios": {}}}, "cpu": {"model": "host-model"},
        "devices": {"disks": [{"name": "a", "cdrom": {"bus": "sata"}}, {"name": "b", "disk": {"bus": "scsi"}}],
                    "watchdog": {"name": "w", "i6300esb": {}}, "sound": {"name": "s"}, "video": {"type": "vga"}}}},
     [("Arm64 does not support bios boot, please change to uefi boot", "spec.domain.firmware.bootloader.bios"),
      ("currently, host-passthrough is the only model supported on Arm64", "spec.domain.cpu.model"),
      (arch.ARM64_BUS, "spec.domain.devices.disks[0].cdrom.bus"),
      ("Arm64 not support Watchdog device", "spec.domain.devices.watchdog"),
      ("Arm64 not support sound device", "spec.domain.devices.sound"),
      ("video model 'vga' is not supported on arm64 architecture", "spec.domain.devices.video.type")]),
])
def test_per_architecture(spec: Spec, expected: list[tuple[str, str]]) -> None:
    assert causes(machine.per_arch(VMI, spec, DEFAULT_CONFIG)) == expected


# --- Hyper-V --------------------------------------------------------------------------------------------

HYPERV = FieldPath.of("spec", "domain", "features", "hyperv")
DOUBLED = "spec.domain.features.hyperv.domain.features.hyperv"


def with_hyperv(features: Spec, cpu_features: list[Spec] | None = None, passthrough: bool = False) -> Spec:
    feats: Spec = {"hyperv": features, **({"hypervPassthrough": {}} if passthrough else {})}
    return {"domain": {"features": feats, **({"cpu": {"features": cpu_features}} if cpu_features is not None else {})}}


ON, OFF = {"enabled": True}, {"enabled": False}


@pytest.mark.parametrize(("spec", "expected"), [
    (with_hyperv({"vapic": ON}), []),
    (with_hyperv({"evmcs": ON, "vapic": OFF}, [{"name": "vmx", "policy": "require"}]),
     [(f"'{DOUBLED}.evmcs' requires '{DOUBLED}.vapic', which was disabled.", f"{DOUBLED}.evmcs")]),
    (with_hyperv({"synictimer": ON, "synic": ON, "vpindex": OFF}),
     [(f"'{DOUBLED}.synic' requires '{DOUBLED}.vpindex', which was disabled.", f"{DOUBLED}.synic")]),
    (with_hyperv({"synictimer": ON, "synic": OFF}),
     [(f"'{DOUBLED}.synictimer' requires '{DOUBLED}.synic', which was disabled.", f"{DOUBLED}.synictimer")]),
    (with_hyperv({"ipi": ON, "tlbflush": ON, "vpindex": {}}),
     [(f"'{DOUBLED}.ipi' requires '{DOUBLED}.vpindex', which was disabled.", f"{DOUBLED}.ipi"),
      (f"'{DOUBLED}.tlbflush' requires '{DOUBLED}.vpindex', which was disabled.", f"{DOUBLED}.tlbflush")]),
    # evmcs: the vmx feature, its field spelled without the path handed in
    (with_hyperv({"evmcs": {}, "vapic": ON}),
     [("vmx cpu feature is required when evmcs is set", "spec.domain.cpu.features")]),
    (with_hyperv({"evmcs": OFF}), []),
    (with_hyperv({"evmcs": {}, "vapic": ON}, [{"name": "svm"}, {"name": "vmx", "policy": "optional"}]),
     [("vmx cpu feature has to be set to require policy", "spec.domain.cpu.features[1].policy")]),
    (with_hyperv({}, passthrough=True), [(hyperv.PASSTHROUGH_EXCLUSIVE, "spec.domain.features.hyperv")]),
])
def test_hyperv(spec: Spec, expected: list[tuple[str, str]]) -> None:
    assert causes(machine.hyperv(HYPERV, spec, DEFAULT_CONFIG)) == expected


def test_hyperv_causes_are_located_at_the_real_feature() -> None:
    found = machine.hyperv(HYPERV, with_hyperv({"ipi": ON, "vpindex": OFF}), DEFAULT_CONFIG)
    assert [c.keys for c in found] == [("spec", "domain", "features", "hyperv", "ipi")]


def test_a_null_architecture_section_keeps_the_defaults() -> None:
    cfg: ClusterConfig = load_config({"architectureConfiguration": {"arm64": None}})
    assert (cfg.emulated_machines_for("arm64"), cfg.machine_type_for("arm64")) == (("virt*",), "virt")


@pytest.mark.parametrize(("value", "live"), [(None, True), ("", False), ("Stage", False), ("LiveUpdate", True)])
def test_rollout_strategy_as_kubevirt_reencodes_it(value: str | None, live: bool) -> None:
    """A null strategy is dropped on KubeVirt's re-encoding and stays LiveUpdate; "" is kept and is not it."""
    assert load_config({"vmRolloutStrategy": value}).live_update is live
