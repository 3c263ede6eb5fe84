"""Admission rules that differ between KubeVirt releases, each asking a fact of ``cfg.release``
(kubectl_instancetype/api/releases.py): KubeVirt's exact message and field at v1.8.4, v1.9.0 and main, as the
kv-expand builds of those tags answer them (``causes``). The whole webhooks are compared in
testdata/kubevirt-answers/release-* and testdata/conformance-releases."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.admission import cpu, devices, firmware, machine, memory, vmi_spec
from kubectl_instancetype.admission import vmi as vmi_webhook
from kubectl_instancetype.admission.cause import Cause, FieldPath
from kubectl_instancetype.admission.network import rules
from kubectl_instancetype.admission.storage import features
from kubectl_instancetype.config import ClusterConfig, load_config

Spec = dict[str, Any]
ROOT = FieldPath.of("spec", "template", "spec")
IFACE = "spec.template.spec.domain.devices.interfaces[0]"


def cfg(version: str, *gates: str, **conf: Any) -> ClusterConfig:
    return load_config({"developerConfiguration": {"featureGates": list(gates)}, **conf}, version=version)


def causes(found: list[Cause]) -> list[tuple[str, str]]:
    return [(c.message, c.field) for c in found]


def network(body: Spec, version: str) -> list[tuple[str, str]]:
    return causes(rules.validate(ROOT, body, cfg(version)))


def pod_interface(**iface: Any) -> Spec:
    return {"domain": {"devices": {"interfaces": [{"name": "default", **iface}]}},
            "networks": [{"name": "default", "pod": {}}]}


def test_v1_8_admits_an_interface_without_binding_and_refuses_both_at_binding() -> None:
    assert network(pod_interface(), "v1.8.4") == []
    assert network(pod_interface(), "v1.9.0") == [
        ("logical default interface must have exactly one binding method or binding plugin", IFACE)]
    both = pod_interface(masquerade={}, binding={"name": "passt"})
    assert network(both, "v1.8.4") == [
        ("logical default interface cannot have both binding plugin and interface binding method", f"{IFACE}.binding")]
    assert network(both, "main") == [
        ("logical default interface must have exactly one binding method or binding plugin", IFACE)]


def test_forward_port_causes_before_v1_9_sit_at_the_port_and_65536_passes() -> None:
    body = pod_interface(masquerade={}, ports=[{"port": 0}, {"port": 65536}, {"port": 70000}])
    assert network(body, "v1.8.4") == [
        ("Port field is mandatory.", f"{IFACE}.ports[0]"),
        ("Port field must be in range 0 < x < 65536.", f"{IFACE}.ports[2]")]
    assert network(body, "v1.9.0") == [
        ("Port field is mandatory.", f"{IFACE}.ports[0].port"),
        ("Port field must be in range 0 < x < 65536.", f"{IFACE}.ports[1].port"),
        ("Port field must be in range 0 < x < 65536.", f"{IFACE}.ports[2].port")]


def test_port_ranges_and_dra_networks_are_unknown_before_v1_9() -> None:
    ranged = pod_interface(masquerade={}, portRanges=[{"protocol": "TCP", "start": 80, "end": 90}])
    assert network(ranged, "v1.8.4") == []
    assert network(ranged, "v1.9.0") == [
        ("portRanges is specified on interface but the PortRangesSpec feature gate is not enabled", f"{IFACE}.name")]
    dra = {"domain": {"devices": {"interfaces": [{"name": "dra", "sriov": {}}]}},
           "networks": [{"name": "dra", "resourceClaim": {"claimName": "nic", "requestName": "vf"}}]}
    assert ("should have a network type", "spec.template.spec.networks[0]") in network(dra, "v1.8.4")
    assert network(dra, "v1.9.0")[0] == (
        "vmi.spec.networks contains DRA networks but NetworkDevicesWithDRA feature gate is not enabled",
        "spec.template.spec.networks")


def test_video_and_panic_devices_need_their_gates_before_v1_9() -> None:
    body = {"domain": {"devices": {"video": {"type": "virtio"}, "panicDevices": [{"model": "bad"}]}}}
    assert causes(devices.video_config(ROOT, body, cfg("v1.8.4"))) == [
        ("Video configuration is specified but the VideoConfig feature gate is not enabled",
         "spec.template.spec.video")]
    assert causes(devices.video_config(ROOT, body, cfg("v1.8.4", "VideoConfig"))) == []
    assert causes(devices.video_config(ROOT, body, cfg("v1.9.0"))) == []
    at = "spec.template.spec.domain.devices.panicDevices"
    assert causes(devices.panic_devices(ROOT, body, cfg("v1.8.4"))) == [
        ("Panic Devices feature gate is not enabled in kubevirt-config", at)]
    assert causes(devices.panic_devices(ROOT, body, cfg("v1.8.4", "PanicDevices"))) == [
        ("invalid PanicDeviceModel(bad)", f"{at}[0].model")]
    assert causes(devices.panic_devices(ROOT, body, cfg("v1.9.0"))) == [
        ("invalid PanicDeviceModel(bad)", f"{at}[0].model")]


@pytest.mark.parametrize(("version", "gates", "expected"), [
    ("v1.8.4", (), [("SecureExecution feature gate is not enabled in kubevirt-config",
                     "spec.template.spec.launchSecurity")]),
    ("v1.8.4", ("SecureExecution",), []),
    ("v1.9.0", (), []),
])
def test_s390x_launch_security(version: str, gates: tuple[str, ...], expected: list[tuple[str, str]]) -> None:
    body = {"architecture": "s390x", "domain": {"launchSecurity": {}}}
    assert causes(firmware.launch_security(ROOT, body, cfg(version, *gates))) == expected


def test_persistent_reservation_before_v1_9_is_the_gate() -> None:
    body = {"domain": {"devices": {"disks": [{"name": "d", "lun": {"reservation": True}}]}}}
    at = "spec.template.spec.domain.devices.disks.luns.reservation"
    assert causes(features.persistent_reservation(ROOT, body, cfg("v1.8.4"))) == [
        ("PersistentReservation feature gate is not enabled in kubevirt-config", at)]
    assert causes(features.persistent_reservation(ROOT, body, cfg("v1.8.4", "PersistentReservation"))) == []
    on = {"persistentReservationConfiguration": {"enabled": True}}
    assert causes(features.persistent_reservation(ROOT, body, cfg("v1.8.4", **on))) == [
        ("PersistentReservation feature gate is not enabled in kubevirt-config", at)]
    assert causes(features.persistent_reservation(ROOT, body, cfg("v1.9.0", **on))) == []
    assert causes(features.persistent_reservation(ROOT, body, cfg("v1.9.0"))) == [
        ("persistent reservation is not enabled in kubevirt config", at)]


def test_service_account_name_is_checked_from_v1_9() -> None:
    body = {"serviceAccountName": "builder", "volumes": [{"name": "sa", "serviceAccount": {"serviceAccountName": "x"}}]}
    found = causes(vmi_spec.validate(ROOT, body, cfg("v1.9.0")))
    assert ('spec.serviceAccountName "builder" and serviceAccount volume "x" must reference the same service account',
            "spec.template.spec.serviceAccountName") in found
    assert not [c for c in causes(vmi_spec.validate(ROOT, body, cfg("v1.8.4"))) if "serviceAccountName" in c[1]]


def test_tdx_exempts_secure_boot_from_smm_from_v1_9() -> None:
    body = {"domain": {"features": {"smm": {"enabled": False}}, "launchSecurity": {"tdx": {}},
                       "firmware": {"bootloader": {"efi": {"secureBoot": True}}}}}
    message = ("spec.template.spec.domain has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently "
               "disabled.")
    assert message in [c.message for c in firmware.domain(ROOT, body, cfg("v1.8.4"))]
    assert message not in [c.message for c in firmware.domain(ROOT, body, cfg("v1.9.0"))]


def test_grace_checks_from_v1_9() -> None:
    conf = {"permittedHostDevices": {"pciHostDevices": [{"pciVendorSelector": "10DE:2342",
                                                         "resourceName": "nvidia.com/GH100"}]}}
    body = {"architecture": "amd64", "domain": {"devices": {"hostDevices": [{"name": "g",
                                                                           "deviceName": "nvidia.com/GH100"}]}}}
    assert causes(devices.grace_io_virtualization(ROOT, body, cfg("v1.8.4", "HostDevices", **conf))) == []
    assert causes(devices.grace_io_virtualization(ROOT, body, cfg("v1.9.0", "HostDevices", **conf))) == [
        ('GraceIOVirtualization feature gate must be enabled for NVIDIA Grace GPU passthrough resource '
         '"nvidia.com/GH100"', "spec.template.spec.domain.devices.hostDevices[0].deviceName")]


def test_ramfb_without_enabled_counts_only_on_main() -> None:
    gpu = {"deviceName": "nvidia.com/T4", "virtualGPUOptions": {"display": {"ramFB": {}}}}
    body = {"domain": {"devices": {"gpus": [{"name": "a", **gpu}, {"name": "b", **gpu}]}}}
    assert causes(devices.mdev_ramfb(ROOT, body, cfg("v1.9.0"))) == []
    assert causes(devices.mdev_ramfb(ROOT, body, cfg("main"))) == [
        ("configuring multiple displays with ramfb is not valid ", "spec.template.spec.GPUs")]


def test_only_main_registers_the_storage_vmi_validator() -> None:
    disk = {"name": "d", "disk": {"bus": "sata"}, "blockSize": {"custom": {"logical": 4096, "physical": 4096}}}
    body = {"domain": {"devices": {"disks": [disk]}}, "volumes": [{"name": "d", "emptyDisk": {"capacity": "1Gi"}}]}
    at = FieldPath.of("spec")
    assert vmi_webhook.storage_validate(at, body, cfg("v1.9.0")) == []
    assert [c.message for c in vmi_webhook.storage_validate(at, body, cfg("main"))] == [
        "Logical size 4096 must be 512 for SATA devices"]


def test_hugepages_causes_before_v1_8_name_domain_hugepages_size() -> None:
    body = {"domain": {"memory": {"hugepages": {"pageSize": "2Mi"}}, "resources": {"requests": {"memory": "1Mi"}}}}
    request = "spec.template.spec.domain.resources.requests.memory"
    assert causes(memory.hugepages_requests(ROOT, body, cfg("v1.7.4"))) == [
        (f"{request} '1Mi' must be equal to or larger than page size spec.template.spec.domain.hugepages.size '2Mi'",
         request)]
    assert causes(memory.hugepages_requests(ROOT, body, cfg("v1.8.0"))) == [
        (f"{request} '1Mi' must be equal to or larger than page size "
         "spec.template.spec.domain.memory.hugepages.pageSize '2Mi'", request)]
    bad = {"domain": {"memory": {"hugepages": {"pageSize": "x"}}}}
    [(message, at)] = causes(memory.hugepages_requests(ROOT, bad, cfg("v1.7.4")))
    assert at == "spec.template.spec.domain.hugepages.size" and message.startswith(f"{at} 'x': ")
    none = FieldPath.of("spec")
    assert [c.message for c in memory.mandatory_fields(none, {"domain": {}}, cfg("v1.7.4"))] == [
        "no memory requested, at least one of 'spec.domain.memory.guest', 'spec.domain.memory.hugepages.size' or "
        "'spec.domain.resources.requests.memory' must be set"]


def test_virtiofs_config_volumes_need_a_gate_before_v1_8() -> None:
    body = {"domain": {"devices": {"filesystems": [{"name": "cm", "virtiofs": {}}, {"name": "pvc", "virtiofs": {}}]}},
            "volumes": [{"name": "cm", "configMap": {"name": "c"}},
                        {"name": "pvc", "persistentVolumeClaim": {"claimName": "p"}}]}
    at = "spec.template.spec.domain.devices.filesystems"
    assert causes(features.virtiofs_filesystems(ROOT, body, cfg("v1.7.4"))) == [
        ("virtiofs is not allowed: virtiofs feature gate is not enabled for config volumes", at),
        ("virtiofs is not allowed: virtiofs feature gate is not enabled for PVC", at)]
    assert causes(features.virtiofs_filesystems(ROOT, body, cfg("v1.7.4", "ExperimentalVirtiofsSupport"))) == []
    assert causes(features.virtiofs_filesystems(ROOT, body, cfg("v1.8.4"))) == [
        ("virtiofs is not allowed: virtiofs feature gate is not enabled for PVC", at)]


@pytest.mark.parametrize(("version", "gates", "expected"), [
    ("v1.7.4", (), [("MultiArchitecture feature gate is not enabled in kubevirt-config, invalid entry "
                     "spec.template.spec.architecture", "spec.template.spec.architecture")]),
    ("v1.7.4", ("MultiArchitecture",), []),
    ("v1.8.0", (), []),
])
def test_multi_architecture_gate_before_v1_8(version: str, gates: tuple[str, ...],
                                             expected: list[tuple[str, str]]) -> None:
    assert causes(machine.multi_architecture(ROOT, {"architecture": "arm64"}, cfg(version, *gates))) == expected
    assert causes(machine.multi_architecture(ROOT, {"architecture": "amd64"}, cfg(version, *gates))) == []


def test_before_v1_8_passt_and_macvtap_have_their_gates_and_only_slirp_is_discontinued() -> None:
    body = {"domain": {"devices": {"interfaces": [{"name": "default", "passt": {}},
                                                  {"name": "tap", "macvtap": {}},
                                                  {"name": "user", "slirp": {}}]}},
            "networks": [{"name": "default", "multus": {"networkName": "x"}}, {"name": "tap", "pod": {}},
                         {"name": "user", "pod": {}}]}
    ifaces = "spec.template.spec.domain.devices.interfaces"
    assert causes(rules.validate_creation(ROOT, body, cfg("v1.7.4"))) == [
        ("Slirp interface support has been discontinued since v1.3", f"{ifaces}[2].slirp")]
    assert [c[0] for c in causes(rules.validate_creation(ROOT, body, cfg("v1.8.4")))] == [
        "Passt network binding has been discontinued since v1.3",
        "Macvtap network binding has been discontinued since v1.3",
        "Slirp interface support has been discontinued since v1.3"]
    found = network(body, "v1.7.4")
    assert ("Passt feature gate is not enabled", f"{ifaces}[0].name") in found
    assert ("Passt interface only implemented with pod network", f"{ifaces}[0].name") in found
    assert ("Macvtap feature gate is not enabled", f"{ifaces}[1].name") in found
    assert ("Macvtap interface only implemented with Multus network", f"{ifaces}[1].name") in found
    both = pod_interface(passt={}, binding={"name": "x"})
    assert ("logical default interface cannot have both binding plugin and interface binding method",
            f"{IFACE}.binding") in network(both, "v1.7.4")
    assert ("logical default interface cannot have both binding plugin and interface binding method",
            f"{IFACE}.binding") not in network(both, "v1.8.4")


@pytest.mark.parametrize(("version", "refused"), [("v1.8.2", True), ("v1.8.3", False), ("v1.7.4", True),
                                                  ("v1.9.0", False)])
def test_arm64_efi_secure_boot_is_refused_up_to_v1_8_2(version: str, refused: bool) -> None:
    body = {"architecture": "arm64", "domain": {"firmware": {"bootloader": {"efi": {}}}}}
    expected = [("UEFI secure boot is currently not supported on aarch64 Arch",
                 "spec.template.spec.domain.firmware.bootloader.efi.secureboot")] if refused else []
    assert causes(machine.per_arch(ROOT, body, cfg(version))) == expected
    off = {"architecture": "arm64", "domain": {"firmware": {"bootloader": {"efi": {"secureBoot": False}}}}}
    assert causes(machine.per_arch(ROOT, off, cfg(version))) == []


@pytest.mark.parametrize(("version", "fails"), [("v1.7.3", True), ("v1.7.4", False), ("v1.6.6", True)])
def test_dedicated_cpus_without_domain_memory_fail_the_webhook_before_v1_7_4(version: str, fails: bool) -> None:
    body = {"domain": {"cpu": {"dedicatedCpuPlacement": True}}}
    found = [c.message for c in cpu.pinning(ROOT, body, cfg(version))]
    assert any("nil pointer dereference" in m for m in found) is fails
    assert any(m.endswith("should be provided") for m in found) is not fails


@pytest.mark.parametrize("version", ["v1.5.3", "v1.6.3"])
def test_before_v1_6_4_dedicated_cpus_need_a_memory_request_or_limit(version: str) -> None:
    """release.memory_provided_checks_only_resources: v1.5.0-v1.6.3 look at the memory request and limit only
    (an instancetype with overcommitPercent: 100 requests 0 and is refused), and panic on nothing."""
    wanted = [("spec.template.spec.domain.resources.requests.memory or spec.template.spec.domain.resources.limits"
               ".memory should be provided", "spec.template.spec.domain.resources.limits.memory")]
    for body in ({"domain": {"cpu": {"dedicatedCpuPlacement": True}}},
                 {"domain": {"cpu": {"dedicatedCpuPlacement": True}, "memory": {"guest": "8Gi"},
                             "resources": {"requests": {"memory": "0"}}}}):
        found = [(c.message, c.field) for c in cpu.pinning(ROOT, body, cfg(version))]
        assert [f for f in found if "memory" in f[0]] == wanted
    body = {"domain": {"cpu": {"dedicatedCpuPlacement": True}, "resources": {"limits": {"memory": "1Gi"}}}}
    assert not [c for c in cpu.pinning(ROOT, body, cfg(version)) if "memory" in c.message]


def test_a_revision_holds_fields_an_older_release_drops() -> None:
    """A ControllerRevision's data is decoded by the release's Go types: fields it does not know are not applied."""
    from kubectl_instancetype.api.releases import BY_NAME
    from kubectl_instancetype.expand.apply import apply_spec

    it = {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}, "ioThreads": {"supplementalPoolThreadCount": 2}}
    pref = {"preferredArchitecture": "arm64", "preferredLaunchSecurity": {"sev": {}},
            "devices": {"preferredVideoType": "virtio"}}

    def applied(version: str) -> Spec:
        spec: Spec = {"domain": {"devices": {}}}
        assert apply_spec("spec.template.spec", it, pref, spec, {}, release=BY_NAME[version]) == []
        return spec

    old, v17, v19 = applied("v1.6.6"), applied("v1.7.0"), applied("v1.9.0")
    assert "ioThreads" not in old["domain"] and "architecture" not in old
    assert v17["domain"]["ioThreads"] == {"supplementalPoolThreadCount": 2} and v17["architecture"] == "arm64"
    assert "launchSecurity" not in v17["domain"] and "video" not in v17["domain"]["devices"]
    assert v19["domain"]["launchSecurity"] == {"sev": {}} and v19["domain"]["devices"]["video"] == {"type": "virtio"}


@pytest.mark.parametrize(("version", "gates", "body", "expected"), [
    ("v1.5.3", (), {"architecture": "s390x", "domain": {"launchSecurity": {}}},
     ["WorkloadEncryptionSEV feature gate is not enabled in kubevirt-config"]),
    ("v1.6.6", (), {"architecture": "s390x", "domain": {"launchSecurity": {}}},
     ["SecureExecution feature gate is not enabled in kubevirt-config"]),
    ("v1.6.6", (), {"architecture": "amd64", "domain": {"launchSecurity": {"sev": {}}}},
     ["WorkloadEncryptionSEV feature gate is not enabled in kubevirt-config"]),
    ("v1.6.6", ("WorkloadEncryptionSEV",),
     {"architecture": "arm64", "domain": {"launchSecurity": {"sev": {"attestation": {}}},
                                          "firmware": {"bootloader": {"efi": {}}},
                                          "devices": {"interfaces": [{"name": "nic", "bootOrder": 1}]}}},
     ["SEV does not work along with SecureBoot", "SEV attestation requires VMI StartStrategy 'Paused'",
      "SEV does not work with bootable NICs: nic"]),
    ("v1.7.0", ("WorkloadEncryptionSEV",), {"architecture": "arm64", "domain": {"launchSecurity": {"sev": {}}}},
     ["No launchSecurity support for architecture: arm64"]),
])
def test_launch_security_before_v1_7_is_sev_only(version: str, gates: tuple[str, ...], body: Spec,
                                                 expected: list[str]) -> None:
    found = firmware.launch_security(ROOT, body, cfg(version, *gates))
    assert [c.message for c in found] == expected
    assert all(c.field in ("spec.template.spec.launchSecurity", "spec.template.spec.architecture") for c in found)
