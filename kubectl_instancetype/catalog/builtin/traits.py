"""Preference traits: the spec fragments common-instancetypes preferences are composed of.

Each trait is one fact about a guest OS ("Windows wants Hyper-V enlightenments", "this release boots with
EFI secure boot") written once as a partial ``VirtualMachinePreference`` spec. :mod:`.guests` lists which
traits each preference combines; later traits override earlier ones key by key.
"""

from __future__ import annotations

from typing import Any

Trait = dict[str, Any]

LINUX: Trait = {
    "annotations": {"vm.kubevirt.io/os": "linux"},
    "devices": {"preferredDiskBus": "virtio", "preferredInterfaceModel": "virtio", "preferredRng": {}},
}
# Guests without virtio drivers get emulated SATA disks and an e1000 NIC.
LEGACY: Trait = {
    "annotations": {"vm.kubevirt.io/os": "legacy"},
    "devices": {"preferredDiskBus": "sata", "preferredInterfaceModel": "e1000"},
}
# Windows needs Hyper-V enlightenments, a UTC clock with its timers tuned, and time to shut down cleanly;
# without the virtio drivers installed it only sees SATA disks and an e1000e NIC.
WINDOWS: Trait = {
    "annotations": {"vm.kubevirt.io/os": "windows"},
    "clock": {
        "preferredClockOffset": {"utc": {}},
        "preferredTimer": {
            "hpet": {"present": False},
            "hyperv": {},
            "pit": {"tickPolicy": "delay"},
            "rtc": {"tickPolicy": "catchup"},
        },
    },
    "cpu": {"preferredCPUTopology": "sockets"},
    "devices": {
        "preferredAutoattachInputDevice": True,
        "preferredDiskBus": "sata",
        "preferredInterfaceModel": "e1000e",
    },
    "features": {
        "preferredAcpi": {},
        "preferredApic": {},
        "preferredHyperv": {
            "frequencies": {},
            "ipi": {},
            "reenlightenment": {},
            "relaxed": {},
            "reset": {},
            "runtime": {},
            "spinlocks": {"spinlocks": 8191},
            "synic": {},
            "synictimer": {"direct": {}},
            "tlbflush": {},
            "vapic": {},
            "vpindex": {},
        },
    },
    "preferredTerminationGracePeriodSeconds": 3600,
}

DEDICATED_IO_THREAD: Trait = {"devices": {"preferredDiskDedicatedIoThread": True}}
# A tablet keeps the pointer of a graphical console in step with the client's.
TABLET: Trait = {
    "devices": {
        "preferredAutoattachInputDevice": True,
        "preferredInputBus": "virtio",
        "preferredInputType": "tablet",
    }
}
# Windows with the virtio drivers installed: paravirtual disk, NIC, video and tablet.
WINDOWS_VIRTIO: Trait = {
    "devices": {
        "preferredDiskBus": "virtio",
        "preferredInputBus": "virtio",
        "preferredInputType": "tablet",
        "preferredInterfaceModel": "virtio",
        "preferredVideoType": "virtio",
    }
}
VIRTIO_TRANSITIONAL: Trait = {"devices": {"preferredUseVirtioTransitional": True}}


def nic(model: str) -> Trait:
    """The NIC model an old guest has a driver for."""
    return {"devices": {"preferredInterfaceModel": model}}


EFI: Trait = {"firmware": {"preferredEfi": {"secureBoot": False}}}
# Secure boot needs SMM; only offered on amd64.
SECURE_BOOT: Trait = {"features": {"preferredSmm": {}}, "firmware": {"preferredEfi": {"secureBoot": True}}}
# Releases that require a TPM (Windows 11, Server 2022+) keep TPM and EFI variables across restarts.
PERSISTENT_STATE: Trait = {
    "devices": {"preferredTPM": {"persistent": True}},
    "firmware": {"preferredEfi": {"persistent": True}},
}
# Windows XP and Server 2003 do not cope with a 64-bit PCI hole, so the firmware must not reserve one.
NO_PCI_HOLE64: Trait = {"annotations": {"kubevirt.io/disablePCIHole64": "true"}}
# IBM Secure Execution on s390x.
SECURE_EXECUTION: Trait = {"preferredLaunchSecurity": {}}

CORES: Trait = {"cpu": {"preferredCPUTopology": "cores"}}
# DPDK: spread vCPUs over 2 threads per core and 4 cores per socket, with one NIC queue per vCPU.
DPDK: Trait = {
    "cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "SocketsCoresThreads", "ratio": 4}},
    "devices": {"preferredNetworkInterfaceMultiQueue": True},
}
# Realtime guests drop the devices that cause latency spikes (graphics, balloon) and keep a serial console.
REALTIME: Trait = {
    "cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "SocketsCoresThreads"}},
    "devices": {
        "preferredAutoattachGraphicsDevice": False,
        "preferredAutoattachMemBalloon": False,
        "preferredAutoattachSerialConsole": True,
        "preferredNetworkInterfaceMultiQueue": True,
    },
}


def architecture(arch: str) -> Trait:
    """A preference built for one CPU architecture prefers and requires it."""
    return {"preferredArchitecture": arch, "requirements": {"architecture": arch}}
