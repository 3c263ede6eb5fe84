"""Positions of nodes: found from each document's own text, the same as a walk over the whole stream."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import TESTDATA
from hypothesis import given
from hypothesis import strategies as st

from kubectl_instancetype.yamlio import load_stream
from kubectl_instancetype.yamlio.load import Document, events
from kubectl_instancetype.yamlio.positions import Positions

STREAM = """\
# leading comment
apiVersion: v1
kind: List
items:
- kind: VirtualMachine
  metadata: {name: a}
- kind: VirtualMachine
  metadata:
    name: b
---
   # indented first node after a marker
   %s: x
---
%%YAML 1.1
---
spec:
  domain:
    devices:
      disks: [{name: root}, {name: data, disk: {bus: virtio}}]
...
--- !!map
a: 1
"""

CASES = [
    (0, ("items",), (4, 1)),
    (0, ("items", 1, "metadata", "name"), (9, 5)),
    (0, ("items", 1, "metadata", "missing"), (9, 5)),
    (0, ("items", 7), (5, 1)),
    (0, ("kind", "deeper"), (3, 7)),
    (1, ("é",), (12, 4)),
    (2, ("spec", "domain", "devices", "disks", 1, "disk", "bus"), (19, 49)),
    (3, ("a",), (22, 1)),
    (3, (), (21, 5)),
]


@pytest.mark.parametrize(("index", "path", "expected"), CASES)
def test_locate_in_a_stream(index: int, path: tuple[str | int, ...], expected: tuple[int, int]) -> None:
    docs = load_stream(STREAM % "é", "s.yaml")
    assert (docs[index].locate(path).line, docs[index].locate(path).col) == expected


def test_nested_documents_locate_under_their_prefix() -> None:
    (lst, *_) = load_stream(STREAM % "é", "s.yaml")
    item = lst.nested(lst.data["items"][1], "items", 1)
    assert item.location.line == 7 and item.locate(("metadata", "name")).line == 9


def test_a_document_without_recorded_text_keeps_its_own_position() -> None:
    doc = Document({"a": 1}, "x", 0, 3, 4)
    assert (doc.locate(("a",)).line, doc.locate(("a",)).col) == (3, 4)


def test_each_document_is_indexed_once() -> None:
    read: list[int] = []

    def counting(text: str) -> Any:
        read.append(len(text))
        return events(text)

    docs = load_stream("\n".join(f"---\nitems: [{i}, {i}]" for i in range(50)), "x")
    positions = Positions(docs[0].text, counting)
    for doc in docs:
        for _ in range(3):
            positions.locate(doc.index, doc.span, ("items", 1))
    assert len(read) == 50 and sum(read) < len(docs[0].text) + 50 * 2


def every_path(data: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += every_path(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += every_path(value, (*prefix, i))
    return out


def assert_same_as_whole_stream(text: str, source: str) -> None:
    docs = load_stream(text, source)
    whole = Positions(text, events)
    for doc in docs:
        for path in every_path(doc.data)[:400]:
            assert whole.locate(doc.index, None, path) == doc.positions.locate(doc.index, doc.span, path), (
                source, doc.index, path)


CORPUS = sorted(p for d in ("roundtrip", "gitops", "cli") if (TESTDATA / d).is_dir()
                for p in (TESTDATA / d).rglob("*.yaml"))


@pytest.mark.parametrize("path", CORPUS, ids=[str(p.relative_to(TESTDATA)) for p in CORPUS])
def test_corpus_positions_match_a_walk_over_the_whole_file(path: Path) -> None:
    text = path.read_text()
    try:
        load_stream(text, str(path))
    except Exception:
        pytest.skip("not loadable")
    assert_same_as_whole_stream(text, str(path))


LINE = st.sampled_from(["a: 1", "b:", "  - x", "  - {c: d}", "---", "...", "# note", "", "  e: [1, 2]", "f: |",
                        "    text", "%YAML 1.1", "--- g", "k: 'q'", "- 1", "  h: i"])


@given(st.lists(LINE, max_size=14))
def test_random_streams_locate_as_the_whole_stream_does(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    try:
        load_stream(text, "r")
    except Exception:
        return
    assert_same_as_whole_stream(text, "r")
