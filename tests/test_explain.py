"""``render --explain`` over the whole public corpus, in both modes, and its golden explained renders.

For every case KubeVirt accepts: each value of the rendered object that differs from the input has an
origin (its own or an enclosing value's), no value the input already had carries one, every origin names an
instancetype or preference of the case (by kind, name and a field that object has), a named default or a
setting of the case's cluster configuration, explaining changes nothing in the output, and removing the
comments from the explained YAML gives exactly the plain render (and reading it gives the same data). The
goldens in testdata/explain (``args`` run in the case folder, expected ``stdout``) are rewritten by
--update-goldens.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CONFORMANCE, TESTDATA

from kubectl_instancetype.api.origin import CLUSTER, DEFAULT, INSTANCETYPE, PREFERENCE, RENDER, Origin
from kubectl_instancetype.api.origin import Path as OriginPath
from kubectl_instancetype.cli import main_group
from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.cli.options import builtin_catalog
from kubectl_instancetype.cli.render import vm_renderer
from kubectl_instancetype.config import default_configuration, effective_configuration, merge_json
from kubectl_instancetype.explain import explained_json, explained_yaml
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Item, Options, render
from kubectl_instancetype.yamlio import dump_yaml, load_stream
from kubectl_instancetype.yamlio.emit import COMMENT

CASES = CONFORMANCE / "cases"
ALL_CASES = sorted(p.name for p in CASES.iterdir()) if CASES.exists() else []
# The cases KubeVirt accepts, per mode: a refused VM has no expansion to explain.
ACCEPTED = {vmi: [n for n in ALL_CASES if not (CASES / n / ("error-vmi.txt" if vmi else "error.txt")).exists()]
            for vmi in (False, True)}
EXPLAIN = TESTDATA / "explain"
GOLDENS = sorted(p.name for p in EXPLAIN.iterdir()) if EXPLAIN.exists() else []
MISSING = object()


def _render(case: Path, vmi: bool, explain: bool) -> tuple[Item | None, list[Any], dict[str, Any]]:
    """The VM's item, the case's documents and the cluster configuration KubeVirt works with."""
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False, kubevirt_version="main"), FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config, explain=explain), vm_renderer(vmi))
    vm = next((i for i in result.items if i.is_vm), None)
    configuration = merge_json(default_configuration(), effective_configuration(loaded.config))
    return vm, [d.data for d in loaded.documents], configuration


def uncovered(before: Any, after: Any, origins: Mapping[OriginPath, Origin], path: OriginPath = ()) -> Iterator[str]:
    """The paths of values of ``after`` that differ from ``before`` and that no origin explains."""
    if path in origins:
        return
    if type(after) is dict and after:
        for key, value in after.items():
            inner = before.get(key, MISSING) if type(before) is dict else MISSING
            yield from uncovered(inner, value, origins, (*path, key))
    elif type(after) is list and after:
        for index, value in enumerate(after):
            inner = before[index] if type(before) is list and index < len(before) else MISSING
            yield from uncovered(inner, value, origins, (*path, index))
    elif before is MISSING or type(before) is not type(after) or before != after:
        yield "/".join(map(str, path))


def _objects(documents: list[Any]) -> dict[tuple[str, str], list[Any]]:
    """(kind, name) -> the objects of a case by that kind and name, stored ones (ControllerRevisions) included."""
    out: dict[tuple[str, str], list[Any]] = {}
    for doc in documents:
        if not isinstance(doc, dict):
            continue
        if doc.get("kind") == "ControllerRevision" and isinstance(doc.get("data"), dict):
            data = doc["data"]
            label = ((doc.get("metadata") or {}).get("labels") or {}).get("instancetype.kubevirt.io/object-name")
            for name in {str((data.get("metadata") or {}).get("name")), str(label)}:
                out.setdefault((str(data.get("kind")), name), []).append(data)
        else:
            out.setdefault((str(doc.get("kind")), str((doc.get("metadata") or {}).get("name"))), []).append(doc)
    return out


def _at(obj: Any, path: OriginPath) -> Any:
    for key in path:
        in_map = type(obj) is dict and isinstance(key, str) and key in obj
        in_list = type(obj) is list and isinstance(key, int) and key < len(obj)
        if not (in_map or in_list):
            return MISSING
        obj = obj[key]
    return obj


def _has_field(obj: Any, field: str) -> bool:
    for key in field.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return False
        obj = obj[key]
    return True


def _vmi_input(vm: Any) -> Any:
    """What of the VM a VMI copies, where the VMI has it: the template's metadata and spec."""
    template = (vm.get("spec") or {}).get("template") or {}
    meta = dict(template.get("metadata") or {})
    meta.update({k: v for k, v in (vm.get("metadata") or {}).items() if k in ("name", "namespace")})
    return {"apiVersion": vm.get("apiVersion"), "metadata": meta, "spec": template.get("spec") or {}}


def strip_comments(text: str, notes: set[str]) -> str:
    """``text`` without the trailing comments whose words are (joined) ``notes``."""
    lines = []
    for line in text.split("\n"):
        cut = line.rfind(COMMENT)
        if cut != -1 and all(part in notes for part in line[cut + len(COMMENT):].split("; ")):
            line = line[:cut]
        lines.append(line)
    return "\n".join(lines)


def _check(case_name: str, vmi: bool) -> None:
    case = CASES / case_name
    plain, _, _ = _render(case, vmi, explain=False)
    item, documents, configuration = _render(case, vmi, explain=True)
    assert plain is not None and item is not None and item.rendered is not None and item.origins is not None
    assert item.rendered == plain.rendered  # explaining changes nothing
    vm = item.document.data
    before = _vmi_input(vm) if vmi else vm
    missing = list(uncovered(before, item.rendered, item.origins))
    assert not missing, f"values without an origin: {missing}"
    objects = _objects(documents)
    for path, origin in item.origins.items():
        old, new = _at(before, path), _at(item.rendered, path)
        assert old is MISSING or type(old) is not type(new) or old != new, f"{path}: the input's own value"
        if origin.source in (INSTANCETYPE, PREFERENCE):
            candidates = objects.get((origin.kind, origin.name))
            assert candidates, f"{path}: {origin.text()} is not in the case"
            assert any(_has_field(obj, origin.field) for obj in candidates), \
                f"{path}: {origin.kind} {origin.name} has no {origin.field}"
        else:
            assert origin.source in (DEFAULT, CLUSTER, RENDER) and origin.name, (path, origin)
            assert (origin.source == CLUSTER) == bool(origin.field), (path, origin)
            assert origin.source != CLUSTER or _has_field(configuration, origin.field), f"{path}: no {origin.field}"
    notes = {origin.text() for origin in item.origins.values()}
    explained = explained_yaml(item)
    assert strip_comments(explained, notes) == dump_yaml(plain.rendered)
    assert [d.data for d in load_stream(explained, "explained")] == [plain.rendered]  # the comments are comments
    pointers = explained_json(item)["origins"]
    assert len(pointers) == len(item.origins)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ACCEPTED[False])
def test_vm_mode_origins(case_name: str) -> None:
    _check(case_name, vmi=False)


@pytest.mark.skipif(not ALL_CASES, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case_name", ACCEPTED[True])
def test_vmi_mode_origins(case_name: str) -> None:
    _check(case_name, vmi=True)


def test_comments_sit_after_the_value_they_explain() -> None:
    from kubectl_instancetype.yamlio.emit import dump_yaml_commented

    obj = {"a": {"b": "x", "c": [{"k": 1}, 2], "d": "line one\nline two\n"}, "e": {}}
    comments = {("a", "b"): "B", ("a", "c", 0): "item", ("a", "c", 1): "two", ("a", "d"): "block", ("e",): "E",
                ("a",): "A"}
    assert dump_yaml_commented(obj, comments) == (
        "a:  # A\n"
        "  b: x  # B\n"
        "  c:\n"
        "  - k: 1  # item\n"
        "  - 2  # two\n"
        "  d: |  # block\n"
        "    line one\n"
        "    line two\n"
        "e: {}  # E\n"
    )
    long = {"f": " ".join(["word"] * 30)}
    text = dump_yaml_commented(long, {("f",): "F"})
    assert text.endswith("word  # F\n") and strip_comments(text, {"F"}) == dump_yaml(long)


def test_origin_words() -> None:
    from kubectl_instancetype.api.origin import Source, from_object, named

    it = Source("VirtualMachineClusterInstancetype", "u1.medium")
    assert from_object(it, "spec.memory.guest").text() == "instancetype u1.medium (spec.memory.guest)"
    pref = Source("VirtualMachinePreference", "rhel.9")
    said = from_object(pref, "spec.cpu.preferredCPUTopology", "preferSockets over 2 vCPUs of instancetype u1.large")
    assert said.text() == "preference rhel.9: preferSockets over 2 vCPUs of instancetype u1.large"
    assert said.as_json()["kind"] == "VirtualMachinePreference"
    assert named("default pod network").text() == "default pod network"
    assert named("cluster CPU request", "cpuRequest").source == CLUSTER


def _run(folder: Path, args: list[str]) -> tuple[str, int]:
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main_group, args, prog_name="kubectl instancetype")
    finally:
        os.chdir(cwd)
    return result.stdout + result.stderr, result.exit_code


@pytest.mark.parametrize("case", GOLDENS)
def test_explained_render(case: str, update_goldens: bool) -> None:
    folder = EXPLAIN / case
    output, status = _run(folder, shlex.split((folder / "args").read_text()))
    assert status == 0, output
    if update_goldens:
        (folder / "stdout").write_text(output)
    assert output == (folder / "stdout").read_text()
    if "json" in case:
        json.loads(output)



def test_explain_refuses_what_it_cannot_annotate(tmp_path: Path) -> None:
    for extra in (["-o", "patch"], ["--check"]):
        output, status = _run(tmp_path, ["render", "-f", str(EXPLAIN.parent.parent / "examples" / "vm.yaml"),
                                         "--explain", *extra])
        assert status == 2 and "--explain" in output


def test_several_documents_explained_as_json_are_a_list(tmp_path: Path) -> None:
    example = str(EXPLAIN.parent.parent / "examples" / "vm.yaml")
    output, status = _run(tmp_path, ["render", "-f", example, "-f", example, "--explain", "-o", "json"])
    listed = json.loads(output)
    assert status == 0 and listed["kind"] == "List" and len(listed["items"]) == 2
    first = listed["items"][0]
    guest = "/spec/template/spec/domain/memory/guest"
    assert first["origins"][guest]["text"] == "instancetype u1.medium (spec.memory.guest)"
    assert first["object"]["spec"]["template"]["spec"]["domain"]["memory"]["guest"] == "4Gi"


@pytest.mark.parametrize("vmi", [False, True])
def test_a_pool_is_explained_under_its_template(vmi: bool) -> None:
    pool = EXPLAIN / "pool-yaml" / "pool.yaml"
    loaded = gather(Request((str(pool),)), FILES, builtin=builtin_catalog(True))
    options = Options(config=loaded.config, explain=True)
    item = render(loaded.documents, loaded.catalog, options, vm_renderer(vmi)).items[0]
    plain = render(loaded.documents, loaded.catalog, Options(config=loaded.config), vm_renderer(vmi)).items[0]
    assert item.problem is None and item.origins and item.rendered == plain.rendered
    if not vmi:
        assert all(path[:2] == ("spec", "virtualMachineTemplate") or path == ("metadata", "namespace")
                   for path in item.origins)
        assert list(uncovered(loaded.documents[0].data, item.rendered, item.origins)) == []
    notes = {origin.text() for origin in item.origins.values()}
    assert strip_comments(explained_yaml(item), notes) == dump_yaml(plain.rendered)
