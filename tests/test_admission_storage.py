"""SIG-Storage's admission rules (kubectl_instancetype/admission/storage, disks.py, volumes.py, datavolumes.py):
KubeVirt's exact messages and field paths, in its order (pkg/storage/admitters, vmi-create-admitter.go at
d923fdb8). Whole-webhook answers for inputs the corpus lacks are in testdata/kubevirt-answers/storage-*.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.admission import datavolumes, disks, vmi, vmi_spec, volumes
from kubectl_instancetype.admission.cause import Cause, FieldPath
from kubectl_instancetype.admission.storage.cloudinit import go_base64_len
from kubectl_instancetype.admission.storage.disks import validate_path
from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig, load_config

Spec = dict[str, Any]
SPEC = FieldPath.of("spec")
DISKS = SPEC.child("domain", "devices", "disks")


def gates(*names: str, disabled: tuple[str, ...] = (), **conf: Any) -> ClusterConfig:
    dev = {"featureGates": list(names), "disabledFeatureGates": list(disabled)}
    return load_config({"developerConfiguration": dev, **conf})


def messages(causes: list[Cause]) -> list[str]:
    return [c.message for c in causes]


def fields(causes: list[Cause]) -> list[str]:
    return [c.field for c in causes]


def spec_of(disk_list: list[Spec] | None = None, volume_list: list[Spec] | None = None, **extra: Any) -> Spec:
    spec: Spec = {"domain": {"devices": {"disks": disk_list or []}}, "volumes": volume_list or []}
    spec.update(extra)
    return spec


# ValidateDisks


@pytest.mark.parametrize(
    ("disk", "expected"),
    [
        ({"name": "a", "disk": {"bus": "VirtIO"}},
         [("spec.domain.devices.disks[0] is set with an unrecognized bus VirtIO, must be one of: "
           "[virtio scsi sata usb]", "spec.domain.devices.disks[0].disk.bus")]),
        ({"name": "a", "lun": {"bus": "ide"}}, [("IDE bus is not supported", "spec.domain.devices.disks[0].lun.bus")]),
        ({"name": "a", "cdrom": {"bus": "virtio"}},
         [("Bus type virtio is invalid for CD-ROM device", "spec.domain.devices.disks[0].cdrom.bus")]),
        ({"name": "a", "disk": {"bus": "sata", "readonly": True}},
         [("sata hard-disks do not support read-only.", "spec.domain.devices.disks[0].disk.bus")]),
        ({"name": "a", "cdrom": {"bus": "sata", "readonly": True}}, []),
        ({"name": "a", "disk": {"bus": "scsi"}, "dedicatedIOThread": True},
         [("IOThreads are not supported for disks on a scsi bus",
           "spec.domain.devices.disks.domain.devices.disks[0]")]),
        ({"name": "a", "disk": {}, "dedicatedIOThread": True}, []),  # no bus yet: nothing to check
        ({"name": "a", "disk": {}, "cdrom": {}},
         [("spec.domain.devices.disks[0] can only have a single target type defined", "spec.domain.devices.disks[0]")]),
        ({"name": "a", "bootOrder": 0},
         [("spec.domain.devices.disks[0] must have a boot order > 0, if supplied",
           "spec.domain.devices.disks[0].bootOrder")]),
        ({"name": "a", "serial": "bad serial"},
         [("spec.domain.devices.disks[0] must be made up of the following characters [A-Za-z0-9_.+-], if specified",
           "spec.domain.devices.disks[0].serial")]),
        ({"name": "a", "serial": "s" * 257},
         [("spec.domain.devices.disks[0] must be less than or equal to 256 in length, if specified",
           "spec.domain.devices.disks[0].serial")]),
        ({"name": "a", "cache": "unsafe"},
         [("spec.domain.devices.disks[0].cache has invalid value unsafe", "spec.domain.devices.disks[0].cache")]),
        ({"name": "a", "io": "default"},
         [("Disk IO mode for spec.domain.devices.disks is not supported. Supported modes are: native, threads.",
           "spec.domain.devices.disks.domain.devices.disks[0].io")]),
        ({"name": "a", "errorPolicy": ""},
         [('spec.domain.devices.disks[0].errorPolicy has invalid value ""',
           "spec.domain.devices.disks[0].errorPolicy")]),
        ({"name": "a", "disk": {"bus": "sata", "pciAddress": "0000:00:01.9"}},
         [("disk spec.domain.devices.disks.domain.devices.disks.disk[0].name - setting a PCI address is only possible "
           "with bus type virtio.", "spec.domain.devices.disks.domain.devices.disks.disk[0].pciAddress"),
          ("disk spec.domain.devices.disks.domain.devices.disks.disk[0].name has malformed PCI address (0000:00:01.9).",
           "spec.domain.devices.disks.domain.devices.disks.disk[0].pciAddress")]),
        ({"name": "Disk_1"},
         [("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
           "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
           "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')", "spec.domain.devices.disks.domain.devices.disks[0].name")]),
        ({"name": "v" * 64},
         [("must be no more than 63 characters", "spec.domain.devices.disks.domain.devices.disks[0].name")]),
    ],
)
def test_each_disk_check(disk: Spec, expected: list[tuple[str, str]]) -> None:
    causes = disks.validate_disks(DISKS, [disk])
    assert list(zip(messages(causes), fields(causes), strict=True)) == expected


@pytest.mark.parametrize(
    ("block_size", "bus", "expected"),
    [
        ({"custom": {"logical": 512, "physical": 4096}}, "virtio", []),
        ({"custom": {"logical": 512, "physical": 512}, "matchVolume": {}}, "virtio",
         ["Block size matching can't be enabled together with a custom value"]),
        ({"custom": {"logical": 512, "physical": 512}, "matchVolume": {"enabled": False}}, "virtio", []),
        ({"custom": {"logical": 4096, "physical": 512}}, "virtio",
         ["Logical size 4096 must be the same or less than the physical size of 512"]),
        ({"custom": {"logical": 4096, "physical": 4096}}, "sata", ["Logical size 4096 must be 512 for SATA devices"]),
        ({"custom": {"logical": 512, "physical": 512, "discardGranularity": 100}}, "virtio",
         ["Discard granularity 100 must be multiples of logical size 512"]),
        ({"custom": {"logical": 256, "physical": 4194304}}, "virtio",
         ["Provided size of 256 is less than the supported minimum size of 512",
          "Provided size of 4194304 is greater than the supported maximum size of 2097152"]),
        ({"custom": {"logical": 1000, "physical": 1000}}, "virtio",
         ["Provided size of 1000 is not a power of 2", "Provided size of 1000 is not a power of 2"]),
        ({"matchVolume": {"enabled": True}}, "virtio", []),
    ],
)
def test_block_size(block_size: Spec, bus: str, expected: list[str]) -> None:
    disk = {"name": "a", "disk": {"bus": bus}, "blockSize": block_size}
    assert messages(disks.validate_disks(DISKS, [disk])) == expected


@pytest.mark.parametrize("version", ["v1.5.3", "v1.6.6"])
def test_before_v1_7_block_size_checks_neither_the_sata_logical_size_nor_the_discard_granularity(version: str) -> None:
    """release.checks_sata_block_size_and_discard: v1.5/v1.6's validateBlockSize (vmi-create-admitter.go)."""
    cfg = load_config({}, version=version)
    sata = {"name": "a", "disk": {"bus": "sata"}, "blockSize": {"custom": {"logical": 4096, "physical": 4096}}}
    discard = {"name": "b", "blockSize": {"custom": {"logical": 512, "physical": 512, "discardGranularity": 100}}}
    assert disks.validate_disks(DISKS, [sata, discard], cfg) == []
    small = {"name": "c", "disk": {"bus": "sata"}, "blockSize": {"custom": {"logical": 256, "physical": 4096}}}
    assert messages(disks.validate_disks(DISKS, [small], cfg)) == [
        "Provided size of 256 is less than the supported minimum size of 512"]


def test_disk_checks_run_disk_by_disk_and_name_every_earlier_namesake() -> None:
    causes = disks.validate_disks(DISKS, [{"name": "a", "cache": "x"}, {"name": "a"}, {"name": "a", "cache": "y"}])
    assert messages(causes) == [
        "spec.domain.devices.disks[0].cache has invalid value x",
        "spec.domain.devices.disks[1] and spec.domain.devices.disks[0] must not have the same Name.",
        "spec.domain.devices.disks[2] and spec.domain.devices.disks[0] must not have the same Name.",
        "spec.domain.devices.disks[2] and spec.domain.devices.disks[1] must not have the same Name.",
        "spec.domain.devices.disks[2].cache has invalid value y",
    ]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/disk/a.img", []),
        ("/a/", []),
        ("/", ["x must not point to root"]),
        ("a/b", ["x must be an absolute path to a file without relative components"]),
        ("/a/../b", ["x must be an absolute path to a file without relative components"]),
        ("//a", ["x must be an absolute path to a file without relative components"]),  # Go cleans to /a
        ("/a//", ["x must be an absolute path to a file without relative components"]),  # one slash trimmed
    ],
)
def test_validate_path(path: str, expected: list[str]) -> None:
    assert messages(validate_path(FieldPath.of("x"), path)) == expected


# validateVolumes


def test_volume_names_sources_and_singletons() -> None:
    spec = spec_of(volume_list=[
        {"name": "a", "serviceAccount": {"serviceAccountName": "sa"}},
        {"name": "a", "serviceAccount": {"serviceAccountName": ""}},
        {"name": "b"},
        {"name": "c", "emptyDisk": {"capacity": "1Gi"}, "containerDisk": {"image": "x"}},
        {"name": "d", "dataVolume": {"name": ""}},
        {"name": "e", "configMap": {}},
        {"name": "f", "secret": {"secretName": ""}},
    ])
    causes = volumes.volumes(SPEC, spec, DEFAULT_CONFIG)
    assert messages(causes) == [
        "spec.volumes[1] and spec.volumes[0] must not have the same Name.",
        "spec.volumes[1].serviceAccount.serviceAccountName is a required field",
        "spec.volumes[2] must have exactly one source type set",
        "spec.volumes[3] must have exactly one source type set",
        "DataVolume 'name' must be set",
        "spec.volumes[5].configMap.name is a required field",
        "spec.volumes[6].secret.secretName is a required field",
        "spec.volumes must have max one serviceAccount volume set",
    ]
    assert fields(causes)[:2] == ["spec.volumes[1].name", "spec.volumes[1].serviceAccount.serviceAccountName"]
    assert fields(causes)[4] == "spec.volumes[4].name"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ({"userData": "#cloud-config\n"}, []),
        ({"networkDataSecretRef": {"name": "n"}}, []),
        ({}, ["spec.volumes[0].cloudInitNoCloud must have at least one userdatasource or one networkdatasource set."]),
        ({"secretRef": {"name": ""}},
         ["spec.volumes[0].cloudInitNoCloud must have at least one userdatasource or one networkdatasource set."]),
        ({"secretRef": {"name": "s"}, "userData": "x"},
         ["spec.volumes[0].cloudInitNoCloud must have only one userdatasource set."]),
        ({"userData": "x" * 2049},
         ["spec.volumes[0].cloudInitNoCloud userdata exceeds 2048 byte limit. Should use UserDataSecretRef for larger "
          "data."]),
        ({"userData": "é" * 1024}, []),
        ({"networkData": "é" * 1025},
         ["spec.volumes[0].cloudInitNoCloud networkdata exceeds 2048 byte limit. Should use NetworkDataSecretRef for "
          "larger data."]),
        ({"userDataBase64": "QQ=", "networkData": "n", "networkDataBase64": "bg=="},
         ["spec.volumes[0].cloudInitNoCloud.userDataBase64.cloudInitNoCloud.userDataBase64 is not a valid base64 "
          "value.", "spec.volumes[0].cloudInitNoCloud must have only one networkdata source set."]),
        ({"userDataBase64": "QUJD" * 683 + "!"},
         ["spec.volumes[0].cloudInitNoCloud.userDataBase64.cloudInitNoCloud.userDataBase64 is not a valid base64 "
          "value.",
          "spec.volumes[0].cloudInitNoCloud userdata exceeds 2048 byte limit. Should use UserDataSecretRef for larger "
          "data."]),
    ],
)
def test_cloud_init_data(source: Spec, expected: list[str]) -> None:
    spec = spec_of(volume_list=[{"name": "ci", "cloudInitNoCloud": source}])
    assert messages(volumes.volumes(SPEC, spec, DEFAULT_CONFIG)) == expected


def test_config_drive_is_named_as_such() -> None:
    spec = spec_of(volume_list=[{"name": "ci", "cloudInitConfigDrive": {"userData": "a", "userDataBase64": "YQ=="}}])
    assert messages(volumes.volumes(SPEC, spec, DEFAULT_CONFIG)) == [
        "spec.volumes[0].cloudInitConfigDrive must have only one userdatasource set."]


@pytest.mark.parametrize(
    ("text", "length", "ok"),
    [
        ("", 0, True),
        ("QUJD", 3, True),
        ("QQ==", 1, True),
        ("QUI=", 2, True),
        ("QR==", 1, True),  # non-zero trailing bits are accepted (not Strict)
        ("QU\r\nJD", 3, True),
        ("QQ=", 0, False),
        ("QQ", 0, False),
        ("QUJD!", 3, False),
        ("QUJDQQ==QQ==", 4, False),  # trailing garbage after the padding keeps the padded quantum's byte
        ("Q===", 0, False),
    ],
)
def test_go_base64_len(text: str, length: int, ok: bool) -> None:
    assert go_base64_len(text) == (length, ok)


def test_host_disk() -> None:
    spec = spec_of(volume_list=[
        {"name": "a", "hostDisk": {"path": "", "type": "Bogus"}},
        {"name": "b", "hostDisk": {"path": "/x", "type": "Disk", "capacity": "1Gi"}},
        {"name": "c", "hostDisk": {"path": "/x", "type": "Disk", "capacity": "0Gi"}},
    ])
    assert messages(volumes.volumes(SPEC, spec, DEFAULT_CONFIG)) == [
        "HostDisk feature gate is not enabled",
        "spec.volumes[0].hostDisk.path is required for hostDisk volume",
        "spec.volumes[0].hostDisk.type has invalid value 'Bogus', allowed are 'Disk' or 'DiskOrCreate'",
        "HostDisk feature gate is not enabled",
        "spec.volumes[1].hostDisk.capacity is allowed to pass only with spec.volumes[1].hostDisk.type equal to "
        "'DiskOrCreate'",
        "HostDisk feature gate is not enabled",
    ]
    assert messages(volumes.volumes(SPEC, spec, gates("HostDisk")))[0] == (
        "spec.volumes[0].hostDisk.path is required for hostDisk volume")


def test_downward_metrics_and_memory_dump_volumes() -> None:
    spec = spec_of(volume_list=[
        {"name": "a", "downwardMetrics": {}}, {"name": "b", "downwardMetrics": {}},
        {"name": "c", "memoryDump": {"claimName": "x"}}, {"name": "d", "memoryDump": {"claimName": "y"}},
    ])
    assert messages(volumes.volumes(SPEC, spec, DEFAULT_CONFIG)) == [
        "downwardMetrics disks are not allowed: DownwardMetrics feature gate is not enabled.",
        "downwardMetrics disks are not allowed: DownwardMetrics feature gate is not enabled.",
        "spec.volumes must have max one downwardMetric volume set",
        "spec.volumes must have max one memory dump volume set",
    ]


def test_container_disk_paths_and_utility_volumes() -> None:
    spec = spec_of(volume_list=[{"name": "a", "containerDisk": {"image": "x", "path": "a/b"}},
                                {"name": "b", "containerDisk": {"image": "x", "path": ""}}],
                   utilityVolumes=[{"name": "u", "claimName": "c"}])
    assert messages(volumes.container_disks(SPEC, spec, DEFAULT_CONFIG)) == [
        "spec.volumes[0].containerDisk must be an absolute path to a file without relative components"]
    assert messages(volumes.utility_volumes_on_creation(SPEC, spec, DEFAULT_CONFIG)) == [
        "cannot create VMI with utility volumes in spec, utility volumes can only be added via hotplug"]
    assert volumes.utility_volumes_on_creation(SPEC, {"utilityVolumes": []}, DEFAULT_CONFIG) == []


# validateAccessCredentials


def test_access_credentials() -> None:
    spec = spec_of(accessCredentials=[
        {"sshPublicKey": {"source": {}, "propagationMethod": {"noCloud": {}, "qemuGuestAgent": {"users": []}}}},
        {"userPassword": {"source": {"secret": {"secretName": "p"}}, "propagationMethod": {}}},
        {},
        {"sshPublicKey": {"source": {"secret": {"secretName": "k"}}, "propagationMethod": {"configDrive": {}}},
         "userPassword": {"source": {"secret": {"secretName": "p"}}, "propagationMethod": {"qemuGuestAgent": {}}}},
    ])
    causes = volumes.access_credentials(SPEC, spec, DEFAULT_CONFIG)
    assert messages(causes) == [
        "spec.accessCredentials[0] requires a noCloud volume to exist when the noCloud propagationMethod is in use.",
        "spec.accessCredentials[0] requires at least one user to be present in the users list",
        "spec.accessCredentials[0] must have exactly one source set",
        "spec.accessCredentials[0] must have exactly one propagationMethod set",
        "spec.accessCredentials[1] must have exactly one propagationMethod set",
        "spec.accessCredentials[2] must have exactly one access credential type set",
        "spec.accessCredentials[3] requires a configDrive volume to exist when the configDrive propagationMethod is "
        "in use.",
        "spec.accessCredentials[3] must have exactly one access credential type set",
    ]
    assert fields(causes)[1] == "spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent.users"
    assert fields(causes)[4] == "spec.accessCredentials[1].userPassword.propagationMethod"


# The VMI webhook's volume mapping


def test_volume_disks_in_the_vmi_webhook() -> None:
    spec = spec_of(
        [{"name": "a"}, {"name": "cp"}],
        [{"name": "a", "emptyDisk": {}}, {"name": "lost", "emptyDisk": {}}, {"name": "md", "memoryDump": {}},
         {"name": "cp", "containerPath": {"path": "/var/run/libvirt/x"}}],
    )
    causes = volumes.volume_disks(SPEC, spec, DEFAULT_CONFIG)
    assert messages(causes) == [
        "spec.domain.volumes[1].name 'lost' not found.",
        "ContainerPath volume 'cp' must be mapped to a filesystem, not a disk",
        "ContainerPath volume 'cp' must have a matching filesystem defined in spec.domain.devices.filesystems",
        "ContainerPath volume 'cp' uses reserved path prefix '/var/run/libvirt'",
    ]
    assert fields(causes)[3] == "spec.domain.volumes[3].containerPath.path"


# Gated features


def test_persistent_reservation_wants_the_gate_named() -> None:
    spec = spec_of([{"name": "a", "lun": {"reservation": True}}])
    refused = ["persistent reservation is not enabled in kubevirt config"]
    assert messages(volumes.persistent_reservation(SPEC, spec, DEFAULT_CONFIG)) == refused
    assert volumes.persistent_reservation(SPEC, spec, gates("PersistentReservation")) == []
    assert volumes.persistent_reservation(
        SPEC, spec, load_config({"persistentReservationConfiguration": {"enabled": True}})) == []
    off = gates("PersistentReservation", persistentReservationConfiguration={"enabled": False})
    assert messages(volumes.persistent_reservation(SPEC, spec, off)) == refused


def test_downward_metrics_device_and_virtiofs() -> None:
    spec = spec_of(volume_list=[{"name": "p", "persistentVolumeClaim": {"claimName": "c"}},
                                {"name": "d", "dataVolume": {"name": "d"}}, {"name": "cm", "configMap": {"name": "x"}}])
    spec["domain"]["devices"].update(downwardMetrics={}, filesystems=[{"name": n} for n in ("p", "cm", "d", "gone")])
    assert messages(volumes.downward_metrics(SPEC, spec, DEFAULT_CONFIG)) == [
        "downwardMetrics virtio serial is not allowed: DownwardMetrics feature gate is not enabled"]
    assert volumes.downward_metrics(SPEC, spec, gates("DownwardMetrics")) == []
    causes = volumes.virtiofs_filesystems(SPEC, spec, DEFAULT_CONFIG)
    assert messages(causes) == ["virtiofs is not allowed: virtiofs feature gate is not enabled for PVC"] * 2
    assert fields(causes) == ["spec.domain.devices.filesystems"] * 2
    assert volumes.virtiofs_filesystems(SPEC, spec, gates("EnableVirtioFsStorageVolumes")) == []


# DataVolume templates


def dv(name: str = "dv", **spec: Any) -> Spec:
    return {"metadata": {"name": name}, "spec": spec}


STORAGE = {"resources": {"requests": {"storage": "1Gi"}}}


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        (dv(storage=STORAGE, source={"blank": {}}), []),
        (dv("", storage=STORAGE), ["'name' field must not be empty for DataVolumeTemplate entry "
                                    "spec.dataVolumeTemplate[0].name."]),
        (dv(), ["Missing Data volume PVC or Storage"]),
        (dv(storage=STORAGE, pvc=STORAGE),
         ["Duplicate storage definition, both target storage and target pvc defined"]),
        (dv(storage={**STORAGE, "dataSourceRef": {"kind": "X", "name": "x"}}, sourceRef={"name": "s"}),
         ["External population is incompatible with Source and SourceRef"]),
        (dv(storage=STORAGE), ["Data volume should have either Source, SourceRef, or be externally populated"]),
        (dv(storage=STORAGE, source={}), ["Missing dataVolume valid source"]),
        (dv(storage=STORAGE, source={"blank": {}, "http": {"url": "u"}}), ["Multiple dataVolume sources"]),
        (dv("other", pvc=STORAGE, sourceRef={"kind": "DataSource", "name": "s"}),
         ["DataVolumeTemplate entry spec.dataVolumeTemplate[0] must be referenced in the VMI template's 'volumes' "
          "list"]),
    ],
)
def test_data_volume_templates(template: Spec, expected: list[str]) -> None:
    vm_spec = {"dataVolumeTemplates": [template],
               "template": {"spec": {"volumes": [{"name": "root", "dataVolume": {"name": "dv"}}]}}}
    assert messages(datavolumes.data_volume_templates(SPEC, vm_spec, DEFAULT_CONFIG)) == expected


def test_a_template_may_be_referenced_by_a_claim() -> None:
    vm_spec = {"dataVolumeTemplates": [dv(storage=STORAGE, source={"blank": {}})],
               "template": {"spec": {"volumes": [{"name": "root", "persistentVolumeClaim": {"claimName": "dv"}}]}}}
    assert datavolumes.data_volume_templates(SPEC, vm_spec, DEFAULT_CONFIG) == []


def test_storage_admitter_checks_template_namespaces() -> None:
    templates = [{"metadata": {"name": "a", "namespace": "other"}}, {"metadata": {"name": "b", "namespace": "ns"}},
                 {"metadata": {"name": "c"}}]
    vm = {"metadata": {"name": "vm"}, "spec": {"dataVolumeTemplates": templates}}
    causes = datavolumes.storage_admit(vm, "ns", DEFAULT_CONFIG)
    assert messages(causes) == ["Embedded DataVolume namespace other differs from VM namespace ns"]
    assert fields(causes) == ["spec.dataVolumeTemplates[0]"]
    vm["metadata"]["namespace"] = "other"
    assert messages(datavolumes.storage_admit(vm, "ns", DEFAULT_CONFIG)) == [
        "Embedded DataVolume namespace ns differs from VM namespace other"]


# Where the webhooks call them


def test_vmi_webhook_runs_validate_disks_twice() -> None:
    """SIG-Storage's VMI validator and validateDomainSpec both run ValidateDisks (and the container disk and
    utility volume checks), so the VMI webhook repeats their causes: the validator's first (container disks,
    then disks), then ValidateVirtualMachineInstanceSpec's (disks in validateDomainSpec, then container disks).
    Only main registers that validator: v1.9.0 gives each cause once (release.vmi_webhook_repeats_disk_causes)."""
    spec = spec_of([{"name": "a", "disk": {"bus": "scsi"}, "dedicatedIOThread": True}],
                   [{"name": "a", "containerDisk": {"image": "x", "path": "/"}}])

    def found(version: str) -> list[str]:
        cfg = load_config({}, version=version)
        return [m for m in messages(list(vmi.admit_create({"spec": spec}, cfg).causes))
                if "IOThreads" in m or "root" in m]

    root, iothreads = "spec.volumes[0].containerDisk must not point to root", "IOThreads are not supported for " \
        "disks on a scsi bus"
    assert found("main") == [root, iothreads, iothreads, root]
    assert found("v1.9.0") == [iothreads, root]


def test_vmi_spec_order_of_the_storage_rules() -> None:
    rules = vmi_spec.RULES
    at = rules.index(volumes.volumes)
    assert rules[at - 1:at + 4] == (vmi_spec.firmware.domain, volumes.volumes, volumes.container_disks,
                                    volumes.utility_volumes_on_creation, volumes.access_credentials)
    assert rules.index(volumes.persistent_reservation) + 1 == rules.index(volumes.persistent_state)
    assert rules.index(volumes.persistent_state) + 1 == rules.index(volumes.downward_metrics)
    assert rules.index(volumes.downward_metrics) + 1 == rules.index(volumes.virtiofs_filesystems)


def test_the_vmi_spec_checks_disks_once() -> None:
    """ValidateVirtualMachineInstanceSpec reaches ValidateDisks only through validateDomainSpec and matches disks
    with volumes only in validateBootOrder: each cause once (the VM webhook's answer)."""
    spec = spec_of([{"name": "a", "disk": {"bus": "VirtIO"}}, {"name": "lost"}], [{"name": "a", "emptyDisk": {}}])
    found = messages(vmi_spec.validate(SPEC, spec, DEFAULT_CONFIG))
    assert found.count("spec.domain.devices.disks[0] is set with an unrecognized bus VirtIO, must be one of: "
                       "[virtio scsi sata usb]") == 1
    assert found.count("spec.domain.devices.disks[1].Name 'lost' not found.") == 1


@pytest.mark.parametrize(("version", "gates_on", "expected"), [
    ("v1.5.3", (), ["spec.domain.devices.tpm.persistent", "spec.domain.firmware.bootloader.efi.persistent"]),
    ("v1.5.3", ("VMPersistentState",), []),
    ("v1.6.0", (), []),
])
def test_v1_5_needs_the_vm_persistent_state_gate(version: str, gates_on: tuple[str, ...],
                                                  expected: list[str]) -> None:
    """release.persistent_state_needs_gate: v1.5's validatePersistentState (vmi-create-admitter.go)."""
    cfg = load_config({"developerConfiguration": {"featureGates": list(gates_on)}}, version=version)
    spec = spec_of()
    spec["domain"]["devices"]["tpm"] = {"persistent": True}
    spec["domain"]["firmware"] = {"bootloader": {"efi": {"persistent": True}}}
    causes = volumes.persistent_state(SPEC, spec, cfg)
    assert fields(causes) == expected
    assert set(messages(causes)) <= {"VMPersistentState feature gate is not enabled in kubevirt-config"}


def test_v1_5_refuses_an_empty_cdrom_as_a_disk_without_volume() -> None:
    """release.admits_empty_cdrom: v1.5's validateBootOrder knows no empty CD-ROM."""
    spec = spec_of([{"name": "cd", "cdrom": {}}])
    cause = "spec.domain.devices.disks[0].Name 'cd' not found."
    assert messages(vmi_spec.devices.boot_order(SPEC, spec, load_config({}, version="v1.5.3"))) == [cause]
    assert messages(vmi_spec.devices.boot_order(SPEC, spec, load_config({}, version="v1.6.0"))) == [
        "DeclarativeHotplugVolumes feature gate not enabled, cannot define an empty CD-ROM disk"]
