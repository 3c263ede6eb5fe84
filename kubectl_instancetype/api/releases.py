"""The KubeVirt releases the tool answers for, and every behaviour that differs between them, as named facts.

This is the one place that knows versions. A rule that behaves differently per release asks a fact of the
configured :class:`Release` (``cfg.release.writes_firmware_serial``), never compares version strings; adding a
release is a row of :data:`RELEASES` (and a line in each fact that changes with it).

A fact is written as the first patch release on each release line where it holds: ``{(1, 5): 3, (1, 6): 1,
(1, 7): 0}`` holds from v1.5.3, v1.6.1 and v1.7.0 (backports make lines differ). A line the fact does not name
follows the nearest older line it names: from patch 0 when that line's fact is open-ended, not at all when it
ended there (``None``: never on that line; ``(first, end)``: from ``first`` up to, not including, ``end``).
Lines older than every line named never hold it. ``main`` (kubevirt/kubevirt d923fdb8, after the release-1.9
branch point) is the first patch of line 1.10.

Each fact names the KubeVirt change and the file where the tags differ; ``tests/test_releases.py`` checks the
table's shape, and the release corpora (``testdata/conformance-releases``) check the behaviour.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ..errors import UsageError
from ..records import dataclass

Line = tuple[int, int]
Span = int | tuple[int, int] | None


class UnknownRelease(UsageError):
    """A KubeVirt version the table has no row for (``--kubevirt-version``, or a KubeVirt CR's status): exit 2."""


@dataclass(frozen=True)
class Fact:
    """One behaviour difference: the first patch on each release line where it holds, and why."""

    name: str
    lines: dict[Line, Span]
    why: str

    def holds(self, line: Line, patch: int) -> bool:
        named = [known for known in self.lines if known <= line]
        if not named:
            return False
        nearest = max(named)
        span = self.lines[nearest]
        if nearest != line:  # a newer line inherits an open-ended fact from its first patch
            return isinstance(span, int)
        if span is None:
            return False
        if isinstance(span, int):
            return patch >= span
        return span[0] <= patch < span[1]


FACTS: tuple[Fact, ...] = (
    # --- instancetype and preference matchers (pkg/instancetype/webhooks/vm, pkg/virt-api/.../vm-mutator.go)
    Fact("admits_missing_matcher_objects", {(1, 6): 0},
         "#14219: a VM whose instancetype or preference does not exist is admitted (v1.5 refuses it with "
         "'Failure to find instancetype: ...' at spec.instancetype)"),
    Fact("revision_ref_names_the_matched_object", {(1, 5): 2, (1, 6): 0},
         "pkg/instancetype/find/revision.go, preference/find/revision.go (#14595, backported to v1.5.2): the "
         "status.*Ref.controllerRevisionRef revision is used only when its object-name label names the matched "
         "object; v1.5.0 and v1.5.1 use it whatever it holds (kv-expand at v1.5.0)"),
    Fact("preference_memory_check_panics", {(1, 5): (0, 1)},
         "pkg/instancetype/preference/requirements/memory.go checkMemory (fixed in v1.5.1, bug #14551): without an "
         "instance type it compares spec.domain.memory.guest, nil when the VM gives no guest memory, request, limit "
         "or hugepages, and the VM webhook fails (kv-expand at v1.5.0 panics there)"),
    Fact("writes_default_matcher_kind", {(1, 5): 0, (1, 7): None},
         "#15009: the VM mutating webhook stopped writing spec.instancetype.kind / spec.preference.kind"),
    Fact("infer_from_volume_new_messages", {(1, 7): 0},
         "#15009: 'Name already set, should be cleared before setting inferFromVolume' and its siblings"),
    Fact("memory_conflicts_only_guest", {(1, 7): 0},
         "#14685: only memory.guest (hugepages, maxGuest where the instancetype sets them) conflicts; before, "
         "any domain.memory does"),
    # --- resources.requests.memory written by the expansion (pkg/instancetype/apply)
    Fact("defaults_memory_request", {(1, 5): 0, (1, 6): (0, 4), (1, 7): None},
         "#15681, #15896, #16104: the expansion writes resources.requests.memory (guest x 100 / "
         "memoryOvercommit); off from v1.6.4 and v1.7.0"),
    Fact("memory_request_ignores_overcommit", {(1, 6): (2, 3)},
         "#15896: v1.6.2 wrote resources.requests.memory as the guest memory, without memoryOvercommit"),
    # --- the VM mutating webhook on create (vm-mutator.go)
    Fact("writes_firmware_serial", {(1, 5): 3, (1, 6): 1, (1, 7): 0},
         "VEP 14: a random firmware.serial on create"),
    Fact("writes_firmware_uuid", {(1, 6): 0},
         "VEP 14: a random firmware.uuid on create (before: the name-derived UUID of virt-controller)"),
    Fact("writes_pci_topology", {(1, 6): 4, (1, 7): 2, (1, 8): 0},
         "the kubevirt.io/pci-topology-version: v3 annotation on the template and the VMI"),
    Fact("pci_topology_skips_s390x", {(1, 6): 5, (1, 7): 3, (1, 8): 2},
         "no pci-topology annotation for s390x (SupportsPCIeHotplug(architecture))"),
    Fact("pci_topology_needs_hotplug_machine", {(1, 6): 6, (1, 7): 4, (1, 8): 3},
         "no pci-topology annotation unless the machine type is q35 or arm64 virt (SupportsPCIeHotplug(spec))"),
    Fact("infers_from_volume_snapshot", {(1, 9): 0},
         "pkg/instancetype/infer/volume.go fromVolumeSnapshot: inferFromVolume follows a DataVolume's or "
         "DataSource's snapshot source to the VolumeSnapshot's labels (before: 'unable to infer defaults from "
         "DataSource that doesn't provide DataVolumeSourcePVC', and a DataVolumeSpec with a snapshot source is "
         "'... as DataVolumeSource is not supported')"),
    Fact("architecture_from_datasource_label", {(1, 6): 4, (1, 7): 0},
         "inferFromVolume also takes the architecture from the DataSource's instancetype.kubevirt.io/"
         "default-architecture label"),
    # --- fields of the instancetype API
    Fact("applies_preferred_architecture", {(1, 7): 0},
         "preference preferredArchitecture and requirements.architecture"),
    Fact("applies_instancetype_io_threads", {(1, 7): 0}, "instancetype spec.ioThreads"),
    Fact("knows_tpm_enabled", {(1, 5): 1},
         "staging/src/kubevirt.io/api/core/v1/schema.go TPMDevice.Enabled (v1.5.1, 'tpm: Wire up the new TPMDevice "
         "Enabled attribute'): v1.5.0 decodes a revision's preferredTPM without it (kv-expand at v1.5.0)"),
    Fact("knows_hyperv_tlbflush_modes", {(1, 8): 0}, "features.hyperv.tlbflush.direct / extended"),
    Fact("applies_preferred_video_type", {(1, 9): 0}, "preference devices.preferredVideoType"),
    Fact("applies_preferred_launch_security", {(1, 9): 0},
         "preference preferredLaunchSecurity, and the deprecation warning of instancetype launchSecurity"),
    # --- VMI defaults (pkg/defaults, pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go)
    Fact("annotates_tdx_qgs_socket", {(1, 9): 0},
         "vmi-mutator.go: a TDX VMI gets the kubevirt.io/qgs-socket-path annotation (confidentialCompute.tdx."
         "attestation.qgsSocketPath)"),
    Fact("qualified_vmi_finalizer", {(1, 7): 0},
         "staging/src/kubevirt.io/api/core/v1/types.go VirtualMachineInstanceFinalizer, which vmi-mutator.go adds: "
         "'kubevirt.io/foregroundDeleteVirtualMachine' from v1.7.0 ('api: Introduce and use domain-qualified "
         "version of the foregroundDeleteVirtualMachine finalizer'); before, 'foregroundDeleteVirtualMachine' "
         "(kv-expand at v1.5.3 and v1.6.6)"),
    Fact("creates_panic_device", {(1, 9): 0},
         "a panic device named in the preference is created, not only given its model"),
    Fact("arm64_efi_secure_boot_off", {(1, 8): 3, (1, 9): 0},
         "pkg/defaults/arm64.go setDefaultArm64Bootloader: an EFI boot loader that does not say gets "
         "secureBoot: false (before, only the EFI loader KubeVirt adds itself has it)"),
    # --- the VM and VMI admission webhooks (rules of kubectl_instancetype/admission ask these)
    Fact("discontinues_passt_and_macvtap_bindings", {(1, 8): 0},
         "pkg/network/admitter/discontinued.go: passt and macvtap are refused on creation as discontinued "
         "since v1.3 (before: slirp only; macvtap.go and passt.go checked the Macvtap/Passt gates and the "
         "network, and they counted as binding methods)"),
    Fact("interface_needs_exactly_one_binding", {(1, 9): 0},
         "pkg/network/admitter/binding.go: 'logical NAME interface must have exactly one binding method or "
         "binding plugin' (before: only 'logical NAME interface cannot have both binding plugin and interface "
         "binding method', so an interface without a binding is admitted)"),
    Fact("memory_provided_checks_only_resources", {(1, 5): 0, (1, 6): (0, 4)},
         "vmi-create-admitter.go validateMemoryLimitAndRequestProvided before v1.6.4 (dedicated CPUs): only a memory "
         "limit or request counts, 'spec.domain.resources.requests.memory or spec.domain.resources.limits.memory "
         "should be provided' (an instancetype's overcommitPercent: 100 requests 0; kv-expand at v1.5.3)"),
    Fact("memory_provided_panics_without_memory", {(1, 6): 4, (1, 7): (0, 4)},
         "vmi-create-admitter.go validateMemoryLimitAndRequestProvided from v1.6.4 and v1.7.0 (dedicated CPUs; "
         "replaced by validateMemoryIsProvided in v1.7.4): hugepages and guest memory count too, and without "
         "spec.domain.memory and no memory request or limit it dereferences nil and the webhook fails"),
    Fact("checks_sata_block_size_and_discard", {(1, 7): 0},
         "pkg/storage/admitters/disks.go validateBlockSize (v1.7.0; before, vmi-create-admitter.go's): 'Logical "
         "size N must be 512 for SATA devices' and 'Discard granularity N must be multiples of logical size M'; "
         "v1.5 and v1.6 check only logical <= physical and each size's range (discardGranularity is a v1.7.0 field; "
         "kv-expand at v1.5.3 and v1.6.6)"),
    Fact("hugepages_causes_at_page_size", {(1, 8): 0},
         "vmi-create-admitter.go validateHugepagesMemoryRequests and the mandatory memory message name "
         "spec.domain.memory.hugepages.pageSize (before v1.8.0: spec.domain.hugepages.size, and "
         "spec.domain.memory.hugepages.size in 'no memory requested, ...')"),
    Fact("architecture_needs_multi_architecture_gate", {(1, 5): 0, (1, 8): None},
         "vmi-create-admitter.go validateArchitecture (gone in v1.8.0): an architecture other than virt-api's "
         "own (amd64) needs the MultiArchitecture gate"),
    Fact("virtiofs_config_volumes_need_gate", {(1, 5): 0, (1, 8): None},
         "vmi-create-admitter.go validateFilesystemsWithVirtIOFSEnabled (before v1.8.0): a config volume "
         "(ConfigMap, Secret, ServiceAccount, DownwardAPI) as a filesystem needs EnableVirtioFsConfigVolumes or "
         "ExperimentalVirtiofsSupport, a storage volume either EnableVirtioFsStorageVolumes or "
         "ExperimentalVirtiofsSupport"),
    Fact("video_config_needs_gate", {(1, 6): 0, (1, 9): None},
         "vmi-create-admitter.go validateVideoConfig: 'Video configuration is specified but the VideoConfig "
         "feature gate is not enabled' at spec.video (and nothing else checked) while the gate is off; v1.9.0 "
         "dropped the gate check"),
    Fact("panic_devices_need_gate", {(1, 6): 0, (1, 9): None},
         "vmi-create-admitter.go validatePanicDevices: 'Panic Devices feature gate is not enabled in "
         "kubevirt-config' (and nothing else checked) while the PanicDevices gate is off; gone in v1.9.0"),
    Fact("launch_security_per_architecture", {(1, 7): 0},
         "vmi-create-admitter.go validateLaunchSecurity: amd64's SEV/SNP/TDX checks (webhooks/amd64.go), "
         "s390x's, 'No launchSecurity support for architecture' for others; before v1.7.0 SEV checks only"),
    Fact("launch_security_checks_secure_execution", {(1, 6): 0},
         "v1.6's validateLaunchSecurity: 'SecureExecution feature gate is not enabled in kubevirt-config' on "
         "s390x, and the WorkloadEncryptionSEV gate only for SEV (v1.5: for any launchSecurity)"),
    Fact("s390x_launch_security_needs_gate", {(1, 7): 0, (1, 9): None},
         "pkg/virt-api/webhooks/s390x.go ValidateLaunchSecurityS390x: 'SecureExecution feature gate is not "
         "enabled in kubevirt-config' at spec.launchSecurity (KubeVirt's path); v1.9.0 removed it. from v1.7.0, in "
         "the per-architecture checks (v1.6 has its own: launch_security_checks_secure_execution)"),
    Fact("persistent_state_needs_gate", {(1, 5): 0, (1, 6): None},
         "vmi-create-admitter.go validatePersistentState (gone in v1.6.0, where VMPersistentState is GA): a "
         "persistent TPM or EFI needs the VMPersistentState gate (kv-expand at v1.5.3)"),
    Fact("knows_wait_as_receiver", {(1, 6): 0},
         "vms-admitter.go validateRunStrategy: runStrategy WaitAsReceiver (with the DecentralizedLiveMigration "
         "gate) from v1.6.0; v1.5 answers 'Invalid RunStrategy (WaitAsReceiver)' (kv-expand at v1.5.3)"),
    Fact("admits_empty_cdrom", {(1, 6): 0},
         "vmi-create-admitter.go validateBootOrder: a CD-ROM without a volume is an empty drive with the "
         "DeclarativeHotplugVolumes gate from v1.6.0; v1.5 refuses it as any disk without a volume "
         "(\"...disks[0].Name 'cd' not found.\"; kv-expand at v1.5.3)"),
    Fact("persistent_reservation_configuration", {(1, 9): 0},
         "vmi-create-admitter.go validatePersistentReservation: persistentReservationConfiguration.enabled "
         "decides, message 'persistent reservation is not enabled in kubevirt config' (before: the "
         "PersistentReservation gate, 'PersistentReservation feature gate is not enabled in kubevirt-config')"),
    Fact("validates_grace_io_virtualization", {(1, 9): 0},
         "admitters/grace_io_virtualization.go (new in v1.9.0): validateGraceIOVirtualization and its "
         "annotations"),
    Fact("validates_service_account_name", {(1, 9): 0},
         "vmi-create-admitter.go validateServiceAccountName (new in v1.9.0)"),
    Fact("tdx_secure_boot_needs_no_smm", {(1, 9): 0},
         "vmi-create-admitter.go: SecureBoot without SMM is allowed under TDX (v1.9.0)"),
    Fact("forward_port_causes_at_port", {(1, 9): 0},
         "pkg/network/admitter/netiface.go validateForwardPortInRange/NonZero: the causes sit at ports[i].port and "
         "65536 is out of range (before: at ports[i], and only > 65536 refused)"),
    Fact("knows_port_ranges", {(1, 9): 0},
         "pkg/network/admitter/netiface.go validatePortRangesConfiguration and interfaces[].portRanges (v1.9.0)"),
    Fact("knows_dra_networks", {(1, 9): 0},
         "pkg/network/admitter/dra.go validateNetworkDevicesWithDRA and networks[].resourceClaim (v1.9.0)"),
    Fact("vmi_webhook_repeats_disk_causes", {(1, 10): 0},
         "main's VMI create webhook runs the storage spec validators a second time (the storage validators it "
         "registers besides ValidateVirtualMachineInstanceSpec): each disk cause, e.g. 'Logical size 4096 must "
         "be 512 for SATA devices', comes twice; v1.9.0 gives it once (kv-expand at v1.9.0 and main, 831 inputs)"),
    Fact("ramfb_unset_counts_enabled", {(1, 10): 0},
         "vmi-create-admitter.go countConfiguredMDEVRamFBs: a ramFB without enabled counts as enabled (main, "
         "after v1.9.0; before, only ramFB.enabled: true counts, so two such displays are admitted)"),
    Fact("arm64_refuses_efi_secure_boot", {(1, 5): 0, (1, 8): (0, 3), (1, 9): None},
         "pkg/virt-api/webhooks/arm64.go validateBootOptions: 'UEFI secure boot is currently not supported on "
         "aarch64 Arch' for an EFI boot loader whose secureBoot is unset or true (removed in v1.8.3, with the "
         "arm64 default secureBoot: false)"),
    # --- virt-controller's VM controller on a running VM (pkg/virt-controller/watch/vm/vm.go, restart impact)
    Fact("network_changes_live_update", {(1, 6): 0},
         "pkg/network/vmliveupdate/restart.go IsRestartRequired (new in v1.6.0): interfaces and networks the network "
         "synchronizer can hot-plug are not compared by syncRestartRequired; v1.5's addRestartRequiredIfNeeded "
         "compares them like any template field"),
    Fact("restart_on_pod_network_added", {(1, 8): 0},
         "vmliveupdate/restart.go shouldNetsChangeRequireRestart: a pod network added to a running VM requires a "
         "restart (v1.8.0)"),
    Fact("nad_rename_live_with_gate", {(1, 8): 0, (1, 9): None},
         "vmliveupdate/restart.go (v1.8): a Multus networkName change is live only with the LiveUpdateNADRef gate"),
    Fact("nad_rename_live", {(1, 9): 0},
         "vmliveupdate/restart.go haveNetsChangedIgnoringNADName: a Multus networkName change is live (v1.9.0)"),
    Fact("nad_rename_needs_migratable_vmi", {(1, 10): 0},
         "vmliveupdate/restart.go (main): the networkName change is live only for a LiveMigratable VMI"),
    Fact("syncs_multus_network_name", {(1, 8): 0},
         "pkg/network/controllers/vm.go syncNetworks (v1.8.0): the network synchronizer copies a changed Multus "
         "networkName into the running VMI (main: only into a LiveMigratable one)"),
    Fact("live_volumes_only_under_live_update", {(1, 5): 0, (1, 6): None},
         "v1.5's addRestartRequiredIfNeeded accepts hot-pluggable volume and disk changes only under LiveUpdate "
         "(from v1.6.0 under any strategy: validLiveUpdateVolumes / validLiveUpdateDisks first)"),
    Fact("synchronizes_firmware_uuid", {(1, 6): 0},
         "pkg/virt-controller/watch/vm/firmware.go (v1.6.0): the firmware synchronizer writes the name-derived UUID "
         "into a VM template that has none"),
    Fact("neutralises_firmware_uuid", {(1, 6): 4, (1, 7): 1, (1, 8): 0},
         "vm.go syncRestartRequired: a template firmware UUID equal to the running VMI's is not a change (the "
         "firmware synchronizer persisting the UUID no longer flags RestartRequired)"),
    # --- the cluster
    Fact("live_update_rollout_by_default", {(1, 6): 0},
         "pkg/virt-config/virt-config.go DefaultVMRolloutStrategy: LiveUpdate from v1.6.0; v1.5's is Stage, so its "
         "VMI mutating webhook adds no maxSockets/maxGuest unless the cluster asks LiveUpdate (kv-expand at v1.5.3)"),
    Fact("beta_feature_gates_on_by_default", {(1, 9): 0},
         "pkg/virt-config/featuregate: a Beta gate is on unless disabledFeatureGates names it"),
    Fact("serves_instancetype_v1alpha", {(1, 5): 0, (1, 6): None},
         "instancetype.kubevirt.io v1alpha1/v1alpha2 served (listed but not served in v1.6, gone from v1.7)"),
    Fact("lists_instancetype_v1alpha", {(1, 5): 0, (1, 7): None},
         "the instancetype CRDs still list v1alpha1/v1alpha2"),
    Fact("serves_pool_v1beta1", {(1, 7): 0}, "pool.kubevirt.io/v1beta1"),
    Fact("pool_controller_adds_finalizer", {(1, 7): 0},
         "pkg/virt-controller/watch/pool/pool.go addPoolFinalizer: pool.kubevirt.io/finalizer on the pool itself"),
    # --- the virt-launcher Pod (pkg/virt-controller/services, pkg/virt-config; the launcher-Pod corpora)
    Fact("amd64_ovmf_in_edk2", {(1, 9): 0},
         "pkg/virt-config/virt-config.go DefaultARCHOVMFPath: /usr/share/edk2/ovmf (before: /usr/share/OVMF), "
         "the launcher's --ovmf-path"),
    Fact("graphics_overhead_32mi", {(1, 6): 0},
         "renderresources.go GetMemoryOverhead: the graphics device counts 32Mi (v1.5: 16Mi)"),
    Fact("tpm_overhead_needs_enabled", {(1, 5): 1, (1, 6): 0},
         "GetMemoryOverhead: tpm.HasDevice (a TPM with enabled: false adds nothing; v1.5.0: any tpm)"),
    Fact("dedicated_overhead_after_ratio", {(1, 5): (0, 3)},
         "GetMemoryOverhead (v1.5.0-v1.5.2): the 100Mi of dedicated CPUs / guaranteed QoS added after "
         "additionalGuestMemoryOverheadRatio multiplies the rest (later: before, and multiplied)"),
    Fact("reserved_overhead", {(1, 8): 0},
         "pkg/hypervisor/kvm GetMemoryOverhead: memory.reservedOverhead.addedOverhead counted"),
    Fact("qemu_overhead_50mi", {(1, 10): 0},
         "pkg/hypervisor/kvm/hypervisorbackend.go QemuOverhead 50Mi (v1.9.0: 30Mi): the memory overhead 20Mi higher"),
    Fact("launcher_flags_in_args", {(1, 10): 0},
         "pkg/virt-controller/services/template.go: virt-launcher-monitor's flags (and the container-disk cp's) in "
         "the container's args; before, appended to its command"),
    Fact("launcher_libvirt_hooks_flag", {(1, 8): 0, (1, 10): None},
         "template.go (v1.8, v1.9): --libvirt-hook-server-and-client with the LibvirtHooksServerAndClient gate"),
    Fact("launcher_disk_memory_limit_flag", {(1, 6): 0},
         "template.go: virt-launcher-monitor's --disk-memory-limit (developerConfiguration.diskVerification)"),
    Fact("launcher_hypervisor_flag", {(1, 8): 0},
         "template.go: virt-launcher-monitor's --hypervisor (the hypervisor configuration, kvm by default)"),
    Fact("hugepages_dirs_both_hugepages_medium", {(1, 10): 0},
         "rendervolumes.go withHugepages: the hugetblfs-dir emptyDir has medium HugePages too (before: plain)"),
    Fact("image_volume_skip_digest_annotation", {(1, 10): 0},
         "kubevirt.io/image-volume-skip-digest-resolution: no digest init containers, no launcher image volume"),
    Fact("virtiofs_follows_pull_policy", {(1, 10): 0},
         "virtiofs.go: virtiofsd's imagePullPolicy is the CR's (before: IfNotPresent)"),
    Fact("container_disk_copy_preserves", {(1, 8): 0},
         "template.go: the container-disk-binary init container runs cp --preserve=all (before: plain cp)"),
    Fact("cpumanager_label_qualified", {(1, 8): 0},
         "api core/v1 types.go CPUManager: dedicated CPUs select nodes by kubevirt.io/cpumanager (before: the "
         "unqualified cpumanager label, now DeprecatedCPUManager)"),
    Fact("labels_vmi_id", {(1, 7): 0},
         "template.go: the vmi.kubevirt.io/id label (CalculateVirtualMachineInstanceID) on the launcher Pod"),
    Fact("omits_unprivileged_flag", {(1, 7): 0},
         "rendercontainer.go securityContext: privileged no longer written as false on the containers it renders "
         "(compute, container-disk-binary, hook sidecars; v1.6: Privileged: &false)"),
    Fact("env_per_network_resource", {(1, 5): 0, (1, 7): None},
         "template.go (up to v1.6): an env KUBEVIRT_RESOURCE_NAME_<network> on the compute container for each "
         "Multus network, valued by its NetworkAttachmentDefinition's resourceName"),
    Fact("network_binding_error_typo", {(1, 5): 0, (1, 7): None},
         "pkg/network/netbinding/netbinding.go (up to v1.6): \"couldn't find configuration for network bindining\""),
    Fact("virtiofs_translates_service_account_uid", {(1, 9): 0},
         "virtiofs.go (#17792): virtiofsd of a serviceAccount volume runs with --translate-uid=host:107:0:1"),
)
FACT_NAMES: tuple[str, ...] = tuple(fact.name for fact in FACTS)
_FACTS = {fact.name: fact for fact in FACTS}


@dataclass(frozen=True)
class Release:
    """One KubeVirt release (or ``main``): its name, line and patch, and the commit the tool answers for.

    Every fact of :data:`FACTS` is an attribute (``release.writes_firmware_serial``), computed on first use
    (a run asks a few facts of one release; the table has some fifty facts of two dozen releases).
    """

    name: str
    line: Line
    patch: int
    commit: str

    def __getattr__(self, name: str) -> Any:  # reached once for each fact asked, and for a name that is no fact
        fact = _FACTS.get(name)
        if fact is None:
            raise AttributeError(f"no KubeVirt release fact {name!r}")
        holds = fact.holds(self.line, self.patch)
        object.__setattr__(self, name, holds)
        return holds

    def facts(self) -> dict[str, bool]:
        """Every fact and whether it holds, in table order."""
        return {name: bool(getattr(self, name)) for name in FACT_NAMES}

    def __str__(self) -> str:
        return self.name


MAIN = "main"
#: Every release the tool answers for, oldest first: each tag (with its commit) and ``main``.
MAIN_LINE: Line = (1, 10)  # main is the development of the next release line


def _release(name: str, commit: str) -> Release:
    if name == MAIN:
        return Release(name, MAIN_LINE, 0, commit)
    major, minor, patch = (int(part) for part in name.removeprefix("v").split("."))
    return Release(name, (major, minor), patch, commit)


RELEASES: tuple[Release, ...] = tuple(
    _release(name, commit)
    for name, commit in (
        ("v1.5.0", "522b44c0ce"), ("v1.5.1", "04b1fda82c"), ("v1.5.2", "3d9830e44e"), ("v1.5.3", "4f27e414aa"),
        ("v1.6.0", "d53baa7f84"), ("v1.6.1", "00d03e43e3"), ("v1.6.2", "29fd465b6f"), ("v1.6.3", "37a6d88ca6"),
        ("v1.6.4", "ac5324e8f6"), ("v1.6.5", "a771b994a2"), ("v1.6.6", "75581da219"),
        ("v1.7.0", "50b9b4d0cf"), ("v1.7.1", "96c648f96c"), ("v1.7.2", "b0f4742ff9"), ("v1.7.3", "9b20f69c62"),
        ("v1.7.4", "2468b19f25"),
        ("v1.8.0", "85b6a25964"), ("v1.8.1", "ae865b624b"), ("v1.8.2", "3203e9d1ce"), ("v1.8.3", "540f37cfa3"),
        ("v1.8.4", "dfaa398f08"),
        ("v1.9.0", "79d34c1762"),
        (MAIN, "d923fdb815"),
    )
)
BY_NAME: dict[str, Release] = {release.name: release for release in RELEASES}
#: The release assumed when neither --kubevirt-version nor a KubeVirt CR's status names one: the newest tag.
DEFAULT: Release = [release for release in RELEASES if release.name != MAIN][-1]
MAIN_RELEASE: Release = BY_NAME[MAIN]


@cache
def _version_re() -> re.Pattern[str]:
    """A release version (compiled on first use)."""
    return re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def known_versions() -> str:
    """The versions the tool accepts, for messages and --help: ``v1.5.0-v1.9.0 (or a line: 1.5-1.9), main``."""
    tags = [release for release in RELEASES if release.name != MAIN]
    lines = sorted({release.line for release in tags})
    return (f"{tags[0].name}-{tags[-1].name} (or a release line: {lines[0][0]}.{lines[0][1]}-"
            f"{lines[-1][0]}.{lines[-1][1]}), {MAIN}")


def resolve(text: str, where: str = "--kubevirt-version") -> Release:
    """The release ``text`` names (:func:`lookup`), without the warning when it stands in for another."""
    return lookup(text, where).release


@dataclass(frozen=True)
class Resolved:
    """The release the tool answers for, and the warning when ``text`` named one it does not know."""

    release: Release
    warning: str = ""


@cache
def _build_re() -> re.Pattern[str]:
    """A KubeVirt version as clusters report it: a release, a pre-release or ``git describe`` of one
    (``v1.9.1-rc.0``, ``v1.8.4-12-gabcdef0``), or a downstream build of one (``v1.9.1-rhel9``, ``1.8.4+build.3``)."""
    return re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+)([-+~_.][0-9A-Za-z].*)?)?")


def lookup(text: str, where: str = "--kubevirt-version") -> Resolved:
    """The release ``text`` names: a tag (``v1.8.4``, ``1.8.4``), a line (``1.8``: its newest patch the tool
    knows), or ``main``; a patch of a known line the tool does not know yet (``v1.9.7``) or a build of one
    (``v1.9.1-rhel9``) stands for the newest known release of the line not newer than it, with a warning
    naming it (a cluster patched since the tool was released must not stop every command). Any other text, an
    unknown line (``1.10``, an OpenShift Virtualization version such as ``4.19.3``) included, is
    :class:`UnknownRelease` (exit 2) with the versions the tool knows."""
    text = text.strip()
    if text == MAIN:
        return Resolved(MAIN_RELEASE)
    match = _build_re().fullmatch(text)
    if match is not None:
        line = (int(match[1]), int(match[2]))
        on_line = [r for r in RELEASES if r.line == line and r.name != MAIN]
        if on_line:
            patch, build = match[3], match[4]
            if patch is None and not build:
                return Resolved(on_line[-1])
            wanted = on_line[-1].patch if patch is None else int(patch)
            chosen = ([r for r in on_line if r.patch <= wanted] or on_line)[-1]
            if chosen.patch == wanted and not build:
                return Resolved(chosen)
            if chosen.patch == wanted:
                why = f"a build of {chosen.name}, which this tool knows"
            else:
                why = f"newer than the releases this tool knows on line {line[0]}.{line[1]} (newest: {chosen.name})"
            return Resolved(chosen, f"KubeVirt {text!r} ({where}) is {why}: answering as KubeVirt {chosen.name}")
    raise UnknownRelease(f"unknown KubeVirt version {text!r} ({where}); known: {known_versions()}")


def fact(name: str) -> Fact:
    """The fact called ``name`` (KeyError for another)."""
    return _FACTS[name]
