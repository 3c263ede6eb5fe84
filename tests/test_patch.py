"""Tests of kubectl_instancetype.patch: exact patches, the conformance corpus, properties, kustomize."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from conftest import SHARED, TESTDATA

from kubectl_instancetype.patch import escape, make_patch
from kubectl_instancetype.yamlio.load import load_stream

CASES = sorted(p.parent for p in (SHARED / "conformance" / "cases").glob("*/expected.json"))
GOLDENS = sorted(p for p in (TESTDATA / "patch").iterdir() if p.is_dir())


def canonical(value: Any) -> str:
    """JSON text that tells ``true``, ``1`` and ``1.0`` apart (``==`` does not)."""
    return json.dumps(value, sort_keys=True)


def applied(old: Any, new: Any) -> Any:
    """``old`` patched with ``make_patch(old, new)`` by the jsonpatch library."""
    return jsonpatch.apply_patch(old, make_patch(old, new))


def corpus_vm(case: Path) -> Any:
    """The VirtualMachine of a conformance case: the last document of its input."""
    path = case / "input.yaml"
    return load_stream(path.read_text(), str(path))[-1].data


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
    vm, expected = corpus_vm(case), json.loads((case / "expected.json").read_text())
    assert canonical(applied(vm, expected)) == canonical(expected)


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_golden_patch(golden: Path, update_goldens: bool) -> None:
    vm = load_stream((golden / "vm.yaml").read_text(), "vm.yaml")[0].data
    text = json.dumps(make_patch(vm, json.loads((golden / "expected.json").read_text())), indent=2) + "\n"
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
