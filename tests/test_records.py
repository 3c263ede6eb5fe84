"""Records behave as the standard library's data classes with the same arguments do."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kubectl_instancetype import records

ROOT = Path(__file__).resolve().parent.parent


def _pair(make: Any, frozen: bool, eq: bool = True) -> type:
    """The same class body made by ``make`` (``dataclasses`` or ``records``)."""

    @make.dataclass(frozen=frozen, eq=eq)
    class Point:
        """A point."""

        x: int
        y: int = 0
        tags: tuple[str, ...] = ()
        notes: list[str] = make.field(default_factory=list)
        label: str = make.field(repr=False, default="")
        seen: int = make.field(default=0, compare=False)
        total: int = make.field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "total", self.x + self.y)

    return Point


def _made(frozen: bool, eq: bool = True) -> tuple[type, type]:
    return _pair(dataclasses, frozen, eq), _pair(records, frozen, eq)


@pytest.mark.parametrize("frozen", [True, False])
def test_constructor_repr_and_match_args_are_the_standard_ones(frozen: bool) -> None:
    standard, record = _made(frozen)
    assert str(inspect.signature(record)) == str(inspect.signature(standard))
    assert record.__match_args__ == standard.__match_args__ == ("x", "y", "tags", "notes", "label", "seen")
    for args, kwargs in [((1,), {}), ((1, 2, ("a",)), {"notes": ["n"], "label": "l", "seen": 3})]:
        a, b = standard(*args, **kwargs), record(*args, **kwargs)
        assert repr(b) == repr(a)
        assert vars(b) == vars(a)
    assert standard(1).notes is not standard(1).notes
    assert record(1).notes is not record(1).notes
    assert record.tags == () and record.label == "" and not hasattr(record, "notes") and not hasattr(record, "total")


def test_equality_and_hash_are_over_the_compared_fields() -> None:
    standard, record = _made(frozen=True)
    for made in (standard, record):
        assert made(1, seen=1) == made(1, seen=2)
        assert made(1) != made(2)
        assert made(1).__eq__(object()) is NotImplemented
    a, b = standard(1, 2, ("t",), ["n"]), record(1, 2, ("t",), ["n"])
    with pytest.raises(TypeError):  # a list field makes it unhashable, as for a data class
        hash(b)
    assert hash(record(1, 2, ("t",), None)) == hash(standard(1, 2, ("t",), None))  # type: ignore[arg-type]
    assert a.__eq__(b) is NotImplemented  # another class


def test_hash_follows_the_dataclasses_table() -> None:
    for frozen, eq in [(True, True), (True, False), (False, True), (False, False)]:
        standard, record = _made(frozen, eq)
        assert (record.__hash__ is None) == (standard.__hash__ is None)
        assert ("__eq__" in vars(record)) == ("__eq__" in vars(standard))

    @records.dataclass(frozen=True)
    class Own:
        x: int

        def __hash__(self) -> int:
            return 7

    assert hash(Own(1)) == 7


def test_frozen_records_refuse_assignment_and_deletion() -> None:
    _, record = _made(frozen=True)
    point = record(1)
    with pytest.raises(AttributeError, match="cannot assign to field 'x'"):
        point.x = 2
    with pytest.raises(AttributeError, match="cannot assign to field 'other'"):
        point.other = 2
    with pytest.raises(AttributeError, match="cannot delete field 'x'"):
        del point.x
    _, mutable = _made(frozen=False)
    changed = mutable(1)
    changed.x = 2
    assert changed.x == 2


def test_replace_keeps_the_other_fields_and_runs_post_init() -> None:
    standard, record = _made(frozen=True)
    a = dataclasses.replace(standard(1, 2, notes=["n"], seen=4), y=5)
    b = records.replace(record(1, 2, notes=["n"], seen=4), y=5)
    assert vars(b) == vars(a)
    assert b.total == 6


def test_records_pickle() -> None:
    point = pickle.loads(pickle.dumps(Pickled(1, ("a",))))
    assert point == Pickled(1, ("a",))
    assert point.total == 1


def test_a_mutable_default_is_refused() -> None:
    with pytest.raises(ValueError, match="use default_factory"):
        @records.dataclass
        class Bad:
            items: list[str] = []  # noqa: RUF012


@records.dataclass(frozen=True)
class Pickled:
    """A module-level record, as pickle finds classes by name."""

    x: int
    tags: tuple[str, ...] = ()
    total: int = records.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.x)


def test_records_of_one_shape_share_compiled_code_under_their_own_names() -> None:
    @records.dataclass(frozen=True)
    class Left:
        a: int
        b: list[int] = records.field(default_factory=list)

    @records.dataclass(frozen=True)
    class Right:
        c: int
        d: list[int] = records.field(default_factory=lambda: [7])

    assert vars(Left(1)) == {"a": 1, "b": []} and vars(Right(2)) == {"c": 2, "d": [7]}
    assert vars(Right(d=[1], c=3)) == {"c": 3, "d": [1]}
    assert Left.__init__.__code__.co_code == Right.__init__.__code__.co_code
    assert Right.__init__.__qualname__ == f"{Right.__qualname__}.__init__"
    with pytest.raises(TypeError, match="'a'"):
        Left(b=[])


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @records.dataclass
        class Bad:
            a: int = 0
            b: int


def test_the_compiled_shapes_are_those_of_the_package() -> None:
    """record_shapes.py holds the constructor of every shape the package's records have, and no other (a new
    record class of a new shape: run scripts/generate-record-shapes)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate-record-shapes"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_shape_not_compiled_with_the_package_is_compiled_when_made() -> None:
    @records.dataclass(frozen=True)
    class Odd:
        a: int
        b: list[int] = records.field(default_factory=list)
        c: int = records.field(default=3, init=False)
        d: tuple[int, ...] = ()

    assert records.MADE_SHAPES and (True, False, ("taken", "taken or made", "left", "taken")) in records._TEMPLATES
    assert Odd(1, d=(2,)) == Odd(1, [], (2,)) and Odd(1).c == 3 and Odd(1).b == []
    assert Odd.__init__.__code__.co_name == "__init__" and Odd.__init__.__qualname__.endswith("Odd.__init__")
