"""The platform rules of the VMI spec webhook: DNS, firmware and launch security, devices, scheduling, metadata
(kubectl_instancetype/admission/{dns,firmware,devices,grace,scheduling,placement,metadata}.py), with
KubeVirt's exact messages and field paths (vmi-create-admitter.go at d923fdb8)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from kubectl_instancetype.admission import devices, dns, firmware, metadata, scheduling
from kubectl_instancetype.admission.cause import Cause, FieldPath
from kubectl_instancetype.api.ipaddr import sanitize_ip
from kubectl_instancetype.config import ClusterConfig, load_config

SPEC = FieldPath.of("spec")
TEMPLATE = FieldPath.of("spec", "template", "spec")
DEFAULTS = load_config({})


def gates(*names: str, **extra: Any) -> ClusterConfig:
    return load_config({"developerConfiguration": {"featureGates": list(names)}, **extra})


def spec(devs: dict[str, Any] | None = None, **domain_and_spec: Any) -> dict[str, Any]:
    """A spec with ``devs`` as its devices; keys starting with ``d_`` go to the domain."""
    dom = {k[2:]: v for k, v in domain_and_spec.items() if k.startswith("d_")}
    rest = {k: v for k, v in domain_and_spec.items() if not k.startswith("d_")}
    return {"domain": {"devices": devs or {}, **dom}, **rest}


def pairs(causes: list[Cause]) -> list[tuple[str, str]]:
    return [(c.message, c.field) for c in causes]


LABEL_REGEX = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
               "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
               "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")


class TestDNS:
    def test_hostname_is_a_label(self) -> None:
        assert pairs(dns.hostname(TEMPLATE, {"hostname": "a.b"}, DEFAULTS)) == [(
            "spec.template.spec.hostname does not conform to the kubernetes DNS_LABEL rules : must not contain dots",
            "spec.template.spec.hostname")]
        assert pairs(dns.hostname(SPEC, {"hostname": "Bad_Host"}, DEFAULTS)) == [(
            f"spec.hostname does not conform to the kubernetes DNS_LABEL rules : {LABEL_REGEX}", "spec.hostname")]
        assert dns.hostname(SPEC, {"hostname": "ok-host"}, DEFAULTS) == []

    def test_long_hostname_gives_both_errors_joined(self) -> None:
        message = pairs(dns.hostname(SPEC, {"hostname": "-" * 64}, DEFAULTS))[0][0]
        assert message == ("spec.hostname does not conform to the kubernetes DNS_LABEL rules : must be no more than 63 "
                           f"characters, {LABEL_REGEX}")

    def test_subdomain(self) -> None:
        assert pairs(dns.subdomain(SPEC, {"subdomain": "-x"}, DEFAULTS))[0][0].startswith(
            "spec.subdomain does not conform to the kubernetes DNS_SUBDOMAIN rules : a lowercase RFC 1123 subdomain")
        assert dns.subdomain(SPEC, {"subdomain": "a.b"}, DEFAULTS) == []

    def test_dns_policy(self) -> None:
        assert pairs(dns.dns_policy(SPEC, {"dnsPolicy": "Bogus"}, DEFAULTS)) == [(
            "DNSPolicy: Bogus is not supported, valid values: [ClusterFirstWithHostNet ClusterFirst Default None ]",
            "spec.dnsPolicy")]
        assert dns.dns_policy(SPEC, {"dnsPolicy": "None"}, DEFAULTS) == []

    def test_none_policy_needs_a_config_with_a_nameserver(self) -> None:
        assert pairs(dns.pod_dns_config(SPEC, {"dnsPolicy": "None"}, DEFAULTS)) == [
            ("must provide `dnsConfig` when `dnsPolicy` is None", "spec.dnsConfig")]
        assert pairs(dns.pod_dns_config(SPEC, {"dnsPolicy": "None", "dnsConfig": {"searches": ["-x"]}}, DEFAULTS)) == [
            ("must provide at least one DNS nameserver when `dnsPolicy` is None", "nameservers")]

    def test_nameservers_are_respelled_before_the_checks(self) -> None:
        config = {"nameservers": ["010.0.0.1", "::ffff:10.0.0.2", "0x1.2.3.4", "fe80::1%eth0"]}
        assert pairs(dns.pod_dns_config(SPEC, {"dnsConfig": config}, DEFAULTS)) == [
            ("must not have more than 3 nameservers: [10.0.0.1 10.0.0.2 0x1.2.3.4 fe80::1%eth0]", "nameservers"),
            ("must be valid IP address: 0x1.2.3.4", "nameservers"),
            ("must be valid IP address: fe80::1%eth0", "nameservers"),
        ]

    def test_searches_and_options(self) -> None:
        config = {"searches": ["a", "b", "c", "d", "e", "f", "Bad"], "options": [{"name": ""}, {"name": "ndots"}]}
        causes = dns.pod_dns_config(SPEC, {"dnsConfig": config}, DEFAULTS)
        assert [c.field for c in causes] == ["searchDomains", "searchDomains", "options"]
        assert causes[0].message == "must not have more than 6 search paths"
        assert causes[1].message.startswith("a lowercase RFC 1123 subdomain must consist")
        assert causes[2].message == "Option.Name must not be empty"
        assert causes[0].keys == ("spec", "dnsConfig", "searches")

    def test_search_list_length_counts_spaces(self) -> None:
        config = {"searches": ["a" * 63 + "." + "b" * 63, "c" * 63 + "." + "d" * 63]}  # 127 + 1 + 127 = 255
        assert dns.pod_dns_config(SPEC, {"dnsConfig": config}, DEFAULTS) == []
        config["searches"].append("e")
        assert pairs(dns.pod_dns_config(SPEC, {"dnsConfig": config}, DEFAULTS)) == [
            ("must not have more than 256 characters (including spaces) in the search list", "searchDomains")]


@pytest.mark.parametrize(("text", "spelled"), [
    ("001.2.3.4", "1.2.3.4"), ("::ffff:01.2.3.4", "1.2.3.4"), ("FE80:0:0::1", "fe80::1"),
    ("1:0:0:1:0:0:0:1", "1:0:0:1::1"), ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"), ("::", "::"),
    ("256.1.1.1", "256.1.1.1"), ("1.2.3", "1.2.3"), ("1::2::3", "1::2::3"), (" 1.2.3.4", " 1.2.3.4"),
    ("::1%eth0", "::1%eth0"), ("1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"),
])
def test_sanitize_ip_is_kubevirts_respelling(text: str, spelled: str) -> None:
    assert sanitize_ip(text) == spelled


class TestFirmware:
    def test_acpi_is_named_at_spec_acpi(self) -> None:
        volumes = [{"name": "slic", "configMap": {"name": "x"}}]
        tables = {"firmware": {"acpi": {"slicNameRef": "slic", "msdmNameRef": "msdm"}}}
        causes = firmware.acpi(TEMPLATE, {"domain": tables, "volumes": volumes}, DEFAULTS)
        assert pairs(causes) == [
            ("spec.template.spec.acpi refers to Volume of unsupported type.", "spec.template.spec.acpi.slicNameRef"),
            ("spec.template.spec.acpi does not have a matching Volume.", "spec.template.spec.acpi.msdmNameRef"),
        ]
        assert causes[0].keys == ("spec", "template", "spec", "domain", "firmware", "acpi", "slicNameRef")
        assert pairs(firmware.acpi(SPEC, {"domain": {"firmware": {"acpi": {}}}}, DEFAULTS)) == [
            ("ACPI was set but no SLIC nor MSDM volume reference was set", "spec.acpi")]

    def test_secure_boot_needs_smm_but_not_under_tdx(self) -> None:
        efi = {"firmware": {"bootloader": {"efi": {}}}}
        assert pairs(firmware.domain(SPEC, {"domain": efi}, DEFAULTS)) == [(
            "spec.domain has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently disabled.",
            "spec.domain")]
        assert firmware.domain(SPEC, {"domain": {**efi, "features": {"smm": {}}}}, DEFAULTS) == []
        assert firmware.domain(SPEC, {"domain": {**efi, "launchSecurity": {"tdx": {}}}}, DEFAULTS) == []
        off = {"firmware": {"bootloader": {"efi": {"secureBoot": False}}}}
        assert firmware.domain(SPEC, {"domain": off}, DEFAULTS) == []

    def test_bootloader_and_kernel_boot(self) -> None:
        fw = {"bootloader": {"efi": {"secureBoot": False}, "bios": {}},
              "kernelBoot": {"container": {"kernelPath": "/", "initrdPath": "/a//"}}}
        assert pairs(firmware.domain(SPEC, {"domain": {"firmware": fw}}, DEFAULTS)) == [
            ("spec.domain.firmware.bootloader has both EFI and BIOS configured, but they are mutually exclusive.",
             "spec.domain.firmware.bootloader"),
            ("spec.domain.firmware.kernelBoot.container must be defined with an image",
             "spec.domain.firmware.kernelBoot.container.image"),
            ("spec.domain.firmware.kernelBoot.container.kernelPath must not point to root",
             "spec.domain.firmware.kernelBoot.container.kernelPath"),
            ("spec.domain.firmware.kernelBoot.container.initrdPath must be an absolute path to a file without "
             "relative components", "spec.domain.firmware.kernelBoot.container.initrdPath"),
        ]
        args = {"kernelBoot": {"kernelArgs": "quiet"}}
        assert pairs(firmware.domain(SPEC, {"domain": {"firmware": args}}, DEFAULTS)) == [
            ("kernel arguments cannot be provided without an external kernel",
             "spec.domain.firmware.kernelBoot.kernelArgs")]
        ok = {"kernelBoot": {"container": {"image": "k", "kernelPath": "/boot/vmlinuz/"}}}
        assert firmware.domain(SPEC, {"domain": {"firmware": ok}}, DEFAULTS) == []

    def test_launch_security_types_and_gates(self) -> None:
        def check(security: dict[str, Any], cfg: ClusterConfig = DEFAULTS, **domain: Any) -> list[str]:
            value = {"architecture": "amd64", "domain": {"launchSecurity": security, **domain}}
            return [c.message for c in firmware.launch_security(SPEC, value, cfg)]

        assert check({}) == ["One and only one launchSecurity type can be set"]
        assert check({"sev": {}, "tdx": {}}) == ["One and only one launchSecurity type can be set"]
        assert check({"tdx": {}}) == ["WorkloadEncryptionTDX feature gate is not enabled in kubevirt-config"]
        assert check({"snp": {}}, gates()) == ["SNP requires OVMF (UEFI)"]  # WorkloadEncryptionSEV is Beta
        no_sev = load_config({"developerConfiguration": {"disabledFeatureGates": ["WorkloadEncryptionSEV"]}})
        assert check({"sev": {}}, no_sev) == ["WorkloadEncryptionSEV feature gate is not enabled in kubevirt-config"]
        secure = {"firmware": {"bootloader": {"efi": {"persistent": True}}}}
        assert check({"snp": {}}, **secure) == ["SNP does not work along with SecureBoot",
                                                 "SNP does not work along with Persistent EFI variables"]
        assert check({"sev": {"attestation": {}}}, **secure) == ["SEV does not work along with SecureBoot",
                                                                 "SEV attestation requires VMI StartStrategy 'Paused'"]
        tdx = gates("WorkloadEncryptionTDX")
        nic = {"devices": {"interfaces": [{"name": "default", "bootOrder": 1}]}}
        assert check({"tdx": {}}, tdx, features={"smm": {}}, **nic) == [
            "TDX does not work along with SMM", "TDX requires OVMF (UEFI)",
            "TDX does not work with bootable NICs: default"]

    def test_launch_security_field_and_architectures(self) -> None:
        empty = {"architecture": "amd64", "domain": {"launchSecurity": {}}}
        causes = firmware.launch_security(TEMPLATE, empty, DEFAULTS)
        assert causes[0].field == "spec.template.spec.launchSecurity"
        assert causes[0].keys == ("spec", "template", "spec", "domain", "launchSecurity")
        arm = {"architecture": "arm64", "domain": {"launchSecurity": {"sev": {}}}}
        assert pairs(firmware.launch_security(SPEC, arm, DEFAULTS)) == [
            ("No launchSecurity support for architecture: arm64", "spec.architecture")]
        s390x = {"architecture": "s390x", "domain": {"launchSecurity": {}}}
        assert firmware.launch_security(SPEC, s390x, DEFAULTS) == []


class TestDevices:
    def test_boot_order_disks_and_interfaces(self) -> None:
        value = spec({"disks": [{"name": "a", "bootOrder": 1}, {"name": "b", "bootOrder": 1},
                                {"name": "c", "cdrom": {}}],
                      "interfaces": [{"name": "default", "bootOrder": 0}, {"name": "x", "bootOrder": 1}]},
                     volumes=[{"name": "a", "containerDisk": {}}, {"name": "b", "containerDisk": {}}])
        no_hotplug = load_config({"developerConfiguration": {"disabledFeatureGates": ["DeclarativeHotplugVolumes"]}})
        assert pairs(devices.boot_order(TEMPLATE, value, no_hotplug)) == [
            ("Boot order for spec.template.spec.domain.devices.disks[1].bootOrder already set for a different device.",
             "spec.template.spec.domain.devices.disks[1].bootOrder"),
            ("DeclarativeHotplugVolumes feature gate not enabled, cannot define an empty CD-ROM disk",
             "spec.template.spec.domain.devices.disks[2].name"),
            ("spec.template.spec[0] must have a boot order > 0, if supplied", "spec.template.spec[0].bootOrder"),
            ("Boot order for spec.template.spec.domain.devices.interfaces[1].bootOrder already set for a different "
             "device.", "spec.template.spec.domain.devices.interfaces[1].bootOrder"),
        ]
        assert len(devices.boot_order(TEMPLATE, value, DEFAULTS)) == 3  # DeclarativeHotplugVolumes is Beta: on

    def test_disks_need_volumes_luns_and_downward_metrics(self) -> None:
        value = spec({"disks": [{"name": "gone"}, {"name": "l", "lun": {}}, {"name": "dm", "cdrom": {}},
                                {"name": "dm", "disk": {"bus": "sata"}}]},
                     volumes=[{"name": "l", "containerDisk": {}}, {"name": "dm", "downwardMetrics": {}}])
        assert [c.message for c in devices.boot_order(SPEC, value, DEFAULTS)] == [
            "spec.domain.devices.disks[0].Name 'gone' not found.",
            "spec.domain.devices.disks[1].lun can only be mapped to a DataVolume or PersistentVolumeClaim volume.",
            "DownwardMetrics volume must be mapped to a disk, but disk is not set on "
            "spec.domain.devices.disks[2].disk.",
            "DownwardMetrics volume must be mapped to virtio bus, but spec.domain.devices.disks[3].disk.bus is set "
            "to sata",
        ]

    def test_inputs(self) -> None:
        value = spec({"inputs": [{"type": "tablet", "bus": "usb"}, {"type": "mouse", "bus": "ps2"}]})
        assert pairs(devices.input_devices(SPEC, value, DEFAULTS)) == [
            ("Input device can have only virtio or usb bus.", "spec.domain.devices.inputs[1].bus"),
            ("Input device can have only tablet type.", "spec.domain.devices.inputs[1].type"),
        ]

    def test_io_threads_policy(self) -> None:
        assert pairs(devices.io_threads_policy(SPEC, spec(d_ioThreadsPolicy="bogus"), DEFAULTS)) == [
            ("Invalid IOThreadsPolicy (bogus)", "spec.domain.ioThreadsPolicy")]
        pool = spec(d_ioThreadsPolicy="supplementalPool", d_ioThreads={"supplementalPoolThreadCount": 0})
        assert pairs(devices.io_threads_policy(SPEC, pool, DEFAULTS)) == [
            ("the number of iothreads needs to be set and positive for the dedicated policy",
             "spec.domain.ioThreads.count")]
        ok = spec(d_ioThreadsPolicy="supplementalPool", d_ioThreads={"supplementalPoolThreadCount": 2})
        assert devices.io_threads_policy(SPEC, ok, DEFAULTS) == []

    def test_ramfb_displays(self) -> None:
        two = spec({"gpus": [{"virtualGPUOptions": {"display": {}}},
                             {"virtualGPUOptions": {"display": {"enabled": True}}}]})
        causes = devices.mdev_ramfb(SPEC, two, DEFAULTS)
        assert pairs(causes) == [("configuring multiple displays with ramfb is not valid ", "spec.GPUs")]
        assert causes[0].keys == ("spec", "domain", "devices", "gpus")
        one = spec({"gpus": [{"virtualGPUOptions": {"display": {"ramFB": {"enabled": False}}}},
                             {"virtualGPUOptions": {"display": {}}}]})
        assert devices.mdev_ramfb(SPEC, one, DEFAULTS) == []

    def test_host_devices_need_their_gate(self) -> None:
        value = spec({"hostDevices": [{"name": "h", "deviceName": "x/y"}]})
        assert pairs(devices.host_devices_passthrough(SPEC, value, DEFAULTS)) == [
            ("Host Devices feature gate is not enabled in kubevirt-config", "spec.HostDevices")]
        assert devices.host_devices_passthrough(SPEC, value, gates("HostDevices")) == []
        assert devices.host_devices_passthrough(SPEC, spec({"hostDevices": []}), DEFAULTS) == []

    def test_sound_vsock_video(self) -> None:
        assert pairs(devices.sound(SPEC, spec({"sound": {"model": "hda"}}), DEFAULTS)) == [
            ("Sound device type is not supported. Options: 'ich9' or 'ac97'", "spec.Sound"),
            ("Sound device requires a name field.", "spec.Sound")]
        assert pairs(devices.vsock(SPEC, spec({"autoattachVSOCK": True}), DEFAULTS)) == [
            ("VSOCK feature gate is not enabled in kubevirt-config", "spec.domain.devices.autoattachVSOCK")]
        assert devices.vsock(SPEC, spec({"autoattachVSOCK": True}), gates("VSOCK")) == []
        video = spec({"video": {"type": "vga"}, "autoattachGraphicsDevice": False})
        assert pairs(devices.video_config(SPEC, video, DEFAULTS)) == [
            ("Video configuration is not allowed when autoattachGraphicsDevice is set to false", "spec.video")]

    def test_panic_devices(self) -> None:
        value = spec({"panicDevices": [{"model": "isa"}, {"model": "bogus"}, {}]})
        assert pairs(devices.panic_devices(SPEC, value, DEFAULTS)) == [
            ("invalid PanicDeviceModel(bogus)", "spec.domain.devices.panicDevices[1].model")]
        s390x = load_config({"architectureConfiguration": {"defaultArchitecture": "s390x"}})
        assert devices.panic_devices(SPEC, value, s390x)[0].message == (
            "custom panic devices are not supported on s390x architecture")


class TestGrace:
    PERMITTED: ClassVar[dict[str, Any]] = {"permittedHostDevices": {"pciHostDevices": [
        {"pciVendorSelector": "10DE:2342", "resourceName": "nvidia.com/GH100"},
        {"pciVendorSelector": "0x10de:*", "resourceName": "nvidia.com/any"}]}}

    def test_grace_request_without_the_gate(self) -> None:
        value = spec({"hostDevices": [{"name": "h", "deviceName": "nvidia.com/GH100"}]})
        assert pairs(devices.grace_io_virtualization(SPEC, value, load_config(self.PERMITTED))) == [(
            'GraceIOVirtualization feature gate must be enabled for NVIDIA Grace GPU passthrough resource '
            '"nvidia.com/GH100"', "spec.domain.devices.hostDevices[0].deviceName")]

    def test_grace_requirements(self) -> None:
        cfg = gates("GraceIOVirtualization", "IOMMUFD", **self.PERMITTED)
        gpus = [{"name": "a", "deviceName": "nvidia.com/any"}, {"name": "g", "deviceName": "nvidia.com/GH100"}]
        value = spec({"gpus": gpus}, architecture="amd64")
        assert pairs(devices.grace_io_virtualization(SPEC, value, cfg)) == [
            ('GraceIOVirtualization requires an exact pciVendorSelector for NVIDIA PCI host device resource '
             '"nvidia.com/any"', "spec.domain.devices.gpus[0].deviceName"),
            ("GraceIOVirtualization requires arm64 architecture", "spec.architecture"),
            ('GraceIOVirtualization requires "virt" machine type', "spec.domain.machine.type"),
            ("GraceIOVirtualization requires dedicated CPU placement", "spec.domain.cpu.dedicatedCpuPlacement"),
            ("PCINUMAAwareTopology feature gate must be enabled when GraceIOVirtualization is used",
             "spec.domain.devices"),
        ]
        arm = spec({"gpus": [{"name": "g", "deviceName": "nvidia.com/GH100"}]}, architecture="arm64",
                   d_cpu={"dedicatedCpuPlacement": True})
        full = gates("GraceIOVirtualization", "IOMMUFD", "PCINUMAAwareTopology", **self.PERMITTED)
        assert devices.grace_io_virtualization(SPEC, arm, full) == []

    def test_grace_annotations(self) -> None:
        value = spec({"gpus": [{"name": "g", "deviceName": "nvidia.com/GH100"}]})
        notes = {"kubevirt.io/placePCIDevicesOnRootComplex": "true", "kubevirt.io/disablePCIHole64": "true"}
        at = FieldPath.of("spec", "template", "metadata")
        assert pairs(metadata.grace_io_annotations(at, value, notes, load_config(self.PERMITTED))) == [
            ("GraceIOVirtualization is not compatible with placing PCI devices on the root complex",
             "spec.template.metadata.annotations[kubevirt.io/placePCIDevicesOnRootComplex]"),
            ("GraceIOVirtualization requires the 64-bit PCI hole",
             "spec.template.metadata.annotations[kubevirt.io/disablePCIHole64]"),
        ]
        assert metadata.grace_io_annotations(at, value, notes, DEFAULTS) == []


class TestScheduling:
    def test_start_strategy(self) -> None:
        assert pairs(scheduling.start_strategy(SPEC, {"startStrategy": "Later"}, DEFAULTS)) == [
            ("spec.startStrategy is set with an unrecognized option: Later", "spec.startStrategy")]
        paused = {"startStrategy": "Paused", "livenessProbe": {"tcpSocket": {}}}
        assert pairs(scheduling.start_strategy(SPEC, paused, DEFAULTS)) == [(
            "either spec.startStrategy or spec.livenessProbe should be provided.Pausing VMI with LivenessProbe is not "
            "supported", "spec.startStrategy")]

    def test_probes(self) -> None:
        value = {"readinessProbe": {}, "livenessProbe": {"httpGet": {}, "tcpSocket": {}}}
        assert pairs(scheduling.probes(SPEC, value, DEFAULTS)) == [
            ("either spec.readinessProbe.tcpSocket, spec.readinessProbe.exec or spec.readinessProbe.httpGet must be "
             "set if a spec.readinessProbe is specified", "spec.readinessProbe"),
            ("spec.livenessProbe must have exactly one probe type set", "spec.livenessProbe"),
            ("spec.livenessProbe.httpGet is only allowed if the Pod Network is attached", "spec.livenessProbe.httpGet"),
            ("spec.livenessProbe.tcpSocket is only allowed if the Pod Network is attached",
             "spec.livenessProbe.tcpSocket"),
        ]
        assert len(scheduling.probes(SPEC, {**value, "networks": [{"name": "d", "pod": {}}]}, DEFAULTS)) == 2

    def test_eviction_strategy(self) -> None:
        assert pairs(scheduling.live_migration(SPEC, {"evictionStrategy": "Bogus"}, DEFAULTS)) == [
            ("spec.evictionStrategy is set with an unrecognized option: Bogus", "spec.evictionStrategy")]
        assert scheduling.live_migration(SPEC, {"evictionStrategy": "LiveMigrateIfPossible"}, DEFAULTS) == []

    def test_reboot_policy_gate(self) -> None:
        off = load_config({"developerConfiguration": {"disabledFeatureGates": ["RebootPolicy"]}})
        assert pairs(scheduling.reboot_policy(SPEC, spec(d_rebootPolicy="Terminate"), off)) == [
            ("RebootPolicy is specified but the RebootPolicy feature gate is not enabled", "spec.domain.rebootPolicy")]
        assert scheduling.reboot_policy(SPEC, spec(d_rebootPolicy="Terminate"), DEFAULTS) == []  # Beta

    def test_service_account_name(self) -> None:
        value = {"serviceAccountName": "Bad_SA", "volumes": [{"serviceAccount": {"serviceAccountName": "other"}}] * 2}
        causes = pairs(scheduling.service_account_name(SPEC, value, DEFAULTS))
        assert causes[0][0].startswith("spec.serviceAccountName is not a valid service account name: a lowercase RFC "
                                       "1123 subdomain")
        assert causes[1:] == [('spec.serviceAccountName "Bad_SA" and serviceAccount volume "other" must reference '
                               "the same service account", "spec.serviceAccountName")]

    def test_affinity_is_checked_at_the_spec(self) -> None:
        value = {"affinity": {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []},
                             "preferredDuringSchedulingIgnoredDuringExecution": [
                                 {"weight": 101, "preference": {"matchFields": [
                                     {"key": "metadata.name", "operator": "Gt", "values": ["Bad_Node"]}]}}]},
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"topologyKey": "zone", "labelSelector": {"matchExpressions": [{"key": "k", "operator": "Near"}]}}]}}}
        causes = scheduling.affinity(TEMPLATE, value, DEFAULTS)
        assert [c.message for c in causes] == [
            "spec.template.spec.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: "
            "Required value: must have at least one node selector term",
            "spec.template.spec.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: "
            "101: must be in the range 1-100",
            "spec.template.spec.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference."
            'matchFields[0].operator: Invalid value: "Gt": not a valid selector operator',
            "spec.template.spec.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference."
            'matchFields[0].values[0]: Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of '
            "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
            "(e.g. 'example.com', regex used for validation is "
            r"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.template.spec.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector."
            'matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        ]
        assert causes[0].field == ("spec.template.spec.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                                   "nodeSelectorTerms")
        assert causes[0].keys[:5] == ("spec", "template", "spec", "affinity", "nodeAffinity")

    def test_topology_spread_constraints(self) -> None:
        value = {"topologySpreadConstraints": [
            {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Later"},
            {"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "Later",
             "labelSelector": {"matchLabels": {"app": "-bad-"}}}]}
        assert [c.message for c in scheduling.topology_spread_constraints(SPEC, value, DEFAULTS)][:4] == [
            "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
            "spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
            'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Later": supported values: '
            '"DoNotSchedule", "ScheduleAnyway"',
            'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{, Later}"',
        ]
        last = scheduling.topology_spread_constraints(SPEC, value, DEFAULTS)[-1]
        assert last.field == "spec.topologySpreadConstraints.labelSelector.matchLabels"
        assert last.keys == ("spec", "topologySpreadConstraints", 1, "labelSelector", "matchLabels")


class TestMetadata:
    def test_reserved_labels_only_for_users(self) -> None:
        meta = {"labels": {"kubevirt.io/created-by": "me", "app": "x"}}
        at = FieldPath.of("spec", "template", "metadata")
        assert pairs(metadata.vmi_metadata(at, meta, DEFAULTS, False)) == [
            ("creation of the following reserved kubevirt.io/ labels on a VMI object is prohibited",
             "spec.template.metadata.labels")]
        assert metadata.vmi_metadata(at, meta, DEFAULTS, True) == []

    def test_ignition_and_sidecar_annotations_need_their_gates(self) -> None:
        meta = {"annotations": {"kubevirt.io/ignitiondata": "{}", "hooks.kubevirt.io/hookSidecars": "[]"}}
        at = FieldPath.of("metadata")
        assert pairs(metadata.vmi_metadata(at, meta, DEFAULTS, True)) == [
            ("ExperimentalIgnitionSupport feature gate is not enabled in kubevirt-config, invalid entry "
             "metadata.annotations.kubevirt.io/ignitiondata", "metadata.annotations"),
            ("sidecar feature gate is not enabled in kubevirt-config, invalid entry "
             "metadata.annotations.hooks.kubevirt.io/hookSidecars", "metadata.annotations"),
        ]
        assert metadata.vmi_metadata(at, meta, gates("ExperimentalIgnitionSupport", "Sidecar"), True) == []
