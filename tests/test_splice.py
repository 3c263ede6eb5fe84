"""The splice path of --write against the round-trip editor: where splicing answers, it answers the same.

Pairs come from the conformance corpus (a VM as written, and its expansion: what --write makes of it),
then are mutated: comments put between lines and after values, keys removed and added, scalars changed,
list items appended. Wherever :func:`splice` does not decline, its text must be the editor's: byte for
byte on the corpus, and on mutated files line for line but for whole-line comments, of which the splice
keeps every one the editor keeps (the editor loses the comments inside a mapping it removes whole; the
splice moves them where the key was, as it does for the comments on the removed key's own lines).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kubectl_instancetype.errors import InputError
from kubectl_instancetype.yamlio import load_stream, roundtrip
from kubectl_instancetype.yamlio.kept import lost
from kubectl_instancetype.yamlio.roundtrip import RewriteError
from kubectl_instancetype.yamlio.splice import splice
from kubectl_instancetype.yamlio.split import split
from kubectl_instancetype.yamlio.style import file_quote

CASES = sorted((CONFORMANCE / "cases").glob("*/expected.json")) if (CONFORMANCE / "cases").is_dir() else []


@cache
def pair(expected: Path) -> tuple[str, int, Any] | None:
    """(input text, index of the VM document, its expansion) of one corpus case, if it has one VM."""
    text = (expected.parent / "input.yaml").read_text()
    new = json.loads(expected.read_text())
    try:
        docs = load_stream(text, "input")
    except InputError:
        return None
    name = (new.get("metadata") or {}).get("name") if isinstance(new, dict) else None
    found = [i for i, d in enumerate(docs) if isinstance(d.data, dict) and d.data.get("kind") == new.get("kind")
             and (d.data.get("metadata") or {}).get("name") == name]
    return (text, found[0], new) if len(found) == 1 else None


def both_paths(text: str, index: int, new: Any) -> tuple[str | None, str]:
    """(the spliced body or None, the round-trip editor's body) of document ``index`` rewritten to ``new``."""
    body = split(text, "input").bodies[index]
    piece = text[body.start : body.end]
    spliced = splice(piece, body.data, new, file_quote=lambda: file_quote(text))  # as roundtrip calls it
    original = roundtrip.splice
    roundtrip.splice = lambda *_: None  # type: ignore[assignment]
    try:
        whole = roundtrip.rewrite(text, {index: new}, "input")
    finally:
        roundtrip.splice = original
    return spliced, whole[body.start : len(whole) - (len(text) - body.end)]


SAMPLE = CASES[::4]


@pytest.mark.parametrize("expected", SAMPLE, ids=[p.parent.name for p in SAMPLE])
def test_corpus_expansions_splice_as_the_editor_writes_them(expected: Path) -> None:
    found = pair(expected)
    if found is None:
        pytest.skip("no single VM document")
    spliced, edited = both_paths(*found)
    if spliced is not None:
        assert spliced == edited


def test_most_corpus_expansions_are_spliced() -> None:
    """The fast path is the common path: a guard against it silently declining everything."""
    found = [p for p in (pair(e) for e in SAMPLE) if p is not None]
    spliced = [p for p in found if splice(*_body(*p)) is not None]
    assert len(spliced) >= 0.6 * len(found), (len(spliced), len(found))


def _body(text: str, index: int, new: Any) -> tuple[str, Any, Any]:
    body = split(text, "input").bodies[index]
    return text[body.start : body.end], body.data, new


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += paths(value, (*prefix, i))
    return out


VALUES = st.one_of(st.integers(-5, 5), st.sampled_from(["virtio", "4Gi", "yes", "a b", "x: y", "", "#no", "ok"]),
                   st.booleans(), st.just({}), st.just([]), st.just({"bus": "sata", "n": 2}),
                   st.just([{"name": "extra", "disk": {}}]))


def mutate(data: Any, ops: list[tuple[str, float, Any]]) -> Any:
    data = json.loads(json.dumps(data))
    for op, where, shared in ops:
        value = json.loads(json.dumps(shared))
        candidates = paths(data)[1:]
        if not candidates:
            break
        path = candidates[int(where * len(candidates))]
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if op == "remove" and isinstance(parent, dict) and len(parent) > 1:
            del parent[last]
        elif op == "set":
            parent[last] = value
        elif op == "add" and isinstance(parent[last], dict):
            parent[last][f"added{int(where * 100)}"] = value
        elif op == "append" and isinstance(parent[last], list):
            parent[last].append(value)
    return data


def with_comments(text: str, spots: list[tuple[float, bool]]) -> str:
    lines = text.split("\n")
    for where, trailing in spots:
        i = int(where * (len(lines) - 1))
        if trailing and lines[i].strip() and not lines[i].rstrip().endswith(("|", ">", "|-", ">-")):
            lines[i] += "  # trailing note"
        elif not trailing:
            indent = len(lines[i]) - len(lines[i].lstrip(" "))
            lines.insert(i, " " * indent + "# a note")
    return "\n".join(lines)


OPS = st.lists(st.tuples(st.sampled_from(["remove", "set", "add", "append"]), st.floats(0, 0.999), VALUES),
               max_size=4)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], deadline=None)
@given(st.sampled_from(CASES or [Path("none")]), OPS, st.lists(st.tuples(st.floats(0, 1), st.booleans()),
                                                               max_size=4))
def test_mutated_corpus_files_splice_as_the_editor_writes_them(expected: Path, ops: list[Any],
                                                               spots: list[tuple[float, bool]]) -> None:
    assume(CASES and pair(expected) is not None)
    text, index, new = pair(expected)  # type: ignore[misc]
    text = with_comments(text, spots)
    try:
        docs = load_stream(text, "input")
    except InputError:
        assume(False)
    assume(len(docs) > index and docs[index].data.get("kind") == new.get("kind"))
    new = mutate(new, ops)
    try:
        spliced, edited = both_paths(text, index, new)
    except RewriteError:  # the editor refuses rather than drop a comment: so must the whole rewrite, or keep it
        try:
            result = roundtrip.rewrite(text, {index: new}, "input")
        except RewriteError:
            return
        assert lost(text, result) is None, result
        return
    if spliced is not None and spliced != edited:
        assert uncommented(spliced) == uncommented(edited)
        kept = comments(spliced)
        assert all(kept.count(c) >= n for c, n in Counter(comments(edited)).items()), (spliced, edited)
        written = [line[line.index(" #") :].strip() for line in text.splitlines() if " #" in line] + comments(text)
        assert all(written.count(c) >= n for c, n in Counter(kept).items())  # nothing made up


def comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.lstrip().startswith("#")]


def uncommented(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.lstrip().startswith("#")]


@pytest.mark.parametrize(("text", "quoted"), [
    ("a: 'x'\n---\nb:\n  c: 1\n", "'yes'"),  # the document quotes nothing: the file's quote
    ("a: \"x\"\n---\nb:\n  c: 1\n", '"yes"'),
    ("a: 1\n---\nb:\n  c: 1\n", '"yes"'),  # nothing quoted anywhere: kubectl's double quotes
    ("a: 1\n---\nb:\n  c: 'p'\n  e: \"q\"\n", "'yes'"),  # a tie: the first quote written
    ("a: 1\n---\nb:\n  c: \"p\"\n  e: 'q'\n", '"yes"'),
])
def test_new_strings_take_the_quote_the_editor_takes(text: str, quoted: str) -> None:
    """Whether spliced or edited, a new string that must be quoted is quoted as the editor decides from the
    document, or the whole file when the document quotes nothing (a hypothesis-found difference: the splice
    wrote ``"n"`` where the editor wrote ``'n'``)."""
    body = split(text, "input").bodies[1]
    new = {**body.data, "b": {**body.data["b"], "d": "yes"}}
    out = roundtrip.rewrite(text, {1: new}, "input")
    assert out == text + f"  d: {quoted}\n"
    spliced, edited = both_paths(text, 1, new)
    assert spliced is None or spliced == edited
