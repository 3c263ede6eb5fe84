"""The shapes of the KubeVirt API objects expansion reads (kubevirt.io/api core/v1 and instancetype/v1beta1).

Used by :mod:`.schema` to refuse objects with fields of the wrong type before expansion touches them.
"""

from __future__ import annotations

from typing import Any

from .schema import ANY, BOOL, INT, OBJ, QTY, STR, list_of, map_of

STRINGS = map_of(STR)
MATCHER = {k: STR for k in ("name", "kind", "revisionName", "inferFromVolume", "inferFromVolumeFailurePolicy")}
NAMED = {"name": STR}

INSTANCETYPE_SPEC: dict[str, Any] = {
    "nodeSelector": STRINGS,
    "schedulerName": STR,
    "cpu": {
        "guest": INT, "model": STR, "dedicatedCPUPlacement": BOOL, "numa": OBJ,
        "isolateEmulatorThread": BOOL, "realtime": OBJ, "maxSockets": INT,
    },
    "memory": {"guest": QTY, "hugepages": {"pageSize": STR}, "overcommitPercent": INT, "maxGuest": QTY},
    "gpus": list_of(OBJ),
    "hostDevices": list_of(OBJ),
    "ioThreadsPolicy": STR,
    "ioThreads": {"supplementalPoolThreadCount": INT},
    "launchSecurity": OBJ,
    "annotations": STRINGS,
}

_DEVICE_PREFERENCES: dict[str, Any] = {
    **{k: BOOL for k in (
        "preferredAutoattachGraphicsDevice", "preferredAutoattachMemBalloon", "preferredAutoattachPodInterface",
        "preferredAutoattachSerialConsole", "preferredAutoattachInputDevice", "preferredDisableHotplug",
        "preferredUseVirtioTransitional", "preferredDiskDedicatedIoThread", "preferredBlockMultiQueue",
        "preferredNetworkInterfaceMultiQueue",
    )},
    **{k: STR for k in (
        "preferredSoundModel", "preferredInputBus", "preferredInputType", "preferredDiskBus", "preferredLunBus",
        "preferredCdromBus", "preferredDiskCache", "preferredDiskIO", "preferredInterfaceModel",
        "preferredPanicDeviceModel", "preferredVideoType",
    )},
    **{k: OBJ for k in (
        "preferredVirtualGPUOptions", "preferredDiskBlockSize", "preferredRng", "preferredTPM",
        "preferredInterfaceMasquerade",
    )},
}

PREFERENCE_SPEC: dict[str, Any] = {
    "clock": {"preferredClockOffset": OBJ, "preferredTimer": OBJ},
    "cpu": {
        "preferredCPUTopology": STR,
        "spreadOptions": {"across": STR, "ratio": INT},
        "preferredCPUFeatures": list_of(NAMED),
    },
    "devices": _DEVICE_PREFERENCES,
    "features": {k: OBJ for k in (
        "preferredAcpi", "preferredApic", "preferredHyperv", "preferredKvm", "preferredPvspinlock", "preferredSmm",
    )},
    "firmware": {
        "preferredUseBios": BOOL, "preferredUseBiosSerial": BOOL, "preferredUseEfi": BOOL,
        "preferredUseSecureBoot": BOOL, "preferredEfi": OBJ,
    },
    "machine": {"preferredMachineType": STR},
    "volumes": {"preferredStorageClassName": STR},
    "preferredSubdomain": STR,
    "preferredTerminationGracePeriodSeconds": INT,
    "requirements": {"cpu": {"guest": INT}, "memory": {"guest": QTY}, "architecture": STR},
    "annotations": STRINGS,
    "preferSpreadSocketToCoreRatio": INT,
    "preferredArchitecture": STR,
    "preferredLaunchSecurity": OBJ,
}

_RESOURCES = {"requests": map_of(QTY), "limits": map_of(QTY)}
_DISK = {"name": STR, "disk": {"bus": STR}, "cdrom": {"bus": STR}, "lun": {"bus": STR}, "blockSize": OBJ,
         "cache": STR, "io": STR, "dedicatedIOThread": BOOL}

VMI_SPEC: dict[str, Any] = {
    "domain": {
        "resources": _RESOURCES,
        "cpu": {
            **{k: INT for k in ("cores", "sockets", "threads", "maxSockets")},
            "model": STR, "features": list_of(NAMED), "dedicatedCpuPlacement": BOOL, "numa": OBJ,
            "isolateEmulatorThread": BOOL, "realtime": OBJ,
        },
        "memory": {"guest": QTY, "maxGuest": QTY, "hugepages": {"pageSize": STR}, "reservedOverhead": OBJ},
        "machine": {"type": STR},
        "firmware": {"bootloader": {"bios": OBJ, "efi": OBJ}},
        "clock": {"timer": OBJ},
        "features": {k: OBJ for k in ("acpi", "apic", "hyperv", "smm", "kvm", "pvspinlock")},
        "devices": {
            "disks": list_of(_DISK),
            "filesystems": list_of(NAMED),
            "interfaces": list_of({"name": STR, "model": STR}),
            "inputs": list_of({"bus": STR, "type": STR, "name": STR}),
            "gpus": list_of(OBJ),
            "hostDevices": list_of(OBJ),
            "panicDevices": list_of(OBJ),
            "sound": {"model": STR},
            "video": {"type": STR},
            "rng": OBJ,
            "tpm": OBJ,
        },
        "ioThreadsPolicy": STR,
        "ioThreads": {"supplementalPoolThreadCount": INT},
        "launchSecurity": OBJ,
    },
    "nodeSelector": STRINGS,
    "schedulerName": STR,
    "evictionStrategy": STR,
    "terminationGracePeriodSeconds": INT,
    "volumes": list_of({"name": STR, "containerDisk": {"image": STR, "imagePullPolicy": STR},
                        "persistentVolumeClaim": {"claimName": STR}, "dataVolume": {"name": STR}}),
    "subdomain": STR,
    "networks": list_of({"name": STR, "pod": OBJ}),
    "architecture": STR,
}

_OBJECT_META = {"name": STR, "namespace": STR, "labels": STRINGS, "annotations": STRINGS}

VIRTUAL_MACHINE: dict[str, Any] = {
    "metadata": _OBJECT_META,
    "spec": {
        "instancetype": MATCHER,
        "preference": MATCHER,
        "template": {"metadata": {"labels": STRINGS, "annotations": STRINGS}, "spec": VMI_SPEC},
        "dataVolumeTemplates": list_of({"metadata": _OBJECT_META, "spec": OBJ}),
    },
    "status": {"instancetypeRef": {"controllerRevisionRef": NAMED}, "preferenceRef": {"controllerRevisionRef": NAMED}},
}

CATALOG_OBJECTS: dict[str, dict[str, Any]] = {
    "VirtualMachineInstancetype": {"metadata": _OBJECT_META, "spec": INSTANCETYPE_SPEC},
    "VirtualMachineClusterInstancetype": {"metadata": _OBJECT_META, "spec": INSTANCETYPE_SPEC},
    "VirtualMachinePreference": {"metadata": _OBJECT_META, "spec": PREFERENCE_SPEC},
    "VirtualMachineClusterPreference": {"metadata": _OBJECT_META, "spec": PREFERENCE_SPEC},
    "ControllerRevision": {"metadata": _OBJECT_META, "data": ANY},
    "PersistentVolumeClaim": {"metadata": _OBJECT_META},
    "DataVolume": {"metadata": _OBJECT_META, "spec": OBJ},
    "DataSource": {"metadata": _OBJECT_META, "spec": OBJ},
    "VolumeSnapshot": {"metadata": _OBJECT_META},
}
