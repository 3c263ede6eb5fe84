"""``ValidateVirtualMachineInstanceSpec`` (pkg/virt-api/webhooks/validating-webhook/admitters/
vmi-create-admitter.go): the checks a VMI spec meets on create, and a VM's template spec meets in the VM
webhook (after the instancetype, preference and cluster defaults are applied). Each rule is listed once, in
KubeVirt's order; the modules are KubeVirt's areas.
"""

from __future__ import annotations

from ..config import ClusterConfig
from . import cpu, devices, dns, firmware, machine, memory, scheduling, volumes
from .cause import Cause, FieldPath, Rule, Spec, run_rules
from .network import rules as network

RULES: tuple[Rule, ...] = (
    dns.hostname,
    dns.subdomain,
    memory.requests_not_negative_or_null,
    memory.limits_not_negative_or_null,
    memory.hugepages_requests,
    memory.guest_limit,
    machine.emulated_machine,
    firmware.acpi,
    cpu.request_not_negative,
    cpu.limit_not_negative,
    cpu.request_not_over_limit,
    cpu.pinning,
    cpu.numa,
    cpu.isolate_emulator_thread,
    cpu.feature_policies,
    cpu.hotplug,
    scheduling.start_strategy,
    cpu.realtime,
    scheduling.affinity,
    scheduling.topology_spread_constraints,
    machine.multi_architecture,
    network.validate,
    network.dra_creation,
    devices.boot_order,
    devices.input_devices,
    devices.io_threads_policy,
    scheduling.probes,
    firmware.domain,
    volumes.volumes,
    volumes.container_disks,
    volumes.utility_volumes_on_creation,
    volumes.access_credentials,
    dns.dns_policy,
    dns.pod_dns_config,
    scheduling.live_migration,
    devices.mdev_ramfb,
    devices.host_devices_passthrough,
    devices.grace_io_virtualization,
    devices.sound,
    firmware.launch_security,
    devices.vsock,
    volumes.persistent_reservation,
    volumes.persistent_state,
    volumes.downward_metrics,
    volumes.virtiofs_filesystems,
    devices.video_config,
    devices.panic_devices,
    scheduling.reboot_policy,
    memory.reserved_overhead_memlock,
    scheduling.service_account_name,
)


# The fields each rule reads (``key`` of the spec, ``domain.key``, ``domain.devices.key``): a spec that sets none
# of them passes the rule, whose checks are all about them, so it is not run. A VM sets a few of these fields,
# and most of KubeVirt's checks are about the others. A rule not listed reads more and always runs.
READS: dict[Rule, tuple[str, ...]] = {
    dns.hostname: ("hostname",),
    dns.subdomain: ("subdomain",),
    memory.requests_not_negative_or_null: ("domain.resources",),
    memory.limits_not_negative_or_null: ("domain.resources",),
    memory.hugepages_requests: ("domain.memory",),
    memory.guest_limit: ("domain.memory",),
    machine.emulated_machine: ("domain.machine",),
    firmware.acpi: ("domain.firmware",),
    cpu.request_not_negative: ("domain.resources",),
    cpu.limit_not_negative: ("domain.resources",),
    cpu.request_not_over_limit: ("domain.resources",),
    cpu.pinning: ("domain.cpu",),
    cpu.numa: ("domain.cpu",),
    cpu.isolate_emulator_thread: ("domain.cpu",),
    cpu.feature_policies: ("domain.cpu",),
    cpu.hotplug: ("domain.cpu",),
    scheduling.start_strategy: ("startStrategy",),
    cpu.realtime: ("domain.cpu",),
    scheduling.affinity: ("affinity",),
    scheduling.topology_spread_constraints: ("topologySpreadConstraints",),
    machine.multi_architecture: ("architecture",),
    network.dra_creation: ("resourceClaims", "domain.devices.gpus", "domain.devices.hostDevices"),
    devices.boot_order: ("domain.devices.disks", "domain.devices.interfaces"),
    devices.input_devices: ("domain.devices.inputs",),
    devices.io_threads_policy: ("domain.ioThreadsPolicy",),
    scheduling.probes: ("readinessProbe", "livenessProbe"),
    firmware.domain: ("domain.devices.disks", "domain.firmware"),
    volumes.volumes: ("volumes",),
    volumes.container_disks: ("volumes",),
    volumes.utility_volumes_on_creation: ("utilityVolumes",),
    volumes.access_credentials: ("accessCredentials",),
    dns.dns_policy: ("dnsPolicy",),
    dns.pod_dns_config: ("dnsConfig", "dnsPolicy"),
    scheduling.live_migration: ("evictionStrategy",),
    devices.mdev_ramfb: ("domain.devices.gpus",),
    devices.host_devices_passthrough: ("domain.devices.hostDevices",),
    devices.grace_io_virtualization: ("domain.devices.gpus", "domain.devices.hostDevices"),
    devices.sound: ("domain.devices.sound",),
    firmware.launch_security: ("domain.launchSecurity",),
    devices.vsock: ("domain.devices.autoattachVSOCK",),
    volumes.persistent_reservation: ("domain.devices.disks",),
    volumes.persistent_state: ("domain.devices.tpm", "domain.firmware"),
    volumes.downward_metrics: ("domain.devices.downwardMetrics",),
    volumes.virtiofs_filesystems: ("domain.devices.filesystems",),
    devices.video_config: ("domain.devices.video",),
    devices.panic_devices: ("domain.devices.panicDevices",),
    scheduling.reboot_policy: ("domain.rebootPolicy",),
    memory.reserved_overhead_memlock: ("domain.memory",),
    scheduling.service_account_name: ("serviceAccountName",),
}
# READS by level: for each field name of the spec, its domain and its devices, the indices in RULES of the
# rules reading that field.
_ALWAYS = frozenset(i for i, rule in enumerate(RULES) if rule not in READS)


def _by_field(prefix: str) -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for i, rule in enumerate(RULES):
        for name in READS.get(rule, ()):
            parent, _, key = name.rpartition(".")
            if parent == prefix:
                found.setdefault(key, set()).add(i)
    return {key: frozenset(indices) for key, indices in found.items()}


_SPEC_FIELDS, _DOMAIN_FIELDS, _DEVICES_FIELDS = _by_field(""), _by_field("domain"), _by_field("domain.devices")


def validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """Every cause of ``ValidateVirtualMachineInstanceSpec`` for ``spec`` at ``field``, in KubeVirt's order."""
    chosen = _rules_for(spec)
    if chosen is None:
        return run_rules(RULES, field, spec, cfg)
    causes: list[Cause] = []
    for i in sorted(chosen):
        causes.extend(RULES[i](field, spec, cfg))
    return causes


def _rules_for(spec: Spec) -> set[int] | None:
    """The indices of the rules that always run or read a field ``spec`` sets (a field set to null is set);
    None when its domain or devices are not mappings (then every rule runs, and meets them as they are)."""
    chosen = set(_ALWAYS)
    _add_readers(chosen, _SPEC_FIELDS, spec)
    domain = spec.get("domain")
    if domain is None:
        return chosen
    if not isinstance(domain, dict):
        return None
    _add_readers(chosen, _DOMAIN_FIELDS, domain)
    devices = domain.get("devices")
    if devices is None:
        return chosen
    if not isinstance(devices, dict):
        return None
    _add_readers(chosen, _DEVICES_FIELDS, devices)
    return chosen


def _add_readers(chosen: set[int], readers: dict[str, frozenset[int]], holder: dict[str, object]) -> None:
    for key in holder:
        found = readers.get(key)
        if found is not None:
            chosen.update(found)
