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


def validate(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """Every cause of ``ValidateVirtualMachineInstanceSpec`` for ``spec`` at ``field``, in KubeVirt's order."""
    return run_rules(RULES, field, spec, cfg)
