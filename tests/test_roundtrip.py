"""Round-trip rewriting: golden files for each style variant, plus the properties every rewrite must keep.

Each ``testdata/roundtrip/<case>/`` holds ``input.yaml``, ``new.json`` (document index → new data) and
``expected.yaml``; ``pytest --update-goldens`` writes the expected files again. Files are read and written
as bytes so that line ends and the final newline are compared too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, TESTDATA

from kubectl_instancetype.errors import InputError
from kubectl_instancetype.yamlio.load import load_stream
from kubectl_instancetype.yamlio.merge import keep_original
from kubectl_instancetype.yamlio.roundtrip import rewrite
from kubectl_instancetype.yamlio.split import split
from kubectl_instancetype.yamlio.style import Style, detect
from kubectl_instancetype.yamlio.values import same

CASES = sorted(p for p in (TESTDATA / "roundtrip").iterdir() if p.is_dir())
CORPUS = sorted(p for p in (CONFORMANCE / "cases").glob("*") if (p / "expected.json").exists())


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _new(case: Path) -> dict[int, Any]:
    return {int(k): v for k, v in json.loads(_read(case / "new.json")).items()}


def _assert_loads_as(text: str, original: str, new: dict[int, Any]) -> None:
    before = load_stream(original, "before")
    after = load_stream(text, "after")
    assert [d.index for d in after] == [d.index for d in before]
    for doc, old in zip(after, before, strict=True):
        assert same(doc.data, new.get(doc.index, old.data)), f"document {doc.index}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, update_goldens: bool) -> None:
    text = _read(case / "input.yaml")
    out = rewrite(text, _new(case), str(case / "input.yaml"))
    if update_goldens:
        (case / "expected.yaml").write_bytes(out.encode("utf-8"))
    assert out == _read(case / "expected.yaml")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_loads_back_as_new_data_and_is_idempotent(case: Path) -> None:
    text, new = _read(case / "input.yaml"), _new(case)
    out = rewrite(text, new, "x.yaml")
    _assert_loads_as(out, text, new)
    assert rewrite(out, new, "x.yaml") == out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_data_gives_the_same_bytes(case: Path) -> None:
    text = _read(case / "input.yaml")
    old = {doc.index: doc.data for doc in load_stream(text, "x.yaml")}
    assert rewrite(text, old, "x.yaml") == text
    assert rewrite(text, {}, "x.yaml") == text


@pytest.mark.parametrize("case", CORPUS[::7], ids=[c.name for c in CORPUS[::7]])
def test_corpus_vm_rewritten_to_its_expansion(case: Path) -> None:
    text = _read(case / "input.yaml")
    index = len(load_stream(text, "x")) - 1
    new = {index: json.loads(_read(case / "expected.json"))}
    out = rewrite(text, new, "input.yaml")
    _assert_loads_as(out, text, new)
    assert rewrite(out, new, "input.yaml") == out
    assert out.startswith(text[: split(text, "x").bodies[index].start])  # other documents untouched


@pytest.mark.parametrize(
    "value",
    ["1e9", "yes", "no", "on", "Off", "012", "0x1F", "0o17", "null", "~", "", "true", "1.5", ".inf",
     "-1", "1_000", "a: b", "- x", "#no", "*a", "2Gi", "quay.io/x:1"],
)
def test_new_strings_stay_strings(value: str) -> None:
    out = rewrite("a: 1\n", {0: {"a": value, "b": {"c": [value]}, value or "k": 1}}, "x.yaml")
    assert load_stream(out, "x")[0].data == {"a": value, "b": {"c": [value]}, value or "k": 1}


def test_removed_key_comments_move_to_the_next_key() -> None:
    text = "spec:\n  # size\n  instancetype:  # eol\n    name: u1  # inner\n  template: {}\n"
    out = rewrite(text, {0: {"spec": {"template": {}}}}, "x.yaml")
    assert out == "spec:\n  # size\n  # eol\n  # inner\n  template: {}\n"


def test_removed_last_key_comments_stay_after_the_previous_key() -> None:
    text = "spec:\n  template: {}\n  preference:  # eol\n    name: f  # inner\n# end\nkind: VM\n"
    out = rewrite(text, {0: {"spec": {"template": {}}, "kind": "VM"}}, "x.yaml")
    assert out == "spec:\n  template: {}\n  # eol\n  # inner\n# end\nkind: VM\n"


def test_appended_keys_go_before_comments_that_introduce_the_next_outer_key() -> None:
    text = "spec:\n  a: 1\n# about kind\nkind: VM\n"
    out = rewrite(text, {0: {"spec": {"a": 1, "b": 2}, "kind": "VM"}}, "x.yaml")
    assert out == "spec:\n  a: 1\n  b: 2\n# about kind\nkind: VM\n"


def test_name_keyed_lists_are_matched_by_name() -> None:
    text = "disks:\n- name: a  # first\n  bus: sata\n# about b\n- name: b\n  bus: sata\n"
    new = {"disks": [{"name": "b", "bus": "sata"}, {"name": "a", "bus": "virtio"}]}
    out = rewrite(text, {0: new}, "x.yaml")
    assert out == "disks:\n# about b\n- name: b\n  bus: sata\n- name: a  # first\n  bus: virtio\n"


def test_unknown_document_index_is_refused() -> None:
    with pytest.raises(InputError, match="changed while it was being rendered"):
        rewrite("a: 1\n", {3: {}}, "x.yaml")


def test_syntax_errors_are_input_errors() -> None:
    with pytest.raises(InputError):
        rewrite("a: [1\n", {0: {}}, "x.yaml")


@pytest.mark.parametrize(
    ("text", "style"),
    [
        ("a:\n  b:\n  - x: 1\n", Style(2, 2, 0)),
        ("a:\n  b:\n    - x: 1\n", Style(2, 4, 2)),
        ("a:\n    b:\n        - x: 1\n", Style(4, 6, 4)),
        ("a:\n    b:\n    -   x: 1\n", Style(4, 4, 0)),
        ("a: 'x'\nb: 'y'\nc: \"z\"\n", Style(quote="'")),
        ("a: 1\r\nb: 2\r\n", Style(newline="\r\n")),
        ("a: [1]\n", Style()),
    ],
)
def test_style_detection(text: str, style: Style) -> None:
    assert detect(text.replace("\r\n", "\n"), text) == style


def test_split_pieces_join_back_and_skip_empty_documents() -> None:
    text = "\ufeff# c\n%YAML 1.1\n---\na: 1\n...\n--- ~\n---\n  b: 2\n  c: 3\n--- |\n  lit"
    layout = split(text, "x")
    assert "".join(piece for _, piece in layout.pieces()) == text
    assert [text[b.start : b.end] for b in layout.bodies] == ["a: 1\n", "  b: 2\n  c: 3\n", "|\n  lit"]
    assert [b.data for b in layout.bodies] == [{"a": 1}, {"b": 2, "c": 3}, "lit"]


def test_keep_original_spells_untouched_lines_as_before() -> None:
    original = "a: ~\nb: { x: 1 }\nc: 1\n"
    normalised = "a:\nb: {x: 1}\nc: 1\n"
    edited = "a:\nb: {x: 1}\nc: 2\nd: 3\n"
    assert keep_original(original, normalised, edited) == "a: ~\nb: { x: 1 }\nc: 2\nd: 3\n"
