"""The built-in catalog of each KubeVirt release equals the bundle its virt-operator deploys, object for object."""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SHARED, TESTDATA

from kubectl_instancetype.catalog import builtin
from kubectl_instancetype.catalog.builtin import bundles
from kubectl_instancetype.yamlio.load import load_stream

RELEASES = SHARED / "catalog" / "kubevirt-releases"
SUMS = json.loads((TESTDATA / "catalog" / "releases" / "sha256.json").read_text())
RELEASED = [version for version in builtin.VERSIONS if version != builtin.VERSION]
FILES = ("common-clusterinstancetypes-bundle.yaml", "common-clusterpreferences-bundle.yaml")
needs_releases = pytest.mark.skipif(not RELEASES.is_dir(), reason=f"the release bundles are not in {RELEASES}")
TAGS = [f"v1.5.{p}" for p in range(4)] + [f"v1.6.{p}" for p in range(7)] + [f"v1.7.{p}" for p in range(5)] + [
    f"v1.8.{p}" for p in range(5)] + ["v1.9.0", "main"]


@cache
def published(version: str) -> list[dict[str, Any]]:
    """The objects of one release's two cluster bundle files, in file order."""
    found = []
    for name in FILES:
        path = RELEASES / version / name
        found += [doc.data for doc in load_stream(path.read_text(), str(path))]
    return found


def shipped(version: str) -> list[dict[str, Any]]:
    return [obj for obj in builtin.bundle(version).objects() if obj["kind"] in bundles.CLUSTER_KINDS]


def checksum(objects: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(objects, separators=(",", ":")).encode()).hexdigest()


@needs_releases
@pytest.mark.parametrize("version", RELEASED)
def test_each_bundle_equals_the_published_one_object_for_object(version: str) -> None:
    got, want = shipped(version), published(version)
    assert [(o["kind"], o["metadata"]["name"]) for o in got] == [(o["kind"], o["metadata"]["name"]) for o in want]
    for ours, theirs in zip(got, want, strict=True):
        assert ours == theirs, ours["metadata"]["name"]
        assert json.dumps(ours) == json.dumps(theirs), f"{ours['metadata']['name']}: key order"


@pytest.mark.parametrize("version", RELEASED)
def test_the_shipped_bundle_matches_its_recorded_checksum(version: str) -> None:
    """Without the published bundles beside the checkout: the data still gives what they gave."""
    assert checksum(shipped(version)) == SUMS[version]


@needs_releases
def test_the_recorded_checksums_are_the_published_bundles() -> None:
    assert {version: checksum(published(version)) for version in RELEASED} == SUMS


@needs_releases
def test_the_release_table_is_releases_tsv() -> None:
    with (RELEASES / "releases.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    table = {row["kubevirt"].split("-")[0]: row["common-instancetypes"] for row in rows}
    assert table == builtin.BUNDLE_OF_RELEASE


def test_every_release_tag_has_a_bundle() -> None:
    assert list(builtin.BUNDLE_OF_RELEASE) == TAGS
    assert set(builtin.BUNDLE_OF_RELEASE.values()) == set(RELEASED)
    assert (builtin.BUNDLE_OF_RELEASE["v1.5.0"], builtin.BUNDLE_OF_RELEASE["v1.5.1"]) == ("v1.3.0", "v1.3.1")
    assert (builtin.BUNDLE_OF_RELEASE["v1.6.2"], builtin.BUNDLE_OF_RELEASE["v1.6.3"]) == ("v1.4.0", "v1.4.1")
    assert builtin.BUNDLE_OF_RELEASE["v1.8.4"] == "v1.6.0"
    assert builtin.BUNDLE_OF_RELEASE["v1.9.0"] == builtin.BUNDLE_OF_RELEASE["main"] == "v1.7.0"


def test_versions_are_oldest_first_with_main_between_its_neighbours() -> None:
    assert builtin.VERSIONS == ("v1.3.0", "v1.3.1", "v1.4.0", "v1.4.1", "v1.5.1", "v1.6.0",
                                "v1.6.0-90-g7c1e305b", "v1.7.0")


@pytest.mark.parametrize(("version", "instancetypes", "preferences"), [
    ("v1.3.0", 44, 39), ("v1.3.1", 44, 43), ("v1.4.0", 55, 54), ("v1.4.1", 55, 54), ("v1.5.1", 55, 54),
    ("v1.6.0", 65, 54), ("v1.7.0", 65, 54), ("v1.6.0-90-g7c1e305b", 65, 57),
])
def test_names_per_bundle(version: str, instancetypes: int, preferences: int) -> None:
    catalog = builtin.bundle(version)
    assert catalog.version == version
    for cluster, namespaced, count in ((builtin.CLUSTER_INSTANCETYPE, builtin.INSTANCETYPE, instancetypes),
                                       (builtin.CLUSTER_PREFERENCE, builtin.PREFERENCE, preferences)):
        names = catalog.names(cluster)
        assert len(names) == count
        assert names == sorted(names) == catalog.names(namespaced)
    assert catalog.names("VirtualMachine") == []


def test_the_main_bundle_is_the_module_catalog() -> None:
    assert builtin.bundle(builtin.VERSION).objects() == builtin.objects()


def test_windows_11_topology_differs_between_a_release_and_main() -> None:
    """The reason the catalog must follow the release: every release spreads windows.11 over sockets."""
    for version in RELEASED:
        found = builtin.bundle(version).find(builtin.CLUSTER_PREFERENCE, "windows.11")
        assert found is not None and found["spec"]["cpu"] == {"preferredCPUTopology": "sockets"}, version
    found = builtin.find(builtin.CLUSTER_PREFERENCE, "windows.11")
    assert found is not None and found["spec"]["cpu"] == {"preferredCPUTopology": "cores"}


def test_preferred_video_type_arrives_with_v1_7_0() -> None:
    new = builtin.bundle("v1.7.0").find(builtin.CLUSTER_PREFERENCE, "windows.2k22.virtio")
    old = builtin.bundle("v1.6.0").find(builtin.CLUSTER_PREFERENCE, "windows.2k22.virtio")
    assert new is not None and old is not None
    assert new["spec"]["devices"]["preferredVideoType"] == "virtio"
    assert "preferredVideoType" not in old["spec"]["devices"]
    assert new["metadata"]["labels"][bundles.VERSION_LABEL] == "v1.7.0"
    assert list(old["metadata"]["labels"])[-1] == bundles.VERSION_LABEL


def test_a_namespaced_copy_differs_only_in_kind() -> None:
    catalog = builtin.bundle("v1.4.1")
    cluster = catalog.find(builtin.CLUSTER_INSTANCETYPE, "u1.large")
    namespaced = catalog.find(builtin.INSTANCETYPE, "u1.large")
    assert cluster is not None and namespaced is not None
    assert {**namespaced, "kind": builtin.CLUSTER_INSTANCETYPE} == cluster


def test_objects_missing_from_an_old_bundle_are_not_found() -> None:
    assert builtin.bundle("v1.3.0").find(builtin.CLUSTER_INSTANCETYPE, "cx1.large1gi") is None
    assert builtin.bundle("v1.5.1").find(builtin.INSTANCETYPE, "d1.large") is None
    assert builtin.bundle("v1.7.0").find(builtin.CLUSTER_PREFERENCE, "rhel.9.s390x.secex") is None
    assert builtin.bundle("v1.7.0").find("VirtualMachine", "u1.large") is None


def test_find_hands_out_fresh_objects() -> None:
    catalog = builtin.bundle("v1.5.1")
    first = catalog.find(builtin.CLUSTER_PREFERENCE, "fedora")
    assert first is not None
    first["spec"]["devices"]["preferredDiskBus"] = "sata"
    first["metadata"]["labels"].clear()
    again = catalog.find(builtin.CLUSTER_PREFERENCE, "fedora")
    assert again is not None and again["spec"]["devices"]["preferredDiskBus"] == "virtio"
    assert again["metadata"]["labels"][bundles.VERSION_LABEL] == "v1.5.1"


def test_an_unknown_version_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"v1\.2\.0.*known: v1\.3\.0, v1\.3\.1"):
        builtin.bundle("v1.2.0")


@pytest.mark.parametrize(("old", "new", "patch"), [
    ({"a": 1, "b": {"c": 2}}, {"a": 1, "b": {"c": 3}}, {"b": {"c": 3}}),
    ({"a": 1, "b": 2}, {"a": 1}, {"b": None}),
    ({"a": 1}, {"a": 1, "b": [1]}, {"b": [1]}),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}, {"$replace": {"b": 2, "a": 1}}),
    (None, {"a": {"b": 1}}, {"a": {"b": 1}}),
])
def test_patches_round_trip_with_key_order(old: Any, new: Any, patch: Any) -> None:
    script = _generator()
    assert script.diff(old, new) == patch
    assert json.dumps(bundles.apply(old, patch)) == json.dumps(new)


@cache
def _generator() -> Any:
    from conftest import load_script

    return load_script(ROOT / "scripts" / "generate-catalog-releases", "generate_catalog_releases")


@needs_releases
def test_the_generator_finds_the_shipped_data_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate-catalog-releases"), "--check",
                           "--bundles", str(RELEASES)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_generator_says_when_the_bundles_are_missing(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate-catalog-releases"), "--check",
                           "--bundles", str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == f"generate-catalog-releases: no releases.tsv under {tmp_path}\n"
