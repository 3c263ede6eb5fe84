"""config.py: every setting read from a KubeVirt CR or bare configuration, with KubeVirt's values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig, load_config, merge_json
from kubectl_instancetype.errors import InputError


def cr(configuration: Any, status: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": "kubevirt.io/v1",
        "kind": "KubeVirt",
        "metadata": {"name": "kubevirt", "namespace": "kubevirt"},
        "spec": {"configuration": configuration},
    }
    if status is not None:
        doc["status"] = status
    return doc


def test_empty_configuration_is_kubevirts_default() -> None:
    cfg = load_config({})
    assert cfg == ClusterConfig(raw=cfg.raw)
    assert (cfg.default_architecture, cfg.machine_type_for("amd64"), cfg.machine_type_for("arm64")) == (
        "amd64",
        "q35",
        "virt",
    )
    assert cfg.machine_type_for("s390x") == "s390-ccw-virtio"
    assert (cfg.default_network_interface, cfg.permit_bridge_on_pod_network) == ("bridge", True)
    assert (cfg.eviction_strategy, cfg.cpu_request, cfg.cpu_model) == ("None", "100m", "")
    assert (cfg.vm_rollout_strategy, cfg.max_hotplug_ratio, cfg.max_cpu_sockets, cfg.max_guest) == (
        "LiveUpdate",
        4,
        0,
        None,
    )
    assert (cfg.memory_overcommit, cfg.image_pull_policy, cfg.reference_policy) == (100, "IfNotPresent", "reference")
    assert cfg.live_update and not cfg.root_enabled
    assert DEFAULT_CONFIG.machine_type_for("ppc64le") == "q35"  # no ppc64le settings since v1.7: amd64's


# (spec.configuration, attribute, value KubeVirt ends up with)
SETTINGS = [
    ({"network": {"defaultNetworkInterface": "masquerade"}}, "default_network_interface", "masquerade"),
    ({"network": {"defaultNetworkInterface": "masquerade"}}, "permit_bridge_on_pod_network", True),
    ({"network": {"permitBridgeInterfaceOnPodNetwork": False}}, "permit_bridge_on_pod_network", False),
    ({"network": {"permitBridgeInterfaceOnPodNetwork": False}}, "default_network_interface", "bridge"),
    ({"network": {"permitSlirpInterface": True}}, "permit_slirp_interface", True),
    ({"machineType": "pc-q35-rhel9.4.0"}, "machine_type", "pc-q35-rhel9.4.0"),
    ({"evictionStrategy": "LiveMigrate"}, "eviction_strategy", "LiveMigrate"),
    ({"evictionStrategy": None}, "eviction_strategy", None),
    ({"cpuModel": "Haswell-noTSX"}, "cpu_model", "Haswell-noTSX"),
    ({"cpuRequest": "0.5"}, "cpu_request", "500m"),
    ({"cpuRequest": 2}, "cpu_request", "2"),
    ({"imagePullPolicy": "Always"}, "image_pull_policy", "Always"),
    ({"developerConfiguration": {"memoryOvercommit": 150}}, "memory_overcommit", 150),
    ({"developerConfiguration": {"featureGates": ["Root", "Snapshot"]}}, "feature_gates", ("Root", "Snapshot")),
    ({"vmRolloutStrategy": "Stage"}, "vm_rollout_strategy", "Stage"),
    ({"liveUpdateConfiguration": {"maxHotplugRatio": 2}}, "max_hotplug_ratio", 2),
    ({"liveUpdateConfiguration": {"maxCpuSockets": 8}}, "max_cpu_sockets", 8),
    ({"liveUpdateConfiguration": {"maxCpuSockets": 8}}, "max_hotplug_ratio", 4),  # merged, not replaced
    ({"liveUpdateConfiguration": {"maxGuest": "8192Mi"}}, "max_guest", "8Gi"),
    ({"liveUpdateConfiguration": None}, "max_hotplug_ratio", 1),  # GetMaxHotplugRatio without a config
    ({"instancetype": {"referencePolicy": "expandAll"}}, "reference_policy", "expandAll"),
    ({"architectureConfiguration": {"defaultArchitecture": "arm64"}}, "default_architecture", "arm64"),
    ({}, "qgs_socket_path", "/var/run/tdx-qgs/qgs.socket"),
    ({"confidentialCompute": {"tdx": {"attestation": {"qgsSocketPath": "/q.sock"}}}}, "qgs_socket_path", "/q.sock"),
    ({"confidentialCompute": {"tdx": {"attestation": {"qgsSocketPath": ""}}}}, "qgs_socket_path", ""),
]



@pytest.mark.parametrize(("configuration", "attribute", "value"), SETTINGS)
def test_setting(configuration: dict[str, Any], attribute: str, value: Any) -> None:
    assert getattr(load_config(configuration), attribute) == value
    assert getattr(load_config(cr(configuration)), attribute) == value


@pytest.mark.parametrize(
    ("configuration", "arch", "machine"),
    [
        ({"architectureConfiguration": {"amd64": {"machineType": "pc-q35-9.0"}}}, "amd64", "pc-q35-9.0"),
        ({"architectureConfiguration": {"amd64": {"machineType": "pc-q35-9.0"}}}, "arm64", "virt"),
        ({"architectureConfiguration": {"arm64": {"machineType": "virt-9.0"}}}, "arm64", "virt-9.0"),
        (
            {"architectureConfiguration": {"s390x": {"machineType": "s390-ccw-virtio-rhel9"}}},
            "s390x",
            "s390-ccw-virtio-rhel9",
        ),
        (
            {"machineType": "legacy", "architectureConfiguration": {"arm64": {"machineType": "virt-9.0"}}},
            "arm64",
            "legacy",
        ),
        ({}, "riscv64", "q35"),  # an architecture KubeVirt does not know falls back to amd64's
    ],
)
def test_machine_type_per_architecture(configuration: dict[str, Any], arch: str, machine: str) -> None:
    assert load_config(configuration).machine_type_for(arch) == machine


def test_architecture_comes_from_the_cr_status_then_the_command_line() -> None:
    doc = cr({"architectureConfiguration": {"defaultArchitecture": "amd64"}}, {"defaultArchitecture": "s390x"})
    assert load_config(doc).default_architecture == "s390x"
    assert load_config(doc, arch="arm64").default_architecture == "arm64"
    with pytest.raises(InputError, match="unsupported architecture 'ppc64le'"):
        load_config(doc, arch="ppc64le")


def test_root_feature_gate_and_rollout_strategy() -> None:
    cfg = load_config({"developerConfiguration": {"featureGates": ["Root"]}, "vmRolloutStrategy": "Stage"})
    assert cfg.root_enabled and not cfg.live_update


@pytest.mark.parametrize(
    ("configuration", "message"),
    [
        ({"network": "masquerade"}, "spec.configuration.network must be a mapping"),
        ({"network": {"permitBridgeInterfaceOnPodNetwork": "yes"}}, "must be a boolean, got 'yes'"),
        ({"developerConfiguration": {"featureGates": "Root"}}, "featureGates must be a list of strings"),
        ({"liveUpdateConfiguration": {"maxHotplugRatio": "4"}}, "maxHotplugRatio must be an integer, got '4'"),
        ({"liveUpdateConfiguration": {"maxCpuSockets": True}}, "maxCpuSockets must be an integer, got True"),
        ({"liveUpdateConfiguration": {"maxGuest": "lots"}}, "maxGuest: invalid quantity 'lots'"),
        ({"cpuModel": 7}, "cpuModel must be a string, got 7"),
        ({"vmRolloutStrategy": "Rolling"}, "vmRolloutStrategy: unsupported value 'Rolling'"),
        ({"evictionStrategy": "Evict"}, "evictionStrategy: unsupported value 'Evict'"),
        ({"instancetype": {"referencePolicy": "copy"}}, "referencePolicy: unsupported value 'copy'"),
        ([], "KubeVirt configuration must be a mapping"),
    ],
)
def test_wrong_values_are_input_errors(configuration: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        load_config(configuration, "kv.yaml")
    assert message in info.value.message
    assert info.value.render().startswith("kv.yaml:1:1: error: ")


def test_cr_with_wrong_shapes() -> None:
    with pytest.raises(InputError, match=r"^spec\.configuration must be a mapping$"):
        load_config(cr(["x"]))
    with pytest.raises(InputError, match=r"^status\.defaultArchitecture must be a string$"):
        load_config(cr({}, {"defaultArchitecture": 64}))


def test_merge_follows_go_json_decoding() -> None:
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    assert merge_json(base, {"a": {"c": [3]}, "e": None}) == {"a": {"b": 1, "c": [3]}, "d": 1, "e": None}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    assert load_config({"custom": {"x": 1}}).raw["custom"] == {"x": 1}


def _run_config(*args: str) -> Any:
    from click.testing import CliRunner

    from kubectl_instancetype.cli.config import config

    return CliRunner().invoke(config, list(args))


def test_config_command_prints_the_effective_configuration(tmp_path: Any) -> None:
    profile = Path(__file__).resolve().parent.parent / "testdata" / "config" / "masquerade-stage.yaml"
    result = _run_config("--kubevirt-config", str(profile), "--arch", "s390x", "-o", "json")
    assert result.exit_code == 0, result.output
    effective = json.loads(result.output)
    assert effective["network"] == {
        "defaultNetworkInterface": "masquerade",
        "permitSlirpInterface": False,
        "permitBridgeInterfaceOnPodNetwork": True,
    }
    assert effective["architectureConfiguration"]["defaultArchitecture"] == "s390x"
    assert (effective["vmRolloutStrategy"], effective["liveUpdateConfiguration"]) == ("Stage", {"maxHotplugRatio": 4})
    inputs = tmp_path / "in.yaml"
    inputs.write_text("kind: ConfigMap\napiVersion: v1\n---\n" + profile.read_text(), encoding="utf-8")
    assert json.loads(_run_config("-f", str(inputs), "-o", "json").output)["cpuRequest"] == "250m"
    assert "defaultNetworkInterface: bridge" in _run_config().output


def test_config_command_reports_bad_files(tmp_path: Any) -> None:
    bad = tmp_path / "kv.yaml"
    bad.write_text("network:\n  defaultNetworkInterface: passt\n", encoding="utf-8")
    result = _run_config("--kubevirt-config", str(bad))
    assert result.exit_code == 1  # KubeVirt rejects it (validateConfig) and keeps its defaults: printed
    assert f"{bad}:2:3: error: KubeVirt configuration: invalid default-network-interface in config: passt; " in (
        result.stderr)
    assert "defaultNetworkInterface: bridge" in result.stdout
    bad.write_text("network:\n  defaultNetworkInterface: 5\n", encoding="utf-8")
    result = _run_config("--kubevirt-config", str(bad))
    assert result.exit_code == 3  # Go cannot decode it
    assert "spec.configuration.network.defaultNetworkInterface must be a string, got 5" in result.stderr


@pytest.mark.parametrize(("section", "expected"), [
    ({}, True),
    ({"commonInstancetypesDeployment": {}}, True),
    ({"commonInstancetypesDeployment": {"enabled": True}}, True),
    ({"commonInstancetypesDeployment": {"enabled": False}}, False),
])
def test_common_instancetypes_deployment(section: dict[str, Any], expected: bool) -> None:
    assert load_config({"spec": {"configuration": section}, "kind": "KubeVirt",
                        "apiVersion": "kubevirt.io/v1"}).common_instancetypes is expected


def test_common_instancetypes_deployment_must_be_a_boolean() -> None:
    with pytest.raises(InputError):
        load_config({"commonInstancetypesDeployment": {"enabled": "no"}})


def test_annotations_of_the_kubevirt_cr() -> None:
    parity = "alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity"
    annotated = cr({})
    annotated["metadata"] = {"name": "kubevirt", "annotations": {parity: "true"}}
    assert load_config(annotated).cr_annotations == {parity: "true"}
    assert load_config({}).cr_annotations == {}  # a bare configuration has none


@pytest.mark.parametrize(("configuration", "path", "message"), [
    ({"imagePullPolicy": "Sometimes"}, "spec.configuration.imagePullPolicy",
     "invalid dev.imagePullPolicy in config: Sometimes"),
    ({"developerConfiguration": {"memoryOvercommit": -5}}, "spec.configuration.developerConfiguration.memoryOvercommit",
     "invalid memoryOvercommit in ConfigMap: -5"),
    ({"developerConfiguration": {"cpuAllocationRatio": -1}},
     "spec.configuration.developerConfiguration.cpuAllocationRatio", "invalid cpu allocation ratio in ConfigMap: -1"),
    ({"developerConfiguration": {"pvcTolerateLessSpaceUpToPercent": 101}},
     "spec.configuration.developerConfiguration.pvcTolerateLessSpaceUpToPercent",
     "invalid lessPVCSpaceToleration in ConfigMap: 101"),
    ({"network": {"defaultNetworkInterface": "passt"}}, "spec.configuration.network.defaultNetworkInterface",
     "invalid default-network-interface in config: passt"),
    # validateConfig returns its first error: the pull policy is checked before the network
    ({"imagePullPolicy": "x", "network": {"defaultNetworkInterface": "y"}}, "spec.configuration.imagePullPolicy",
     "invalid dev.imagePullPolicy in config: x"),
])
def test_a_configuration_kubevirt_rejects_leaves_its_defaults_in_force(configuration: dict[str, Any], path: str,
                                                                        message: str) -> None:
    rejected = {**configuration, "cpuModel": "Haswell", "developerConfiguration": {
        **configuration.get("developerConfiguration", {}), "featureGates": ["Root"]}}
    cfg = load_config(cr(rejected, {"observedKubeVirtVersion": "v1.8.4"}), "kv.yaml", arch="arm64")
    assert cfg.rejection is not None and (cfg.rejection.field, cfg.rejection.message) == (path, message)
    # nothing of the configuration takes effect; the release, --arch and the CR's annotations still do
    assert (cfg.cpu_model, cfg.feature_gates, cfg.default_network_interface) == ("", (), "bridge")
    assert (cfg.release.name, cfg.default_architecture) == ("v1.8.4", "arm64")


@pytest.mark.parametrize("configuration", [
    # written again by Go before it is decoded over the defaults: omitempty drops zeros and empty strings
    {"developerConfiguration": {"memoryOvercommit": 0, "cpuAllocationRatio": 0}},
    {"imagePullPolicy": "", "network": {"defaultNetworkInterface": ""}},
    {"developerConfiguration": {"pvcTolerateLessSpaceUpToPercent": 100},
     "network": {"defaultNetworkInterface": "slirp"}},
])
def test_empty_values_keep_kubevirt_defaults(configuration: dict[str, Any]) -> None:
    cfg = load_config(cr(configuration))
    assert cfg.rejection is None
    assert cfg.memory_overcommit == 100 and cfg.image_pull_policy == "IfNotPresent"
