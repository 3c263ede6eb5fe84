"""The VMI webhook's steps one by one: API defaulters, Hyper-V dependencies, architecture, hot-plug, status."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.omitempty import omit_zero_plain_fields
from kubectl_instancetype.config import ClusterConfig, load_config
from kubectl_instancetype.vmi.arch import set_arch_defaults, set_arch_features
from kubectl_instancetype.vmi.hotplug import memory_hotplug_problem, setup_hotplug
from kubectl_instancetype.vmi.objdefaults import set_hyperv_dependencies, set_object_defaults
from kubectl_instancetype.vmi.status import initial_status

DEFAULT = ClusterConfig()


def test_object_defaults_enable_present_features_and_timers() -> None:
    spec: dict[str, Any] = {
        "domain": {
            "clock": {"timer": {"hpet": {}, "rtc": {"present": False}, "hyperv": {}}},
            "features": {
                "apic": {},
                "smm": {"enabled": False},
                "kvm": {},
                "hyperv": {
                    "spinlocks": {},
                    "vendorid": {"vendorid": "x"},
                    "synictimer": {"direct": {}},
                    "tlbflush": {"direct": {}, "extended": {"enabled": False}},
                },
            },
        }
    }
    set_object_defaults(spec)
    domain = spec["domain"]
    assert domain["clock"]["timer"] == {
        "hpet": {"present": True},
        "rtc": {"present": False},
        "hyperv": {"present": True},
    }
    assert domain["firmware"] == {}
    assert domain["features"] == {
        "apic": {"enabled": True},
        "smm": {"enabled": False},
        "kvm": {},
        "acpi": {"enabled": True},
        "hyperv": {
            "spinlocks": {"enabled": True, "spinlocks": 4096},
            "vendorid": {"vendorid": "x", "enabled": True},
            "synictimer": {"direct": {"enabled": True}, "enabled": True},
            "tlbflush": {"direct": {"enabled": True}, "extended": {"enabled": False}, "enabled": True},
        },
    }


def test_object_defaults_for_devices_and_probes() -> None:
    spec: dict[str, Any] = {
        "domain": {
            "devices": {
                "disks": [
                    {"name": "a"},
                    {"name": "b", "cdrom": {}},
                    {"name": "c", "lun": {}, "blockSize": {"matchVolume": {}}},
                ],
                "inputs": [{"name": "in"}, {"name": "kb", "bus": "virtio", "type": "keyboard"}],
                "watchdog": {"name": "w"},
            }
        },
        "readinessProbe": {"periodSeconds": 0, "failureThreshold": 5},
    }
    set_object_defaults(spec)
    devices = spec["domain"]["devices"]
    assert devices["disks"] == [
        {"name": "a", "disk": {}},
        {"name": "b", "cdrom": {"readonly": True, "tray": "closed"}},
        {"name": "c", "lun": {}, "blockSize": {"matchVolume": {"enabled": True}}},
    ]
    assert devices["inputs"] == [
        {"name": "in", "bus": "usb", "type": "tablet"},
        {"name": "kb", "bus": "virtio", "type": "keyboard"},
    ]
    assert devices["watchdog"] == {"name": "w"}  # its device comes with the architecture defaults
    assert spec["readinessProbe"] == {
        "periodSeconds": 10,
        "failureThreshold": 5,
        "timeoutSeconds": 1,
        "successThreshold": 1,
    }


@pytest.mark.parametrize(
    ("hyperv", "expected", "cpu_features"),
    [
        (
            {"evmcs": {}},
            {"evmcs": {"enabled": True}, "vapic": {"enabled": True}},
            [{"name": "vmx", "policy": "require"}],
        ),
        ({"synic": {}}, {"synic": {"enabled": True}, "vpindex": {"enabled": True}}, None),
        (
            {"synictimer": {}},
            {"synictimer": {"enabled": True}, "synic": {"enabled": True}, "vpindex": {"enabled": True}},
            None,
        ),
        # a requirement the user switched off stops KubeVirt at that feature: synic is left alone
        (
            {"tlbflush": {}, "vpindex": {"enabled": False}, "synictimer": {}},
            {"tlbflush": {"enabled": True}, "vpindex": {"enabled": False}, "synictimer": {"enabled": True}},
            None,
        ),
    ],
)
def test_hyperv_dependencies(hyperv: dict[str, Any], expected: dict[str, Any], cpu_features: Any) -> None:
    spec: dict[str, Any] = {
        "domain": {"features": {"hyperv": hyperv}, "cpu": {"features": [{"name": "vmx", "policy": "optional"}]}}
    }
    set_object_defaults(spec)
    set_hyperv_dependencies(spec)
    assert spec["domain"]["features"]["hyperv"] == expected
    assert spec["domain"]["cpu"]["features"] == (cpu_features or [{"name": "vmx", "policy": "optional"}])


@pytest.mark.parametrize(
    ("arch", "bus", "model", "firmware", "watchdog"),
    [
        ("amd64", "sata", "host-model", {}, {"name": "w", "i6300esb": {"action": "reset"}}),
        ("arm64", "virtio", "host-passthrough", {"bootloader": {"efi": {"secureBoot": False}}}, {"name": "w"}),
        ("s390x", "virtio", "host-model", {}, {"name": "w", "diag288": {"action": "reset"}}),
    ],
)
def test_architecture_defaults(arch: str, bus: str, model: str, firmware: Any, watchdog: Any) -> None:
    spec: dict[str, Any] = {
        "architecture": arch,
        "domain": {
            "firmware": {},
            "devices": {
                "disks": [{"name": "a", "disk": {}}, {"name": "b", "cdrom": {"bus": "scsi"}}, {"name": "c", "lun": {}}],
                "watchdog": {"name": "w"},
            },
        },
    }
    set_arch_defaults(spec, DEFAULT)
    disks = spec["domain"]["devices"]["disks"]
    assert [d.get("disk", d.get("cdrom", d.get("lun")))["bus"] for d in disks] == [bus, "scsi", bus]
    assert spec["domain"]["cpu"] == {"model": model}
    assert spec["domain"]["firmware"] == firmware
    assert spec["domain"]["devices"]["watchdog"] == watchdog


# pkg/defaults/arm64.go setDefaultArm64Bootloader: the firmware a VMI on arm64 ends with.
@pytest.mark.parametrize(
    ("firmware", "expected"),
    [
        (None, {"bootloader": {"efi": {"secureBoot": False}}}),
        ({"bootloader": {"efi": {}}}, {"bootloader": {"efi": {"secureBoot": False}}}),
        ({"bootloader": {"efi": {"persistent": True}}},
         {"bootloader": {"efi": {"persistent": True, "secureBoot": False}}}),
        ({"bootloader": {"efi": {"secureBoot": True}}}, {"bootloader": {"efi": {"secureBoot": True}}}),
        ({"bootloader": {"bios": {}}}, {"bootloader": {"bios": {}}}),
        ({"bootloader": {}}, {"bootloader": {}}),
    ],
)
def test_arm64_efi_without_secure_boot_setting_gets_false(firmware: Any, expected: Any) -> None:
    spec: dict[str, Any] = {"architecture": "arm64", "domain": {} if firmware is None else {"firmware": firmware}}
    set_arch_defaults(spec, DEFAULT)
    assert spec["domain"]["firmware"] == expected


def test_cluster_cpu_model_and_s390x_acpi() -> None:
    spec: dict[str, Any] = {"architecture": "amd64", "domain": {}}
    set_arch_defaults(spec, load_config({"cpuModel": "Haswell-noTSX"}))
    assert spec["domain"]["cpu"] == {"model": "Haswell-noTSX"}
    s390x: dict[str, Any] = {"architecture": "s390x", "domain": {}}
    set_arch_features(s390x)
    set_object_defaults(s390x)
    assert s390x["domain"]["features"] == {"acpi": {"enabled": False}}
    kept: dict[str, Any] = {"architecture": "s390x", "domain": {"features": {"acpi": {"enabled": True}}}}
    set_arch_features(kept)
    assert kept["domain"]["features"] == {"acpi": {"enabled": True}}


def _hotplugged(
    cpu: dict[str, Any], memory: dict[str, Any] | None, cfg: ClusterConfig = DEFAULT, arch: str = "amd64"
) -> dict[str, Any]:
    spec: dict[str, Any] = {"architecture": arch, "domain": {"cpu": cpu}}
    if memory is not None:
        spec["domain"]["memory"] = memory
    setup_hotplug(spec, cfg)
    return spec["domain"]


@pytest.mark.parametrize(
    ("cpu", "cfg", "max_sockets"),
    [
        ({"sockets": 2, "cores": 1, "threads": 1}, DEFAULT, 8),
        ({"sockets": 2, "cores": 1, "threads": 1, "maxSockets": 3}, DEFAULT, 3),
        ({"threads": 2}, DEFAULT, None),  # no sockets: 0 x 4 is omitted
        ({"sockets": 64, "cores": 4, "threads": 1}, DEFAULT, 128),  # 512 vCPUs at most
        ({"sockets": 200, "cores": 4, "threads": 1}, DEFAULT, 200),  # never below sockets
        ({"sockets": 2, "cores": 1, "threads": 1}, load_config({"liveUpdateConfiguration": {"maxCpuSockets": 6}}), 6),
        ({"sockets": 9, "cores": 1, "threads": 1}, load_config({"liveUpdateConfiguration": {"maxCpuSockets": 6}}), 9),
        ({"sockets": 2, "cores": 1, "threads": 1}, load_config({"liveUpdateConfiguration": {"maxHotplugRatio": 3}}), 6),
        ({"sockets": 2, "cores": 1, "threads": 1}, load_config({"vmRolloutStrategy": "Stage"}), None),
    ],
)
def test_max_sockets(cpu: dict[str, Any], cfg: ClusterConfig, max_sockets: int | None) -> None:
    assert _hotplugged(cpu, None, cfg)["cpu"].get("maxSockets") == max_sockets


@pytest.mark.parametrize(
    ("memory", "cfg", "arch", "max_guest"),
    [
        ({"guest": "2Gi"}, DEFAULT, "amd64", "8Gi"),
        ({"guest": "1536Mi"}, DEFAULT, "amd64", "6Gi"),
        ({"guest": "1500M"}, DEFAULT, "amd64", None),  # not 2Mi aligned
        ({"guest": "512Mi"}, DEFAULT, "amd64", None),  # under 1Gi
        ({"guest": "4Gi"}, DEFAULT, "s390x", None),
        ({"guest": "3Gi", "hugepages": {"pageSize": "1Gi"}}, DEFAULT, "amd64", "12Gi"),
        ({"guest": "2Gi"}, load_config({"liveUpdateConfiguration": {"maxGuest": "16Gi"}}), "amd64", "16Gi"),
        ({"guest": "2Gi"}, load_config({"liveUpdateConfiguration": {"maxGuest": "1Gi"}}), "amd64", None),
        ({"guest": "2Gi", "maxGuest": "4Gi"}, DEFAULT, "amd64", "4Gi"),
        ({}, DEFAULT, "amd64", None),
    ],
)
def test_max_guest(memory: dict[str, Any], cfg: ClusterConfig, arch: str, max_guest: str | None) -> None:
    cpu = {"sockets": 1}
    assert _hotplugged(cpu, memory, cfg, arch)["memory"].get("maxGuest") == max_guest


def test_arm64_gets_no_hotplug_and_reasons_are_kubevirts() -> None:
    assert _hotplugged({"sockets": 2}, {"guest": "2Gi"}, arch="arm64") == {
        "cpu": {"sockets": 2},
        "memory": {"guest": "2Gi"},
    }
    from kubectl_instancetype.quantity import parse_quantity

    spec = {"architecture": "amd64", "domain": {"memory": {"guest": "3Gi", "hugepages": {"pageSize": "1Gi"}}}}
    assert memory_hotplug_problem(spec, parse_quantity("3584Mi")) == "MaxGuest must be 1Gi aligned"
    spec["domain"]["launchSecurity"] = {"sev": {}}
    assert memory_hotplug_problem(spec, parse_quantity("4Gi")) == "Memory hotplug is not compatible with encrypted VMs"


def test_initial_status() -> None:
    spec = {"domain": {"cpu": {"sockets": 1, "threads": 2, "cores": 0}, "memory": {"guest": "1Gi"}}}
    assert initial_status(spec, DEFAULT) == {
        "phase": "Pending",
        "phaseTransitionTimestamps": [{"phase": "Pending", "phaseTransitionTimestamp": "1970-01-01T00:00:00Z"}],
        "guestOSInfo": {},
        "runtimeUser": 107,
        "currentCPUTopology": {"sockets": 1, "threads": 2},
        "memory": {"guestAtBoot": "1Gi", "guestCurrent": "1Gi", "guestRequested": "1Gi"},
    }
    root = load_config({"developerConfiguration": {"featureGates": ["Root"]}})
    assert initial_status({"domain": {}}, root)["runtimeUser"] == 0  # printed: no omitempty in KubeVirt


def test_go_omits_zero_plain_fields() -> None:
    spec = {
        "hostname": "",
        "domain": {
            "cpu": {"cores": 0, "sockets": 2, "isolateEmulatorThread": False, "dedicatedCpuPlacement": True},
            "devices": {"disableHotplug": False, "disks": [{"name": "a", "cache": "", "lun": {"readonly": False}}]},
            "features": {"kvm": {"hidden": False}},
        },
        "terminationGracePeriodSeconds": 0,  # a pointer: kept
    }
    omit_zero_plain_fields(spec)
    assert spec == {
        "domain": {
            "cpu": {"sockets": 2, "dedicatedCpuPlacement": True},
            "devices": {"disks": [{"name": "a", "lun": {}}]},
            "features": {"kvm": {}},
        },
        "terminationGracePeriodSeconds": 0,
    }
