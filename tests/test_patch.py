"""Tests of kubectl_instancetype.patch: exact patches, the conformance corpus, properties, kustomize."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from conftest import CONFORMANCE, TESTDATA
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_instancetype.patch import escape, make_patch
from kubectl_instancetype.yamlio.load import load_stream

CASES = sorted(p.parent for p in (CONFORMANCE / "cases").glob("*/expected.json"))
GOLDENS = sorted(p for p in (TESTDATA / "patch").iterdir() if p.is_dir())


def canonical(value: Any) -> str:
    """JSON text that tells ``true``, ``1`` and ``1.0`` apart (``==`` does not)."""
    return json.dumps(value, sort_keys=True)


def vm_and_expansion(case: Path) -> tuple[Any, Any]:
    """A case's VirtualMachine (the last document of ``input.yaml``, or ``vm.yaml``) and its expansion."""
    path = case / "input.yaml" if (case / "input.yaml").exists() else case / "vm.yaml"
    vm = load_stream(path.read_text(), str(path))[-1].data
    return vm, json.loads((case / "expected.json").read_text())


def a(name: str, **fields: Any) -> dict[str, Any]:
    """A name-keyed list item."""
    return {"name": name, **fields}


IMAGE = "quay.io/containerdisks/fedora:40"

EXAMPLES: list[tuple[str, Any, Any, list[dict[str, Any]]]] = [
    ("equal", {"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}, []),
    ("replace-scalar", {"a": 1}, {"a": 2}, [{"op": "replace", "path": "/a", "value": 2}]),
    ("int-is-not-bool", {"a": 1}, {"a": True}, [{"op": "replace", "path": "/a", "value": True}]),
    ("int-is-not-float", [1], [1.0], [{"op": "replace", "path": "/0", "value": 1.0}]),
    ("negative-zero", [0.0], [-0.0], [{"op": "replace", "path": "/0", "value": -0.0}]),
    ("root-type", {}, [], [{"op": "replace", "path": "", "value": []}]),
    (
        "key-order",
        {"b": 1, "a": 2, "x": 3},
        {"z": 1, "x": 4, "c": 2, "b": 1},
        [
            {"op": "remove", "path": "/a"},
            {"op": "replace", "path": "/x", "value": 4},
            {"op": "add", "path": "/c", "value": 2},
            {"op": "add", "path": "/z", "value": 1},
        ],
    ),
    (
        "escape",
        {"a/b": {"c~d": 1}},
        {"a/b": {"c~d": 2}},
        [{"op": "replace", "path": "/a~1b/c~0d", "value": 2}],
    ),
    (
        "keyed-append",
        {"l": [a("x")]},
        {"l": [a("x"), a("y")]},
        [{"op": "add", "path": "/l/-", "value": a("y")}],
    ),
    (
        "keyed-insert",
        [a("x"), a("z")],
        [a("x"), a("y"), a("z")],
        [{"op": "add", "path": "/1", "value": a("y")}],
    ),
    (
        "keyed-remove-from-end",
        [a("x"), a("y"), a("z")],
        [a("z")],
        [{"op": "remove", "path": "/1"}, {"op": "remove", "path": "/0"}],
    ),
    (
        "keyed-rotate",
        [a("x"), a("y"), a("z")],
        [a("z"), a("x"), a("y")],
        [{"op": "remove", "path": "/2"}, {"op": "add", "path": "/0", "value": a("z")}],
    ),
    (
        "keyed-swap-and-edit",
        [a("x", v=1), a("y")],
        [a("y"), a("x", v=2)],
        [
            {"op": "remove", "path": "/1"},
            {"op": "add", "path": "/0", "value": a("y")},
            {"op": "replace", "path": "/1/v", "value": 2},
        ],
    ),
    (
        "keyed-edit-in-place",
        {"disks": [a("os", disk={}), a("data")]},
        {"disks": [a("os", disk={"bus": "virtio"}), a("data")]},
        [{"op": "add", "path": "/disks/0/disk/bus", "value": "virtio"}],
    ),
    ("keyed-from-empty", {"l": []}, {"l": [a("x")]}, [{"op": "add", "path": "/l/-", "value": a("x")}]),
    (
        "duplicate-names-by-index",
        [a("x", image=IMAGE), a("x")],
        [a("x", image=IMAGE, v=1)],
        [{"op": "add", "path": "/0/v", "value": 1}, {"op": "remove", "path": "/1"}],
    ),
    (
        "duplicate-names-whole",
        [a("x"), a("x")],
        [a("x", v=1)],
        [{"op": "replace", "path": "", "value": [a("x", v=1)]}],
    ),
    (
        "non-dict-item-by-index",
        [a("x", image=IMAGE), "x"],
        [a("x", image=IMAGE, v=1), "x"],
        [{"op": "add", "path": "/0/v", "value": 1}],
    ),
    ("scalars-append", {"l": [1, 2]}, {"l": [1, 2, 3]}, [{"op": "add", "path": "/l/-", "value": 3}]),
    (
        "scalars-shrink",
        [IMAGE, 2, 3],
        [IMAGE, 9],
        [{"op": "replace", "path": "/1", "value": 9}, {"op": "remove", "path": "/2"}],
    ),
    (
        "scalars-whole-replace",
        {"l": [1, 2, 3, 4, 5]},
        {"l": [5, 4]},
        [{"op": "replace", "path": "/l", "value": [5, 4]}],
    ),
]


@pytest.mark.parametrize(("old", "new", "ops"), [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_exact_patches(old: Any, new: Any, ops: list[dict[str, Any]]) -> None:
    assert make_patch(old, new) == ops
    assert canonical(jsonpatch.apply_patch(old, ops)) == canonical(new)


@pytest.mark.parametrize(
    ("token", "escaped"), [("a", "a"), ("a/b", "a~1b"), ("~1", "~01"), ("/~", "~1~0"), ("", "")]
)
def test_escape(token: str, escaped: str) -> None:
    assert escape(token) == escaped


def test_inputs_are_not_mutated_nor_aliased() -> None:
    old, new = {"a": [a("x")]}, {"a": [a("x"), a("y", v={"w": 1})], "b": {"c": [1]}}
    before = canonical((old, new))
    ops = make_patch(old, new)
    ops[0]["value"]["v"]["w"] = 2
    ops[1]["value"]["c"].append(2)
    assert canonical((old, new)) == before


def test_documents_as_deep_as_the_loader_allows() -> None:
    old: Any = 1
    new: Any = 2
    for _ in range(256):  # 512 nested collections: the loader's max_depth
        old, new = {"k": [old]}, {"k": [new]}
    assert make_patch(old, new) == [{"op": "replace", "path": "/k/0" * 256, "value": 2}]
    assert make_patch({}, {"a": new})[0]["value"] == new


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_corpus_vm_to_expansion(case: Path) -> None:
    vm, expected = vm_and_expansion(case)
    assert canonical(jsonpatch.apply_patch(vm, make_patch(vm, expected))) == canonical(expected)


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_golden_patch(golden: Path, update_goldens: bool) -> None:
    text = json.dumps(make_patch(*vm_and_expansion(golden)), indent=2) + "\n"
    if update_goldens:
        (golden / "patch.json").write_text(text)
    assert text == (golden / "patch.json").read_text()


DETERMINISM = """
import json, sys
from pathlib import Path
from kubectl_instancetype.patch import make_patch
from kubectl_instancetype.yamlio.load import load_stream
for case in sys.argv[1:]:
    vm = load_stream(Path(case, "input.yaml").read_text(), case)[-1].data
    print(json.dumps(make_patch(vm, json.loads(Path(case, "expected.json").read_text()))))
print(json.dumps(make_patch({}, {str(i): {str(-i): i} for i in range(200)})))
"""


@pytest.mark.slow
def test_same_bytes_whatever_the_hash_seed() -> None:
    def run(seed: str) -> bytes:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        args = [sys.executable, "-c", DETERMINISM, *map(str, CASES)]
        return subprocess.run(args, env=env, capture_output=True, check=True).stdout

    first = run("1")
    assert first.count(b"\n") == len(CASES) + 1
    assert run("4242") == first


SCALARS = st.sampled_from(
    [None, True, False, 0, 1, -1, 1.0, 0.0, -0.0, 2.5, float("nan"), "", "a", "1", "~/"]
)
KEYS = st.text(alphabet="ab~/-0", max_size=3)
NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f"])


def named(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Items of KubeVirt-like lists: a ``name`` and maybe another field."""
    return st.fixed_dictionaries({"name": NAMES}, optional={"v": children})


def containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(KEYS, children, max_size=4),
        st.lists(named(children), max_size=5, unique_by=lambda item: item["name"]),
        st.lists(st.one_of(named(children), children), max_size=5),  # duplicates, non-dict items
    )


JSON = st.recursive(SCALARS, containers, max_leaves=12)


def check(old: Any, new: Any) -> list[dict[str, Any]]:
    """Assert that the patch is plain RFC 6902 without move/copy/test and rebuilds ``new`` exactly."""
    before = canonical(old)
    ops = make_patch(old, new)
    for op in ops:
        assert op["op"] in {"add", "remove", "replace"}
        assert set(op) == ({"op", "path"} if op["op"] == "remove" else {"op", "path", "value"})
    assert canonical(jsonpatch.apply_patch(old, ops)) == canonical(new)
    assert canonical(old) == before
    return ops


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_random_documents(old: Any, new: Any) -> None:
    check(old, new)
    assert make_patch(new, new) == []


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_edits_of_name_keyed_lists(data: st.DataObject) -> None:
    old = data.draw(st.lists(named(SCALARS), max_size=6, unique_by=lambda item: item["name"]))
    new = data.draw(st.permutations(old))
    new = [item for item in new if data.draw(st.booleans()) or len(new) < 3]
    new = [dict(item, v=data.draw(SCALARS)) if data.draw(st.booleans()) else item for item in new]
    extra = [a(name) for name in "uvw" if data.draw(st.booleans())]
    for item in extra:
        new.insert(data.draw(st.integers(0, len(new))), item)
    ops = check({"disks": old}, {"disks": new})
    if not (old and new):
        return  # an empty list is not name-keyed: one add or one replace of the whole list
    top = [op for op in ops if op["path"].count("/") == 2]  # whole items added or removed
    kept = longest_kept(old, new)
    assert sum(op["op"] == "remove" for op in top) == len(old) - kept
    assert sum(op["op"] == "add" for op in top) == len(new) - kept


def longest_kept(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> int:
    """Most items that keep their relative order (quadratic LCS by name: the test's own oracle)."""
    names = [item["name"] for item in new]
    best = [[0] * (len(names) + 1) for _ in range(len(old) + 1)]
    for i, item in enumerate(old):
        for j, name in enumerate(names):
            same = best[i][j] + 1 if item["name"] == name else 0
            best[i + 1][j + 1] = max(best[i][j + 1], best[i + 1][j], same)
    return best[-1][-1]


def kustomize_cases() -> list[Path]:
    """The golden and the first expanded case of every conformance family."""
    firsts: dict[str, Path] = {}
    for case in CASES:
        firsts.setdefault(case.name.rsplit("-", 1)[0], case)
    return [*GOLDENS, *firsts.values()]


KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- vm.json
patches:
- path: patch.json
  target:
    group: kubevirt.io
    version: v1
    kind: VirtualMachine
    name: {name}
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not on PATH")
@pytest.mark.parametrize("case", kustomize_cases(), ids=lambda case: case.name)
def test_patch_as_a_kustomize_json6902_patch(case: Path, tmp_path: Path) -> None:
    vm, expected = vm_and_expansion(case)
    patch = make_patch(vm, expected)
    if not patch:  # kustomize refuses an empty patch file ("qualifies as both an SM and JSON patch")
        assert canonical(vm) == canonical(expected)
        return
    (tmp_path / "vm.json").write_text(json.dumps(vm))
    (tmp_path / "patch.json").write_text(json.dumps(patch, indent=2))
    (tmp_path / "kustomization.yaml").write_text(KUSTOMIZATION.format(name=vm["metadata"]["name"]))
    built = subprocess.run(
        ["kubectl", "kustomize", str(tmp_path)], capture_output=True, text=True, check=True
    )
    [document] = load_stream(built.stdout, "kubectl kustomize")
    assert canonical(document.data) == canonical(expected)
