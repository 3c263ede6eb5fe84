"""The schemas of each KubeVirt release: a field the release does not know is refused as its API server does."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SHARED, load_script

from kubectl_instancetype.catalog import builtin
from kubectl_instancetype.schema import tables
from kubectl_instancetype.schema.server import ACCEPTED, REFUSED, Options, admit, field_errors
from kubectl_instancetype.schema.tables import RELEASES, Node, crd_schemas, kubevirt_definitions
from kubectl_instancetype.schema.webhook import spec_problems

GENERATOR = load_script(ROOT / "scripts" / "generate-schemas", "generate_schemas")
DATA = ROOT / "kubectl_instancetype" / "schema" / "data"
MIRROR = Path(os.environ.get("KUBEVIRT_GIT", "/work/.mirror/kubevirt+kubevirt/repo"))
needs_sources = pytest.mark.skipif(
    not (SHARED / "spec" / "crd-schemas").is_dir() or not (MIRROR / "HEAD").is_file(),
    reason=f"KubeVirt's schemas beside the repo and a kubevirt/kubevirt git directory ({MIRROR}) are needed",
)
PREFERENCE_MESSAGE = ('VirtualMachineClusterPreference in version "v1beta1" cannot be handled as a '
                      'VirtualMachineClusterPreference: strict decoding error: unknown field '
                      '"spec.devices.preferredVideoType"')
PORT_RANGES = "spec.template.spec.domain.devices.interfaces[0].portRanges"


def windows_2k22_virtio() -> dict[str, Any]:
    """The preference as common-instancetypes v1.7.0 publishes it (KubeVirt v1.9.0 deploys it)."""
    found = builtin.bundle("v1.7.0").find(builtin.CLUSTER_PREFERENCE, "windows.2k22.virtio")
    assert found is not None
    return found


def vm(interface: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"},
            "spec": {"runStrategy": "Halted", "template": {"spec": {
                "domain": {"devices": {"interfaces": [{"name": "default", "masquerade": {}, **interface}]}},
                "networks": [{"name": "default", "pod": {}}]}}}}


PORTS = {"portRanges": [{"start": 1000, "end": 2000, "protocol": "TCP"}]}


def test_releases_are_every_tag_from_v1_5_0_and_main() -> None:
    assert RELEASES[0] == "v1.5.0" and RELEASES[-2:] == ("v1.9.0", "main")
    assert len(RELEASES) == 23
    shipped = json.loads((DATA / "crds-releases.json").read_text())["releases"]
    assert [*shipped, "main"] == list(RELEASES)
    assert [*json.loads((DATA / "kubevirt-openapi-releases.json").read_text())["releases"], "main"] == list(RELEASES)


@pytest.mark.parametrize("release", ["v1.8.4", "v1.8.0", "v1.7.4", "v1.6.0", "v1.5.0"])
def test_a_preference_newer_than_the_release_is_refused_under_strict(release: str) -> None:
    answer = admit(windows_2k22_virtio(), Options(release=release))
    assert answer.verdict == REFUSED
    assert [(p.path, p.message) for p in answer.problems] == [
        (("spec", "devices", "preferredVideoType"), PREFERENCE_MESSAGE)]


@pytest.mark.parametrize("release", ["v1.9.0", "main"])
def test_the_release_that_knows_the_field_accepts_it(release: str) -> None:
    answer = admit(windows_2k22_virtio(), Options(release=release))
    assert (answer.verdict, answer.problems, answer.warnings) == (ACCEPTED, (), ())


def test_under_warn_the_unknown_field_is_pruned_with_a_warning() -> None:
    answer = admit(windows_2k22_virtio(), Options(mode="warn", release="v1.8.4"))
    assert answer.verdict == ACCEPTED
    assert [w.message for w in answer.warnings] == ['unknown field "spec.devices.preferredVideoType"']
    assert answer.pruned == ("spec.devices.preferredVideoType",)
    assert "preferredVideoType" not in answer.obj["spec"]["devices"]
    assert answer.obj["spec"]["devices"]["preferredDiskBus"] == "virtio"


def test_under_ignore_it_is_pruned_silently() -> None:
    answer = admit(windows_2k22_virtio(), Options(mode="ignore", release="v1.8.4"))
    assert (answer.verdict, answer.warnings, answer.pruned) == (ACCEPTED, (), ())
    assert "preferredVideoType" not in answer.obj["spec"]["devices"]


@pytest.mark.parametrize(("release", "verdict", "messages"), [
    ("v1.8.4", REFUSED, ['VirtualMachine in version "v1" cannot be handled as a VirtualMachine: strict decoding '
                         f'error: unknown field "{PORT_RANGES}"']),
    ("v1.7.0", REFUSED, ['VirtualMachine in version "v1" cannot be handled as a VirtualMachine: strict decoding '
                         f'error: unknown field "{PORT_RANGES}"']),
    ("v1.9.0", ACCEPTED, []),
    ("main", ACCEPTED, []),
])
def test_a_vm_field_added_in_v1_9_is_refused_before(release: str, verdict: str, messages: list[str]) -> None:
    answer = admit(vm(PORTS), Options(release=release))
    assert (answer.verdict, [p.message for p in answer.problems]) == (verdict, messages)


def test_kubevirts_own_schema_check_follows_the_release() -> None:
    """Under ignore the server prunes the field; KubeVirt's webhook, given it anyway, refuses it too."""
    assert spec_problems(vm(PORTS), release="v1.8.4") == [
        (("spec", "template", "spec", "domain", "devices", "interfaces", 0, "portRanges"),
         "spec.template.spec.domain.devices.interfaces.portRanges in body is a forbidden property")]
    assert spec_problems(vm(PORTS), release="v1.9.0") == []


def test_field_errors_use_the_release_schema() -> None:
    """``portRanges[].protocol`` is required where the field exists; a release without it has no rule."""
    ranges = {"portRanges": [{"start": 1, "end": 2}]}
    stored = admit(vm({}), Options(release="v1.8.4")).stored
    stored["spec"]["template"]["spec"]["domain"]["devices"]["interfaces"][0].update(ranges)
    assert [e.text() for e in field_errors(stored, vm_crd(), "v1.9.0")] == [
        "spec.template.spec.domain.devices.interfaces[0].portRanges[0].protocol: Required value"]
    assert field_errors(stored, vm_crd(), "v1.8.4") == []
    # on a cluster the CRD never sees it missing: KubeVirt's mutating webhook writes Go's ``protocol: ""``
    # (schema.go PortRange, no omitempty) before the CRD validation
    answer = admit(vm(ranges), Options(release="v1.9.0"))
    assert answer.problems == ()
    assert answer.obj["spec"]["template"]["spec"]["domain"]["devices"]["interfaces"][0]["portRanges"] == [
        {"start": 1, "end": 2, "protocol": ""}]


def vm_crd() -> Any:
    from kubectl_instancetype.schema import registry

    crd = registry.lookup("kubevirt.io", "VirtualMachine")
    assert crd is not None
    return crd


@pytest.mark.parametrize(("release", "known"), [
    ("v1.5.0", False), ("v1.8.4", False), ("v1.9.0", True), ("main", True)])
def test_preferred_video_type_appears_in_v1_9_0(release: str, known: bool) -> None:
    devices = crd_schemas(release)["VirtualMachineClusterPreference"].properties["spec"].properties["devices"]
    assert ("preferredVideoType" in devices.properties) is known
    definitions = kubevirt_definitions(release)
    interface = definitions.nodes["v1.Interface"]
    assert ("portRanges" in interface.properties) is known


def test_unchanged_schemas_are_shared_between_releases() -> None:
    assert crd_schemas("v1.8.4")["VirtualMachineInstancetype"] is crd_schemas("v1.9.0")["VirtualMachineInstancetype"]
    assert crd_schemas("v1.8.3") is crd_schemas("v1.8.3")


def test_every_release_has_every_kind_and_a_closed_webhook_root() -> None:
    for release in RELEASES:
        assert set(crd_schemas(release)) == set(GENERATOR.CRD_FILES), release
        definitions = kubevirt_definitions(release)
        root = definitions.nodes[definitions.root]
        assert root.additional is False and "template" in root.properties, release


def test_an_unknown_release_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"v1\.4\.0.*known: v1\.5\.0, v1\.5\.1"):
        crd_schemas("v1.4.0")
    with pytest.raises(KeyError, match=r"v1\.10\.0"):
        kubevirt_definitions("v1.10.0")


def test_the_release_tables_are_small() -> None:
    """Deltas against main, not copies: all 22 releases weigh less than twice main's tables."""
    main = sum((DATA / name).stat().st_size for name in ("crds.json", "kubevirt-openapi.json"))
    releases = sum((DATA / name).stat().st_size for name in ("crds-releases.json", "kubevirt-openapi-releases.json"))
    assert releases < 2 * main
    assert "description" not in (DATA / "crds-releases.json").read_text()


def test_go_validations_reads_each_crd_yaml() -> None:
    text = ('package components\n\nvar CRDsValidation map[string]string = map[string]string{\n'
            '\t"kubevirt": `openAPIV3Schema:\n  type: object\n`,\n'
            '\t"virtualmachine": `openAPIV3Schema:\n  description: a ` + "`" + `quoted` + "`" + ` word\n`,\n}\n')
    assert GENERATOR.go_validations(text) == {
        "kubevirt": "openAPIV3Schema:\n  type: object\n",
        "virtualmachine": "openAPIV3Schema:\n  description: a `quoted` word\n",
    }


def test_release_tables_store_only_what_changed() -> None:
    leaf = {"type": "string"}
    crd = {"openAPIV3Schema": {"type": "object", "properties": {"a": leaf, "b": {"type": "integer"}}}}
    old = {"openAPIV3Schema": {"type": "object", "properties": {"a": leaf}}}
    swagger = {"definitions": {"v1.VirtualMachineSpec": {"type": "object", "properties": {
        "x": {"$ref": "#/definitions/v1.X"}, "y": {"$ref": "#/definitions/v1.Y"}}},
        "v1.X": {"type": "string"}, "v1.Y": {"type": "string"}}}
    old_swagger = {"definitions": {"v1.VirtualMachineSpec": {"type": "object", "properties": {
        "x": {"$ref": "#/definitions/v1.X"}}}, "v1.X": {"type": "string"}}}
    main = GENERATOR.generate({"K": crd}, swagger)
    out = {name: json.loads(text) for name, text in
           GENERATOR.generate_releases(main, {"v1.5.0": ({"K": old}, old_swagger),
                                              "v1.5.1": ({"K": crd}, swagger)}).items()}
    crds = out["crds-releases.json"]
    assert crds["nodes"] == [{"p": {"a": 0}, "t": "object"}]  # the leaf is main's node 0
    assert crds["releases"] == {"v1.5.0": {"K": 3}, "v1.5.1": {"K": 2}}
    openapi = out["kubevirt-openapi-releases.json"]
    assert openapi["bodies"] == [{"a": False, "p": {"x": {"ref": "v1.X"}}, "t": "object"}]
    assert openapi["releases"]["v1.5.0"] == {"root": "v1.VirtualMachineSpec", "changed": {
        "v1.VirtualMachineSpec": 0}, "removed": ["v1.Y"]}
    assert openapi["releases"]["v1.5.1"] == {"root": "v1.VirtualMachineSpec", "changed": {}, "removed": []}


def test_check_without_the_git_directory_finds_release_tables_built_on_other_main_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    main = {name: (DATA / name).read_text() for name in ("crds.json", "kubevirt-openapi.json")}
    assert GENERATOR.stale_bases(main) == []
    for name in ("crds-releases.json", "kubevirt-openapi-releases.json"):
        (tmp_path / name).write_text(json.dumps({"base": "0" * 64}))
    monkeypatch.setattr(GENERATOR, "OUT", tmp_path)
    assert GENERATOR.stale_bases(main) == ["crds-releases.json", "kubevirt-openapi-releases.json"]


@needs_sources
def test_the_release_tables_are_current_with_every_tag() -> None:
    assert [*GENERATOR.release_tags(MIRROR), "main"] == list(RELEASES)
    assert GENERATOR.main(["--check", "--shared", str(SHARED), "--kubevirt-git", str(MIRROR)]) == 0


def test_tables_module_names_main() -> None:
    assert tables.MAIN == "main" == RELEASES[-1]


@pytest.mark.parametrize("release", RELEASES)
def test_each_release_accepts_the_catalog_it_deploys(release: str) -> None:
    catalog = builtin.bundle(builtin.BUNDLE_OF_RELEASE[release])
    refused = [(obj["kind"], obj["metadata"]["name"]) for obj in catalog.objects()
               if admit(obj, Options(release=release)).verdict != ACCEPTED]
    assert refused == []


def test_a_v1_8_cluster_refuses_every_windows_virtio_preference_of_v1_7_0() -> None:
    refused = {}
    for obj in builtin.bundle("v1.7.0").objects():
        answer = admit(obj, Options(release="v1.8.4"))
        if answer.verdict != ACCEPTED and obj["kind"] == builtin.CLUSTER_PREFERENCE:
            refused[obj["metadata"]["name"]] = [p.message for p in answer.problems]
    assert sorted(refused) == [f"windows.{name}.virtio" for name in (
        "10", "11", "2k12", "2k16", "2k19", "2k22", "2k25", "2k8", "7")]
    assert all(messages == [PREFERENCE_MESSAGE] for messages in refused.values())


def _known_field(release: str, kind: str, path: str) -> bool:
    """Whether the CRD of ``kind`` in ``release`` has the field at ``path`` (``[]``: a list's items)."""
    node: Node | None = crd_schemas(release)[kind]
    for part in path.split("."):
        if node is None:
            return False
        node = node.items if part == "[]" else node.properties.get(part)
    return node is not None


@pytest.mark.parametrize(("kind", "path", "first"), [
    ("VirtualMachineClusterPreference", "spec.devices.preferredTPM.enabled", "v1.5.1"),
    ("VirtualMachine", "spec.template.spec.domain.devices.panicDevices", "v1.6.0"),
    ("VirtualMachineClusterPreference", "spec.devices.preferredPanicDeviceModel", "v1.6.0"),
    ("VirtualMachine", "spec.dataVolumeTemplates.[].spec.source.registry.platform", "v1.6.4"),
    ("VirtualMachineClusterPreference", "spec.preferredArchitecture", "v1.7.0"),
    ("VirtualMachineClusterPreference", "spec.requirements.architecture", "v1.7.0"),
    ("VirtualMachineInstancetype", "spec.ioThreads", "v1.7.0"),
    ("VirtualMachineClusterPreference", "spec.features.preferredHyperv.tlbflush.direct", "v1.8.0"),
    ("VirtualMachine", "spec.template.spec.domain.features.hyperv.tlbflush.extended", "v1.8.0"),
    ("VirtualMachine", "spec.template.spec.networks.[].resourceClaim", "v1.9.0"),
    ("VirtualMachinePreference", "spec.preferredLaunchSecurity", "v1.9.0"),
])
def test_a_field_is_known_from_the_release_that_added_it(kind: str, path: str, first: str) -> None:
    assert [release for release in RELEASES if _known_field(release, kind, path)] == list(
        RELEASES[RELEASES.index(first):])
