"""The tables of the fields each check reads (``READS`` of kubectl_instancetype/admission/vmi_spec.py, the disk,
volume and interface checks' of admission/storage and admission/network): a spec, disk, volume or interface
without a check's fields passes the check, so skipping it changes no answer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_instancetype.admission import vmi_spec
from kubectl_instancetype.admission.cause import FieldPath, Rule, run_rules
from kubectl_instancetype.admission.network import binding as network_binding
from kubectl_instancetype.admission.network import rules as network_rules
from kubectl_instancetype.admission.storage import disks as disks_module
from kubectl_instancetype.admission.storage import volumes as volumes_module
from kubectl_instancetype.config import load_config

FIELD = FieldPath.of("spec", "template", "spec")
GATES = ("HostDevices", "VSOCK", "NUMA", "PanicDevices", "VideoConfig", "DownwardMetrics", "HostDisk",
         "ExperimentalVirtiofsSupport", "EnableVirtioFsStorageVolumes", "GPUsWithDRA", "HostDevicesWithDRA",
         "PersistentReservation", "RebootPolicy", "ReservedOverheadMemlock", "WorkloadEncryptionSEV")
CONFIGS = {
    "defaults": load_config({}),
    "gates": load_config({"developerConfiguration": {"featureGates": list(GATES)},
                          "permittedHostDevices": {"pciHostDevices": [
                              {"resourceName": "nvidia.com/gh", "pciVendorSelector": "10DE:2342"},
                              {"resourceName": "nvidia.com/any", "pciVendorSelector": "10DE:*"}]}}),
    "stage": load_config({"vmRolloutStrategy": "Stage"}),
    "v1.5.0": load_config({}, version="v1.5.0"),
    "v1.7.0": load_config({}, version="v1.7.0"),
}

# Specs that set (and mostly get wrong) the fields the rules read, so that most rules have causes to give.
WRONG: dict[str, Any] = {
    "hostname": "Not_A_Label",
    "subdomain": "not..a..subdomain",
    "startStrategy": "Sometime",
    "livenessProbe": {"httpGet": {}, "exec": {}},
    "readinessProbe": {},
    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}},
    "topologySpreadConstraints": [{"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Maybe"}],
    "architecture": "s390x",
    "evictionStrategy": "Sometimes",
    "dnsPolicy": "Nowhere",
    "dnsConfig": {"nameservers": ["1.2.3", "a", "b", "c"], "searches": ["-x-"], "options": [{}]},
    "serviceAccountName": "Not A Name",
    "utilityVolumes": [{"name": "u"}],
    "accessCredentials": [{"sshPublicKey": {"propagationMethod": {"noCloud": {}}}}],
    "resourceClaims": [{"name": "Bad_Name"}],
    "networks": [{"name": "default", "pod": {}}, {"name": "default", "multus": {}}],
    "volumes": [
        {"name": "v", "containerDisk": {"path": "/../x"}, "configMap": {}},
        {"name": "v", "hostDisk": {"type": "Disk", "capacity": "1Gi"}},
        {"name": "sa", "serviceAccount": {"serviceAccountName": "other"}, "downwardMetrics": {}},
        {"name": "dm", "downwardMetrics": {}},
        {"name": "pvc", "persistentVolumeClaim": {"claimName": "c"}},
    ],
    "domain": {
        "ioThreadsPolicy": "supplementalPool",
        "rebootPolicy": "Terminate",
        "launchSecurity": {"sev": {"attestation": {}}, "tdx": {}},
        "machine": {"type": "pc-i440fx"},
        "resources": {"requests": {"memory": "-1", "cpu": "2500m"}, "limits": {"memory": "1", "cpu": "-1"}},
        "memory": {"guest": "2Gi", "hugepages": {"pageSize": "3Mi"}, "reservedOverhead": {"addedOverhead": "1Mi"}},
        "cpu": {"dedicatedCpuPlacement": False, "isolateEmulatorThread": True, "realtime": {}, "threads": 4,
                "numa": {"guestMappingPassthrough": {}}, "features": [{"name": "x", "policy": "maybe"}],
                "sockets": 4, "maxSockets": 2},
        "firmware": {"acpi": {}, "bootloader": {"efi": {"persistent": True}, "bios": {}},
                     "kernelBoot": {"kernelArgs": "x"}},
        "features": {"smm": {"enabled": False}},
        "devices": {
            "disks": [{"name": "v", "lun": {"reservation": True}, "disk": {"bus": "ide"}, "bootOrder": 0,
                       "serial": "!"}, {"name": "missing", "bootOrder": 0}, {"name": "dm"}],
            "interfaces": [{"name": "default", "bootOrder": 1, "masquerade": {}}],
            "inputs": [{"type": "mouse", "bus": "ps2"}],
            "gpus": [{"name": "g1", "deviceName": "nvidia.com/gh", "virtualGPUOptions": {"display": {}}},
                     {"name": "g2", "deviceName": "nvidia.com/any", "virtualGPUOptions": {"display": {}}},
                     {"name": "g3", "claimName": "c", "requestName": "r"}],
            "hostDevices": [{"name": "h", "deviceName": "nvidia.com/gh"}],
            "sound": {"model": "sb16"},
            "autoattachVSOCK": True,
            "autoattachGraphicsDevice": False,
            "video": {"type": "vga"},
            "tpm": {"persistent": True},
            "downwardMetrics": {},
            "filesystems": [{"name": "pvc", "virtiofs": {}}],
            "panicDevices": [{"model": "nmi"}],
        },
    },
}
SPECS = {
    "wrong": WRONG,
    "dedicated": {**WRONG, "domain": {**WRONG["domain"], "cpu": {"dedicatedCpuPlacement": True, "threads": 3}}},
    "amd64": {**WRONG, "architecture": "amd64", "domain": {**WRONG["domain"], "resources": {
        "requests": {"memory": "2Gi", "cpu": "-2"}, "limits": {"memory": "1Gi", "cpu": "1"}}}},
    "over": {"domain": {"resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1", "memory": "1Gi"}},
                        "memory": {"guest": "2Gi"}}},
    "none": {"domain": {"dnsPolicy": "None"}, "dnsPolicy": "None"},
    "small": {"domain": {"devices": {"disks": [{"name": "root"}], "interfaces": [{"name": "default", "bridge": {}}]},
                         "cpu": {"cores": 1}, "memory": {"guest": "1Gi"}},
              "networks": [{"name": "default", "pod": {}}], "volumes": [{"name": "root", "containerDisk": {}}]},
}


def _without(spec: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    stripped = copy.deepcopy(spec)
    for name in fields:
        *parents, key = name.split(".")
        holder = stripped
        for parent in parents:
            holder = holder.get(parent) or {}
        holder.pop(key, None)
    return stripped


def _some_have_causes(rule: Rule) -> bool:
    return any(rule(FIELD, spec, cfg) for spec in SPECS.values() for cfg in CONFIGS.values())


@pytest.mark.parametrize("rule", list(vmi_spec.READS), ids=lambda r: f"{r.__module__}.{r.__name__}")
def test_a_spec_without_the_fields_a_rule_reads_passes_it(rule: Rule) -> None:
    fields = vmi_spec.READS[rule]
    for spec in SPECS.values():
        for cfg in CONFIGS.values():
            assert rule(FIELD, _without(spec, fields), cfg) == []


def test_the_specs_give_every_rule_something_to_refuse() -> None:
    """The check above means something only when the specs, with the fields, make the rules speak."""
    assert [rule.__name__ for rule in vmi_spec.READS if not _some_have_causes(rule)] == []


@pytest.mark.parametrize("spec_name", list(SPECS))
@pytest.mark.parametrize("cfg_name", list(CONFIGS))
def test_validate_gives_every_rule_s_causes_in_order(spec_name: str, cfg_name: str) -> None:
    spec, cfg = SPECS[spec_name], CONFIGS[cfg_name]
    assert vmi_spec.validate(FIELD, spec, cfg) == run_rules(vmi_spec.RULES, FIELD, spec, cfg)


def test_every_field_of_the_table_is_one_validate_knows() -> None:
    """validate looks for fields of the spec, its domain and its devices only: a field spelled otherwise would
    never run its rule."""
    spelled = {f for fields in vmi_spec.READS.values() for f in fields}
    assert {f.rpartition(".")[0] for f in spelled} <= {"", "domain", "domain.devices"}
    assert set(vmi_spec.READS) <= set(vmi_spec.RULES)


WRONG_DISKS: list[dict[str, Any]] = [
    {"name": "Bad_Name", "disk": {"bus": "sata", "readonly": True, "pciAddress": "zz"}, "bootOrder": 0,
     "serial": "!" * 300, "cache": "sometimes", "io": "fast", "errorPolicy": "panic", "dedicatedIOThread": True,
     "blockSize": {"custom": {"logical": 4096, "physical": 512}, "matchVolume": {}}},
    {"name": "c", "cdrom": {"bus": "virtio"}, "lun": {}, "blockSize": {"custom": {"logical": 1024, "physical": 3000}}},
    {"name": "l", "lun": {"bus": "ide"}},
]
WRONG_VOLUMES: list[dict[str, Any]] = [
    {"name": "a", "cloudInitNoCloud": {"userData": "x", "userDataBase64": "!"}, "cloudInitConfigDrive": {}},
    {"name": "b", "downwardMetrics": {}, "hostDisk": {"type": "Disk", "capacity": "1Gi"}, "configMap": {},
     "secret": {}, "serviceAccount": {}},
]


@pytest.mark.parametrize("rule", [r for r, reads in disks_module._READS.items() if reads is not None],
                         ids=lambda r: r.__name__)
def test_a_disk_without_the_keys_a_disk_check_reads_passes_it(rule: Any) -> None:
    reads = disks_module._READS[rule]
    assert reads is not None
    assert any(rule(FIELD, WRONG_DISKS, i) for i in range(len(WRONG_DISKS)))
    stripped = [{k: v for k, v in disk.items() if k not in reads} for disk in WRONG_DISKS]
    assert all(rule(FIELD, stripped, i) == [] for i in range(len(stripped)))


@pytest.mark.parametrize("rule,reads", [(r, reads) for r, reads in volumes_module.VOLUME_RULES if reads is not None],
                         ids=lambda r: getattr(r, "__name__", ""))
def test_a_volume_without_the_keys_a_volume_check_reads_passes_it(rule: Any, reads: frozenset[str]) -> None:
    cfg = CONFIGS["defaults"]
    assert any(rule(FIELD, volume, cfg) for volume in WRONG_VOLUMES)
    assert all(rule(FIELD, {k: v for k, v in volume.items() if k not in reads}, cfg) == [] for volume in WRONG_VOLUMES)


WRONG_INTERFACES: list[dict[str, Any]] = [
    {"name": "pod", "model": "rtl9000", "macAddress": "zz", "pciAddress": "zz", "masquerade": {}, "bridge": {},
     "ports": [{"name": "A", "port": 0}], "portRanges": [{"protocol": "SCTP"}],
     "dhcpOptions": {"privateOptions": [{"option": 1}], "ntpServers": ["x"]}},
    {"name": "net", "macvtap": {}, "passt": {}, "passtBinding": {}, "masquerade": {"macAddress": "x"},
     "macAddress": "02:00:00:00:00:00"},
]
INTERFACE_NETWORKS = [{"name": "pod", "pod": {}}, {"name": "net", "multus": {"networkName": "n"}}]


@pytest.mark.parametrize("check,reads", [*network_rules.INTERFACE_FIELDS, *network_binding.CHECKS],
                         ids=lambda c: getattr(c, "__name__", ""))
@pytest.mark.parametrize("cfg_name", ["defaults", "v1.7.0"])
def test_an_interface_without_the_keys_an_interface_check_reads_passes_it(check: Any, reads: Any,
                                                                        cfg_name: str) -> None:
    if reads is None:
        return
    cfg = CONFIGS[cfg_name]
    for gated in (cfg, load_config({"developerConfiguration": {"featureGates": ["PortRangesSpec"]}})):
        for idx, (iface, net) in enumerate(zip(WRONG_INTERFACES, INTERFACE_NETWORKS, strict=True)):
            stripped = {k: v for k, v in iface.items() if k not in reads}
            assert check(FIELD, idx, stripped, net, gated) == []
    no_bridge = load_config({"network": {"permitBridgeInterfaceOnPodNetwork": False}})
    assert any(check(FIELD, idx, iface, net, c) for c in (*CONFIGS.values(), no_bridge)
               for idx, (iface, net) in enumerate(zip(WRONG_INTERFACES, INTERFACE_NETWORKS, strict=True)))
