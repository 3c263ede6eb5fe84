"""The KubeVirt release a render assumes (--kubevirt-version, the KubeVirt CR's status, the newest release), the
table of behaviour facts, and what each fact changes in the answers (testdata/releases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import check_golden, invoke_cli

from kubectl_instancetype.admission import gates
from kubectl_instancetype.api.releases import BY_NAME, DEFAULT, FACTS, RELEASES, UnknownRelease, lookup, resolve
from kubectl_instancetype.catalog.builtin.bundles import catalog_version
from kubectl_instancetype.config import DEFAULT_CONFIG, load_config
from kubectl_instancetype.errors import EXIT_USAGE, Location
from kubectl_instancetype.expand.apply import apply_spec
from kubectl_instancetype.expand.defaults import cluster_defaults
from kubectl_instancetype.vmi import pcitopology

DATA = Path(__file__).resolve().parent.parent / "testdata" / "releases"


def table() -> str:
    """One line per release: its name, commit and catalog, then every fact that holds there."""
    lines = []
    for release in RELEASES:
        held = " ".join(name for name, holds in release.facts().items() if holds)
        lines.append(f"{release.name} {release.commit} {catalog_version(release)}: {held}")
    return "\n".join(lines) + "\n"


def test_the_table_of_facts(update_goldens: bool) -> None:
    check_golden(DATA, {"facts.txt": table()}, update_goldens)


@pytest.mark.parametrize(("text", "name"), [
    ("v1.8.4", "v1.8.4"), ("1.8.4", "v1.8.4"), ("1.8", "v1.8.4"), ("v1.6", "v1.6.6"), ("1.5.0", "v1.5.0"),
    ("main", "main"), (" 1.9 ", "v1.9.0"),
])
def test_versions_the_option_accepts(text: str, name: str) -> None:
    assert resolve(text).name == name


@pytest.mark.parametrize("text", ["1.4", "v1.4.2-rhel9", "1.10", "v1.10.0", "4.19.3", "latest", "v1", "1.8.4-", ""])
def test_unknown_versions(text: str) -> None:
    with pytest.raises(UnknownRelease) as caught:
        resolve(text)
    assert caught.value.exit_code == EXIT_USAGE
    assert caught.value.render() == (f"error: unknown KubeVirt version {text.strip()!r} (--kubevirt-version); known: "
                                     "v1.5.0-v1.9.0 (or a release line: 1.5-1.9), main")


@pytest.mark.parametrize(("text", "name", "why"), [
    # a cluster patched since the tool was released: the newest release of the line the tool knows
    ("v1.9.1", "v1.9.0", "newer than the releases this tool knows on line 1.9 (newest: v1.9.0)"),
    ("1.9.7", "v1.9.0", "newer than the releases this tool knows on line 1.9 (newest: v1.9.0)"),
    ("v1.8.5", "v1.8.4", "newer than the releases this tool knows on line 1.8 (newest: v1.8.4)"),
    # downstream builds and pre-releases of a known line, as KubeVirt CRs report them
    ("v1.9.1-rhel9", "v1.9.0", "newer than the releases this tool knows on line 1.9 (newest: v1.9.0)"),
    ("v1.8.4-12-g0123abc", "v1.8.4", "a build of v1.8.4, which this tool knows"),
    ("1.8.4-rc.0", "v1.8.4", "a build of v1.8.4, which this tool knows"),
    ("v1.7.2+build.5", "v1.7.2", "a build of v1.7.2, which this tool knows"),
])
def test_versions_the_tool_does_not_know_stand_for_the_newest_of_their_line(text: str, name: str, why: str) -> None:
    found = lookup(text)
    assert found.release.name == name
    assert found.warning == f"KubeVirt {text!r} (--kubevirt-version) is {why}: answering as KubeVirt {name}"
    assert lookup(name).warning == ""


def test_the_default_is_the_newest_release() -> None:
    assert DEFAULT.name == "v1.9.0" and DEFAULT_CONFIG.release is DEFAULT
    assert [r.name for r in RELEASES][-2:] == ["v1.9.0", "main"]


def cr(status: dict[str, str] | None = None) -> dict[str, object]:
    out: dict[str, object] = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "spec": {}}
    if status is not None:
        out["status"] = status
    return out


def test_the_kubevirt_cr_names_the_release_unless_the_option_does() -> None:
    assert load_config(cr({"observedKubeVirtVersion": "v1.7.2"})).release.name == "v1.7.2"
    assert load_config(cr({"observedKubeVirtVersion": "v1.7.2"}), version="1.8").release.name == "v1.8.4"
    assert load_config(cr({})).release is DEFAULT
    assert load_config({"developerConfiguration": {}}).release is DEFAULT  # a bare configuration has no status
    with pytest.raises(UnknownRelease) as caught:
        load_config(cr({"observedKubeVirtVersion": "v1.4.2"}), Location("kv.yaml"))
    assert caught.value.render() == (
        "kv.yaml:1:1: error: unknown KubeVirt version 'v1.4.2' (status.observedKubeVirtVersion; say "
        "--kubevirt-version); known: v1.5.0-v1.9.0 (or a release line: 1.5-1.9), main")


@pytest.mark.parametrize(("fact", "first"), [
    ("writes_firmware_serial", ("v1.5.3", "v1.6.1", "v1.7.0")),
    ("writes_firmware_uuid", ("v1.6.0",)),
    ("writes_pci_topology", ("v1.6.4", "v1.7.2", "v1.8.0")),
    ("pci_topology_skips_s390x", ("v1.6.5", "v1.7.3", "v1.8.2")),
    ("pci_topology_needs_hotplug_machine", ("v1.6.6", "v1.7.4", "v1.8.3")),
    ("architecture_from_datasource_label", ("v1.6.4", "v1.7.0")),
    ("admits_missing_matcher_objects", ("v1.6.0",)),
    ("memory_conflicts_only_guest", ("v1.7.0",)),
    ("creates_panic_device", ("v1.9.0",)),
    ("beta_feature_gates_on_by_default", ("v1.9.0",)),
    ("arm64_efi_secure_boot_off", ("v1.8.3", "v1.9.0")),
    ("serves_pool_v1beta1", ("v1.7.0",)),
    ("qualified_vmi_finalizer", ("v1.7.0",)),
    ("checks_sata_block_size_and_discard", ("v1.7.0",)),
    ("live_update_rollout_by_default", ("v1.6.0",)),
    ("knows_wait_as_receiver", ("v1.6.0",)),
    ("admits_empty_cdrom", ("v1.6.0",)),
    ("revision_ref_names_the_matched_object", ("v1.5.2", "v1.6.0")),
    ("knows_tpm_enabled", ("v1.5.1",)),
])
def test_facts_that_hold_from_a_patch_on(fact: str, first: tuple[str, ...]) -> None:
    """Each line holds the fact from its first patch named on, and every newer line from its first patch."""
    held = [r.name for r in RELEASES if getattr(r, fact)]
    expected = []
    for release in RELEASES:
        line_first = next((BY_NAME[name] for name in first if BY_NAME[name].line == release.line), None)
        newer = release.line > max(BY_NAME[name].line for name in first)
        if (line_first is not None and release.patch >= line_first.patch) or newer:
            expected.append(release.name)
    assert held == expected


@pytest.mark.parametrize(("fact", "held"), [
    ("writes_default_matcher_kind", "v1.5.0-v1.6.6"),
    ("defaults_memory_request", "v1.5.0-v1.6.3"),
    ("memory_request_ignores_overcommit", "v1.6.2"),
    ("serves_instancetype_v1alpha", "v1.5.0-v1.5.3"),
    ("persistent_state_needs_gate", "v1.5.0-v1.5.3"),
    ("memory_provided_checks_only_resources", "v1.5.0-v1.6.3"),
    ("preference_memory_check_panics", "v1.5.0"),
    ("lists_instancetype_v1alpha", "v1.5.0-v1.6.6"),
])
def test_facts_that_ended(fact: str, held: str) -> None:
    names = [r.name for r in RELEASES]
    first, _, last = held.partition("-")
    span = names[names.index(first):names.index(last or first) + 1]
    assert [r.name for r in RELEASES if getattr(r, fact)] == span


def test_every_fact_is_an_attribute_and_nothing_else_is() -> None:
    assert {fact.name for fact in FACTS} == set(DEFAULT.facts())
    with pytest.raises(AttributeError, match="no KubeVirt release fact 'writes_firmware_serials'"):
        _ = DEFAULT.writes_firmware_serials


def at(version: str, **settings: object) -> object:
    return load_config({"developerConfiguration": settings} if settings else {}, version=version)


def test_feature_gate_states_follow_the_release() -> None:
    assert (gates.states("v1.8.4")["VideoConfig"], gates.states("v1.9.0")["VideoConfig"]) == ("Beta", gates.GA)
    assert gates.states("v1.9.0")["DecentralizedLiveMigration"] == "Alpha"
    assert gates.states("main")["DecentralizedLiveMigration"] == "Beta"
    assert "PortRangesSpec" not in gates.states("v1.8.4")
    # Beta is on by default from v1.9.0 only; before, a gate is on when named, registered or not
    assert [gates.is_enabled(at(v), "VideoConfig") for v in ("v1.8.4", "v1.9.0")] == [False, True]
    assert gates.is_enabled(at("v1.8.4", featureGates=["VideoConfig"]), "VideoConfig")
    assert [gates.is_enabled(at(v), "Snapshot") for v in ("v1.8.4", "v1.9.0", "main")] == [False, True, True]
    assert not gates.is_enabled(at("v1.9.0", disabledFeatureGates=["Snapshot"]), "Snapshot")
    assert gates.is_enabled(at("v1.8.4", featureGates=["NoSuchGate"]), "NoSuchGate")
    assert not gates.is_enabled(at("v1.9.0", featureGates=["NoSuchGate"]), "NoSuchGate")


def test_the_pci_topology_annotation_per_patch() -> None:
    s390x = {"architecture": "s390x", "domain": {}}
    pc = {"architecture": "amd64", "domain": {"machine": {"type": "pc-i440fx-9.0"}}}
    q35 = {"architecture": "amd64", "domain": {"machine": {"type": "pc-q35-rhel9.6.0"}}}
    written = {name: [pcitopology.written(spec, BY_NAME[name]) for spec in (s390x, pc, q35)]
               for name in ("v1.6.3", "v1.6.4", "v1.6.5", "v1.6.6", "v1.8.1", "v1.8.2", "v1.8.3", "main")}
    assert written == {
        "v1.6.3": [False, False, False], "v1.6.4": [True, True, True], "v1.6.5": [False, True, True],
        "v1.6.6": [False, False, True], "v1.8.1": [True, True, True], "v1.8.2": [False, True, True],
        "v1.8.3": [False, False, True], "main": [False, False, True],
    }


def test_panic_devices_are_created_from_v1_9_0() -> None:
    pref = {"devices": {"preferredPanicDeviceModel": "pvpanic"}}
    results = {}
    for name in ("v1.8.4", "v1.9.0"):
        bare: dict[str, object] = {"domain": {"devices": {}}}
        own: dict[str, object] = {"domain": {"devices": {"panicDevices": [{}]}}}
        apply_spec("spec", None, pref, bare, {}, release=BY_NAME[name])
        apply_spec("spec", None, pref, own, {}, release=BY_NAME[name])
        results[name] = (bare["domain"], own["domain"])
    assert results == {
        "v1.8.4": ({"devices": {}}, {"devices": {"panicDevices": [{"model": "pvpanic"}]}}),
        "v1.9.0": ({"devices": {"panicDevices": [{"model": "pvpanic"}]}},
                   {"devices": {"panicDevices": [{"model": "pvpanic"}]}}),
    }


@pytest.mark.parametrize(("version", "requests"), [
    ("v1.5.0", {"memory": "2863311530"}),  # 4Gi x 100 / 150
    ("v1.6.2", {"memory": "4Gi"}),  # without the overcommit
    ("v1.6.3", {"memory": "2863311530"}),
    ("v1.6.4", None),
    ("v1.7.0", None),
])
def test_the_memory_request_of_older_releases(version: str, requests: dict[str, str] | None) -> None:
    cfg = load_config({"developerConfiguration": {"memoryOvercommit": 150}}, version=version)
    spec: dict[str, object] = {"domain": {"memory": {"guest": "4Gi"}, "devices": {}}}
    cluster_defaults(cfg, spec)
    assert spec["domain"].get("resources", {}).get("requests") == requests  # type: ignore[attr-defined]
    limited: dict[str, object] = {"domain": {"resources": {"limits": {"memory": "2Gi"}}, "devices": {}}}
    cluster_defaults(cfg, limited)
    assert limited["domain"]["resources"].get("requests") == (  # type: ignore[index]
        {"memory": "2Gi"} if requests else None)


def run(*args: str) -> tuple[str, str, int]:
    return invoke_cli(list(args), DATA)


def test_windows_renders_two_sockets_with_the_default_catalog() -> None:
    out, err, status = run("render", "-f", "vms/win.yaml")
    assert (status, err) == (0, "")
    assert "          cores: 1\n          sockets: 2\n" in out


def test_an_unknown_version_is_one_line_and_exit_2() -> None:
    for args in (["--kubevirt-version", "1.4", "render", "-f", "vms/db.yaml"],
                 ["render", "--kubevirt-version", "1.4", "-f", "vms/db.yaml"]):
        out, err, status = run(*args)
        assert (out, status) == ("", 2)
        assert err == ("error: unknown KubeVirt version '1.4' (--kubevirt-version); known: v1.5.0-v1.9.0 (or a "
                       "release line: 1.5-1.9), main\n")


def test_a_v1_8_cluster_refuses_the_v1_7_0_catalog_preference() -> None:
    args = ("render", "-f", "vms/win.yaml", "--catalog", "windows-2k22-virtio-v1.7.0.yaml")
    for placement in (("--kubevirt-version", "1.8", *args), (*args, "--kubevirt-version", "1.8")):
        _, err, status = run(*placement)
        assert status == 1
        assert err == (
            'windows-2k22-virtio-v1.7.0.yaml:9:5: error: VirtualMachineClusterPreference in version "v1beta1" '
            'cannot be handled as a VirtualMachineClusterPreference: strict decoding error: unknown field '
            '"spec.devices.preferredVideoType"\n')
    assert run(*args)[2] == 0  # v1.9.0 knows the field


def test_config_names_the_release_and_its_catalog() -> None:
    lines = [run("config")[0].splitlines()[0],
             run("config", "--kubevirt-config", "kubevirt-v1.7.2.yaml")[0].splitlines()[0],
             run("--kubevirt-version", "main", "config", "--kubevirt-config",
                 "kubevirt-v1.7.2.yaml")[0].splitlines()[0]]
    assert lines == [
        "# KubeVirt v1.9.0 (kubevirt/kubevirt 79d34c1762); built-in catalog: common-instancetypes v1.7.0",
        "# KubeVirt v1.7.2 (kubevirt/kubevirt b0f4742ff9); built-in catalog: common-instancetypes v1.5.1",
        "# KubeVirt main (kubevirt/kubevirt d923fdb815); built-in catalog: common-instancetypes v1.7.0",
    ]


def test_help_names_the_default_release_and_its_catalog() -> None:
    wanted = ("Default:theKubeVirtCR'sstatus.observedKubeVirtVersion,elsev1.9.0(thenewestrelease;built-in"
              "catalogcommon-instancetypesv1.7.0).")  # without white space: click wraps the text
    for args in (["--help"], ["render", "--help"], ["diff", "--help"]):
        assert wanted in "".join(run(*args)[0].split())


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_upgrade_preview(fmt: str, update_goldens: bool) -> None:
    out, err, status = run("diff", "--kubevirt-version", "1.9", "--base-kubevirt-version", "1.8", "vms/",
                           "--format", fmt)
    assert (err, status) == ("", 1)
    check_golden(DATA / "upgrade", {f"1.8-to-1.9.{'md' if fmt == 'markdown' else 'txt'}": out}, update_goldens)


def test_upgrade_preview_is_no_git_diff() -> None:
    _, err, status = run("diff", "--base", "HEAD", "--base-kubevirt-version", "1.8", "vms/")
    assert status == 2
    assert "--base compares git revisions, --base-kubevirt-version KubeVirt releases: give one of them" in err


MISSING = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web
spec:
  runStrategy: Halted
  instancetype:
    name: u1.nosuch
  template:
    spec:
      domain:
        devices: {}
"""


def test_v1_5_refuses_a_vm_whose_instancetype_is_missing(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text(MISSING)
    errors = {version: invoke_cli(["--kubevirt-version", version, "--no-builtin-catalog", "render", "-f", "vm.yaml"],
                                  tmp_path)[1:] for version in ("1.5", "1.6")}
    assert errors["1.5"] == (
        'vm.yaml:7:3: error: VirtualMachine default/web: Failure to find instancetype: '
        'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.nosuch" not found\n', 1)
    # v1.6 admits it; the expansion fails on the lookup
    assert errors["1.6"] == ('vm.yaml:7:3: error: VirtualMachine default/web: '
                             'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.nosuch" not found\n', 1)


def test_matcher_causes_before_v1_7() -> None:
    from kubectl_instancetype.api.matchers import INSTANCETYPE_MATCHER
    from kubectl_instancetype.pipeline.vm_mutating_webhook import matcher_causes

    vm = {"spec": {"instancetype": {"name": "u1.small", "kind": "VirtualMachineInstancetype",
                                    "inferFromVolume": "root"}}}
    assert matcher_causes(INSTANCETYPE_MATCHER, vm, BY_NAME["v1.6.6"]) == [
        ("Name should not be provided when InferFromVolume is used within the InstancetypeMatcher",
         ("spec", "instancetype", "name")),
        ("Kind should not be provided when InferFromVolume is used within the InstancetypeMatcher",
         ("spec", "instancetype", "kind")),
    ]
    assert matcher_causes(INSTANCETYPE_MATCHER, vm, BY_NAME["v1.7.0"]) == [
        ("Name already set, should be cleared before setting inferFromVolume", ("spec", "instancetype")),
        ("Kind already set, should be cleared before setting inferFromVolume", ("spec", "instancetype")),
    ]


@pytest.mark.parametrize(("version", "conflicts"), [
    ("v1.6.6", ["spec.domain.memory"]),  # any domain.memory conflicts
    ("v1.7.0", []),  # only memory.guest (and what the instancetype sets) does
])
def test_memory_conflicts_before_v1_7(version: str, conflicts: list[str]) -> None:
    spec: dict[str, object] = {"domain": {"memory": {"hugepages": {"pageSize": "2Mi"}}}}
    it = {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}
    assert apply_spec("spec", it, None, spec, {}, release=BY_NAME[version]) == conflicts


def test_the_launch_security_deprecation_warning_comes_with_v1_9_0() -> None:
    from kubectl_instancetype.catalog.admission import LAUNCH_SECURITY_WARNING, admit

    it = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
          "metadata": {"name": "sev"}, "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"},
                                                "launchSecurity": {"sev": {}}}}
    assert [admit(it, BY_NAME[v]).warnings for v in ("v1.8.4", "v1.9.0")] == [(), (LAUNCH_SECURITY_WARNING,)]


def test_v1_5_still_serves_the_v1alpha_instancetypes() -> None:
    served = run("--kubevirt-version", "1.5", "--no-builtin-catalog", "render", "-f", "v1alpha2.yaml")
    assert (served[1], served[2]) == (
        "v1alpha2.yaml:2:1: warning: instancetype.kubevirt.io/v1alpha2 VirtualMachineClusterInstancetypes is now "
        "deprecated and will be removed in v1.\n", 0)
    assert "          guest: 2Gi\n" in served[0]
    refused = run("--kubevirt-version", "1.6", "--no-builtin-catalog", "render", "-f", "v1alpha2.yaml")
    assert refused[2] == 1
    assert refused[1].startswith('v1alpha2.yaml:2:1: error: no matches for kind "VirtualMachineClusterInstancetype" '
                                 'in version "instancetype.kubevirt.io/v1alpha2"')


def test_an_arm64_efi_loader_gets_secure_boot_off_from_v1_8_3() -> None:
    from kubectl_instancetype.vmi.arch import set_arch_defaults

    out = {}
    for version in ("v1.8.2", "v1.8.3"):
        spec = {"architecture": "arm64", "domain": {"firmware": {"bootloader": {"efi": {}}}, "devices": {}}}
        set_arch_defaults(spec, load_config({}, version=version))
        out[version] = spec["domain"]["firmware"]
    assert out == {"v1.8.2": {"bootloader": {"efi": {}}}, "v1.8.3": {"bootloader": {"efi": {"secureBoot": False}}}}


@pytest.mark.parametrize(("version", "arch", "machine"), [
    ("v1.6.3", "amd64", "q35"), ("v1.6.4", "arm64", "virt"), ("v1.9.0", "arm64", "virt"),
])
def test_the_architecture_of_a_cloned_datasource(version: str, arch: str, machine: str) -> None:
    # before v1.8.0 an arm64 VM needs the MultiArchitecture gate
    gate = ["--kubevirt-config", "multi-architecture.yaml"] if version.startswith("v1.6") else []
    out, err, status = run("--kubevirt-version", version, "--no-builtin-catalog", "render", "--vmi", *gate, "-f",
                           "datasource-arm64.yaml")
    assert (err, status) == ("", 0)
    assert f"\n  architecture: {arch}\n" in out and f"\n      type: {machine}\n" in out
    stored = run("--kubevirt-version", version, "--no-builtin-catalog", "render", "--stored", *gate, "-f",
                 "datasource-arm64.yaml")[0]
    assert f"\n      architecture: {arch}\n" in stored


def test_before_v1_8_another_architecture_needs_the_multi_architecture_gate() -> None:
    _out, err, status = run("--kubevirt-version", "v1.7.4", "--no-builtin-catalog", "render", "--vmi", "-f",
                            "datasource-arm64.yaml")
    assert status == 1
    assert err.endswith("VirtualMachine default/vm-arm: MultiArchitecture feature gate is not enabled in "
                        "kubevirt-config, invalid entry spec.template.spec.architecture\n")


@pytest.mark.parametrize(("words", "expected"), [
    (["render", "--kubevirt-version", "1."], ["1.5", "1.6", "1.7", "1.8", "1.9"]),
    (["--kubevirt-version", "v1.8"], ["v1.8.0", "v1.8.1", "v1.8.2", "v1.8.3", "v1.8.4"]),
    (["diff", "--base-kubevirt-version", "m"], ["main"]),
    (["config", "--kubevirt-version", "m"], ["main"]),
])
def test_versions_complete(words: list[str], expected: list[str]) -> None:
    from kubectl_instancetype.cli import main_group
    from kubectl_instancetype.cli.complete import complete

    assert [value for value, _ in complete(main_group, words).candidates] == expected


def test_every_release_has_its_data() -> None:
    """A row of the table is all a new release needs besides its data: its bundle, schemas and gate states."""
    from kubectl_instancetype.catalog.builtin import BUNDLE_OF_RELEASE
    from kubectl_instancetype.schema import tables

    names = [release.name for release in RELEASES]
    assert list(tables.RELEASES) == names
    assert sorted(BUNDLE_OF_RELEASE) == sorted(names)
    for name in names:
        assert gates.states(name)["LiveMigration"] == gates.GA
        assert "VirtualMachine" in tables.crd_schemas(name)


def test_v1_5_knows_no_wait_as_receiver() -> None:
    """release.knows_wait_as_receiver: v1.5's validateRunStrategy lists no WaitAsReceiver."""
    from kubectl_instancetype.admission.cause import FieldPath
    from kubectl_instancetype.admission.vm import run_strategy

    spec = {"runStrategy": "WaitAsReceiver"}
    at = FieldPath.of("spec")
    assert [c.message for c in run_strategy(at, spec, at_release("v1.5.3"))] == [
        "Invalid RunStrategy (WaitAsReceiver)"]
    assert [c.message for c in run_strategy(at, spec, at_release("v1.6.0"))] == [
        "Invalid RunStrategy (WaitAsReceiver), DecentralizedLiveMigration feature gate is not enabled in kubevirt "
        "resource"]


def at_release(version: str, **conf: object) -> Any:
    return load_config(conf, version=version)


@pytest.mark.parametrize(("version", "conf", "live"), [
    ("v1.5.3", {}, False),
    ("v1.5.3", {"vmRolloutStrategy": None}, False),
    ("v1.5.3", {"vmRolloutStrategy": "LiveUpdate"}, True),
    ("v1.6.0", {}, True),
])
def test_v1_5_rolls_out_in_stages_by_default(version: str, conf: dict[str, Any], live: bool) -> None:
    """release.live_update_rollout_by_default: DefaultVMRolloutStrategy is Stage on v1.5, so no hot-plug maxima."""
    assert at_release(version, **conf).live_update is live


@pytest.mark.parametrize(("version", "gates_on", "policy"), [
    ("v1.5.3", [], "reference"),
    ("v1.5.3", ["InstancetypeReferencePolicy"], "expand"),
    ("v1.6.0", [], "expand"),
])
def test_the_reference_policy_needs_its_gate_on_v1_5(version: str, gates_on: list[str], policy: str) -> None:
    """GetInstancetypeReferencePolicy: the InstancetypeReferencePolicy gate is Beta on v1.5, GA from v1.6.0."""
    from kubectl_instancetype.pipeline.vm_controller import reference_policy

    cfg = at_release(version, instancetype={"referencePolicy": "expand"},
                     developerConfiguration={"featureGates": gates_on})
    assert reference_policy(cfg) == policy


def test_v1_5_0_fails_its_webhook_on_a_memory_requirement_without_guest_memory() -> None:
    """release.preference_memory_check_panics: v1.5.0's checkMemory dereferences the nil guest memory."""
    from kubectl_instancetype.expand.requirements import NIL_GUEST, check_requirements

    pref = {"requirements": {"memory": {"guest": "1536Mi"}}}
    assert check_requirements(None, pref, {"domain": {}}, BY_NAME["v1.5.0"]) == NIL_GUEST
    assert check_requirements(None, pref, {"domain": {}}, BY_NAME["v1.5.1"]) == (
        "insufficient Memory resources of 0 provided by VirtualMachine, preference requires 1536Mi")
    with_request = {"domain": {"resources": {"requests": {"memory": "2Gi"}}, "memory": {"guest": "2Gi"}}}
    assert check_requirements(None, pref, with_request, BY_NAME["v1.5.0"]) is None


def test_v1_5_0_drops_the_tpm_enabled_a_revision_holds() -> None:
    """release.knows_tpm_enabled: TPMDevice.Enabled is a v1.5.1 field."""
    pref = {"devices": {"preferredTPM": {"enabled": True, "persistent": True}}}

    def tpm(version: str) -> object:
        spec: dict[str, Any] = {"domain": {"devices": {}}}
        assert apply_spec("spec.template.spec", None, pref, spec, {}, release=BY_NAME[version]) == []
        return spec["domain"]["devices"]["tpm"]

    assert tpm("v1.5.0") == {"persistent": True}
    assert tpm("v1.5.1") == {"enabled": True, "persistent": True}
