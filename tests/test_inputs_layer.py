"""The inputs layer: sources in through a reader, documents, catalog, configuration, problems and notices out.

The reader here is a dictionary of texts, so every case runs without a file system: the assembly is pure.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kubectl_instancetype.errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, InputError, KubeVirtError, Location
from kubectl_instancetype.inputs import (
    JUDGE_USED,
    NOT_AN_OBJECT,
    Request,
    Source,
    Text,
    excluded,
    gather,
)
from kubectl_instancetype.reporters import RunResult, exit_status
from kubectl_instancetype.yamlio import Limits, load_stream


class Texts:
    """A reader over ``{path: text}``; a path that is not there cannot be read."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def sources(self, paths: tuple[str, ...], recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
        for path in paths:
            below = sorted(name for name in self.files if name.startswith(path.rstrip("/") + "/"))
            if below:
                yield from (Source(name, name, path) for name in below)
            else:
                yield Source(path, path, path)

    def read(self, source: Source, max_bytes: int) -> Text:
        if source.path not in self.files:
            raise InputError("no such file or directory", Location(source.display))
        return Text(self.files[source.path])


VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web
spec:
  runStrategy: Halted
  instancetype:
    name: small
  template:
    spec:
      domain:
        devices: {}
"""
SMALL = """apiVersion: instancetype.kubevirt.io/v1alpha2
kind: VirtualMachineClusterInstancetype
metadata:
  name: small
spec:
  cpu:
    guest: 1
  memory:
    guest: 1Gi
"""
WORKFLOW = "name: ci\non:\n  push: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
VALUES = "replicaCount: 2\nimage:\n  tag: v1\n"


def test_documents_catalog_and_warnings_come_back_together() -> None:
    reader = Texts({"repo/vm.yaml": VM, "catalog/small.yaml": SMALL})
    loaded = gather(Request(("repo",), catalogs=("catalog",), builtin=False, accept_removed=True), reader)
    assert [d.data["metadata"]["name"] for d in loaded.documents] == ["web"]
    assert loaded.catalog.entries and not loaded.problems
    (notice,) = loaded.notices
    assert notice.location == Location("catalog/small.yaml", 1, 1) and "deprecated" in notice.message
    assert loaded.files == ("repo/vm.yaml", "catalog/small.yaml")


def test_the_krm_function_gets_the_same_warning() -> None:
    """A v1alpha2 object among a function's items warns as it does under render."""
    given = load_stream(SMALL + "---\n" + VM, "<stdin>")
    loaded = gather(Request(builtin=False, judge=JUDGE_USED, accept_removed=True), Texts({}), given)
    assert [n.message for n in loaded.notices] == [
        "instancetype.kubevirt.io/v1alpha2 VirtualMachineClusterInstancetypes is now deprecated and will be "
        "removed in v1."]


def test_removed_versions_are_refused_unless_accepted() -> None:
    loaded = gather(Request(("small.yaml",), builtin=False), Texts({"small.yaml": SMALL}))
    assert not loaded.catalog.entries and not loaded.notices
    assert [(p.render(), p.exit_code) for p in loaded.problems] == [(
        'small.yaml:1:1: error: no matches for kind "VirtualMachineClusterInstancetype" in version '
        '"instancetype.kubevirt.io/v1alpha2" (instancetype.kubevirt.io/v1alpha2 was removed in KubeVirt v1.7: '
        "`kubectl instancetype convert -f PATH --write` rewrites it as instancetype.kubevirt.io/v1beta1; "
        "--accept-removed-versions renders it as older clusters did)", 1)]


def test_problems_are_values_with_the_document_they_blame() -> None:
    reader = Texts({"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n"})
    loaded = gather(Request(("a.yaml", "missing.yaml"), builtin=False), reader)
    assert [p.render() for p in loaded.problems] == [  # reading first, then checking, as they are met
        "missing.yaml:1:1: error: no such file or directory", "a.yaml:3:1: error: ConfigMap has no metadata.name"]
    assert loaded.blamed[0] is None and loaded.blamed[1] is not None


def test_documents_that_are_no_kubernetes_objects_are_skipped_with_a_note() -> None:
    reader = Texts({"repo/.github/workflows/ci.yaml": WORKFLOW, "repo/chart/values.yaml": VALUES,
                    "repo/vm.yaml": VM, "repo/list.yaml": "- a\n- b\n"})
    loaded = gather(Request(("repo",)), reader)
    assert not loaded.problems
    assert [(n.severity, n.location.path if n.location else "", n.message) for n in loaded.notices] == [
        ("note", "repo/.github/workflows/ci.yaml", NOT_AN_OBJECT), ("note", "repo/chart/values.yaml", NOT_AN_OBJECT),
        ("note", "repo/list.yaml", NOT_AN_OBJECT)]
    assert [d.data["kind"] for d in loaded.documents] == ["VirtualMachine"]


def test_kustomize_configuration_is_skipped_but_a_kind_without_a_name_is_refused() -> None:
    reader = Texts({"k.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n",
                    "c.yaml": "apiVersion: v1\nkind: ConfigMap\ndata: {}\n",
                    "chart.yaml": "apiVersion: v2\nname: web\n"})
    loaded = gather(Request(("k.yaml", "c.yaml", "chart.yaml")), reader)
    assert [n.render() for n in loaded.notices] == [
        "k.yaml:1:1: note: skipped: kustomize configuration, not a Kubernetes object",
        "chart.yaml:1:1: note: skipped: not a Kubernetes object (no kind)"]
    assert [p.message for p in loaded.problems] == ["ConfigMap has no metadata.name"]


def test_excluded_files_are_not_read() -> None:
    reader = Texts({"repo/.github/workflows/ci.yaml": "{", "repo/vm.yaml": VM})
    loaded = gather(Request(("repo",), exclude=(".github",)), reader)
    assert not loaded.problems and loaded.files == ("repo/vm.yaml",)


@pytest.mark.parametrize(("path", "root", "pattern", "expected"), [
    ("repo/.github/workflows/ci.yaml", "repo", ".github", True),
    ("repo/.github/workflows/ci.yaml", "repo", ".github/**", True),
    ("repo/.github/workflows/ci.yaml", "repo", "workflows/*.yaml", False),  # relative to the -f root
    ("repo/.github/workflows/ci.yaml", "repo", "**/workflows/*.yaml", True),
    ("repo/chart/values.yaml", "repo", "values.yaml", True),  # a base name, anywhere
    ("repo/chart/values.yaml", "repo", "values*.yaml", True),
    ("repo/chart/values.yaml", "repo", "*.yaml", True),
    ("repo/chart/values.yaml", "repo", "chart/*.yaml", True),
    ("repo/chart/sub/values.yaml", "repo", "chart/*.yaml", False),  # * stays within a directory
    ("repo/chart/sub/values.yaml", "repo", "chart/**/*.yaml", True),
    ("repo/chart/values.yaml", "repo", "./chart/", True),
    ("repo/vm.yaml", "repo", "chart", False),
    ("vm.yaml", "vm.yaml", "vm.yaml", True),  # a file named by -f
    ("-", "-", "*", False),  # standard input is never excluded
])
def test_exclude_patterns(path: str, root: str, pattern: str, expected: bool) -> None:
    assert excluded(Source(path, path, root), (pattern,)) is expected


@pytest.mark.parametrize(("problems", "changed", "status"), [
    ((), False, EXIT_OK),
    ((), True, EXIT_FINDINGS),
    ((KubeVirtError("refused"),), False, EXIT_FINDINGS),
    ((KubeVirtError("refused"), InputError("syntax")), False, EXIT_INPUT),
    ((InputError("syntax"),), True, EXIT_INPUT),
])
def test_exit_status_is_the_worst_of_the_problems(problems: tuple[InputError, ...], changed: bool,
                                                   status: int) -> None:
    assert exit_status(RunResult(problems, changed=changed)) == status


def test_exclude_leaves_catalogs_alone_and_limits_bound_them_too() -> None:
    reader = Texts({"repo/vm.yaml": VM, "catalog/small.yaml": SMALL})
    loaded = gather(Request(("repo",), catalogs=("catalog",), exclude=("*.yaml",), builtin=False,
                            accept_removed=True), reader)
    assert loaded.files == ("catalog/small.yaml",) and not loaded.documents and loaded.catalog.entries
    tight = gather(Request(catalogs=("catalog",), limits=Limits(max_bytes=10), builtin=False), reader)
    assert tight.problems[0].render().startswith("catalog/small.yaml:1:1: error: ")
