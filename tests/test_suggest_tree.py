"""Paths, removals and differences of :mod:`kubectl_instancetype.suggest.tree`."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.suggest.tree import MISSING, Difference, differences, get, leaves, pointer, shown, without


def test_get_follows_keys_and_indexes() -> None:
    tree = {"a": [{"b": 1}]}
    assert get(tree, ("a", 0, "b")) == 1
    assert get(tree, ("a", 1, "b")) is MISSING
    assert get(tree, ("a", "x")) is MISSING
    assert get(tree, ()) is tree


def test_without_copies_and_ignores_paths_that_lead_nowhere() -> None:
    tree = {"a": {"b": 1, "c": 2}}
    assert without(tree, ("a", "b"), ("x", "y")) == {"a": {"c": 2}}
    assert tree == {"a": {"b": 1, "c": 2}}


def test_pointer_escapes_as_rfc_6901_says() -> None:
    assert pointer(("spec", "annotations", "vm.kubevirt.io/os", 0, "a~b")) == (
        "/spec/annotations/vm.kubevirt.io~1os/0/a~0b")


@pytest.mark.parametrize(("value", "text"), [
    (MISSING, "(absent)"), ("4Gi", "4Gi"), ("", '""'), (" x", '" x"'), (True, "true"),
    ({"b": 1, "a": {}}, '{"a":{},"b":1}'),
])
def test_values_are_shown_on_one_line(value: Any, text: str) -> None:
    assert shown(value) == text


def test_differences_walk_both_trees() -> None:
    before = {"a": 1, "b": {"c": [1, 2]}, "d": [1]}
    after = {"a": 1, "b": {"c": [1, 3]}, "d": [1, 2], "e": True}
    assert list(differences(before, after)) == [
        Difference(("b", "c", 1), 2, 3),
        Difference(("d",), [1], [1, 2]),
        Difference(("e",), MISSING, True),
    ]


def test_a_boolean_is_not_a_number() -> None:
    assert [d.path for d in differences({"a": 1}, {"a": True})] == [("a",)]


def test_difference_sentence() -> None:
    assert Difference(("a", "b"), "3Gi", MISSING).sentence() == "/a/b: 3Gi → (absent)"


def test_leaves_count_scalars_and_empty_collections() -> None:
    assert leaves({"a": {"b": 1, "c": {}}, "d": [1, 2]}) == 4
