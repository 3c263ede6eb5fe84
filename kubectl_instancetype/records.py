"""Records: the package's value classes, made by a cheaper ``dataclass`` (below every layer: it imports nothing
of the package).

:func:`dataclass` is the part of :func:`dataclasses.dataclass` this package uses — ``frozen`` and ``eq``,
fields with ``default``, ``default_factory``, ``init``, ``repr`` and ``compare``, ``__post_init__`` — and gives
a class the same ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__match_args__`` and frozen
``__setattr__``/``__delattr__`` the standard one gives it. :func:`replace` is :func:`dataclasses.replace`.

Why not the standard one: it compiles six functions for each frozen class and, for a class without a
docstring, computes a signature to write one — about 0.3 ms a class. A render makes some seventy classes
before it reads its first file, so that was a fifth of the time a one-VM render takes. Here only
``__init__`` is compiled (a keyword-taking constructor is the one method a shared function would slow down),
once for all the classes of one shape; the other methods are shared functions over the field names.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import get_annotations
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform, overload

from .record_shapes import SHAPES

T = TypeVar("T")

_MISSING: Any = object()  # a field's default or factory that was not given


class _Factory:
    """The default of a constructor's parameter whose field has a default factory."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


class FrozenInstanceError(AttributeError):
    """An assignment to, or deletion of, a field of a frozen record."""


class Field:
    """What ``field(...)`` says about one field."""

    __slots__ = ("compare", "default", "default_factory", "init", "repr")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare


@overload
def field(*, default: T, init: bool = True, repr: bool = True, compare: bool = True) -> T: ...


@overload
def field(*, default_factory: Callable[[], T], init: bool = True, repr: bool = True, compare: bool = True) -> T: ...


@overload
def field(*, init: bool = True, repr: bool = True, compare: bool = True) -> Any: ...


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True, repr: bool = True,
          compare: bool = True) -> Any:
    """A field with a default, a factory for its default, or left out of ``__init__``/``repr``/equality."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


@overload
def dataclass(cls: type[T], /) -> type[T]: ...


@overload
def dataclass(*, frozen: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field, Field))
def dataclass(cls: type[T] | None = None, /, *, frozen: bool = False, eq: bool = True) -> Any:
    """Make ``cls`` a record, as :func:`dataclasses.dataclass` with the same arguments makes a data class."""
    if cls is None:
        return lambda cls: _make(cls, frozen, eq)
    return _make(cls, frozen, eq)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with the fields ``changes`` names set to new values."""
    for name in obj.__record_init__:  # type: ignore[attr-defined]
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


def _make(cls: type[T], frozen: bool, eq: bool) -> type[T]:
    annotations = get_annotations(cls)
    fields = _fields(cls, annotations)
    init = tuple(name for name, spec in fields if spec.init)
    body = dict(cls.__dict__)
    made: Any = cls  # the methods are set on the class object itself
    made.__init__ = _init(cls, fields, annotations, frozen)
    made.__record_init__ = init
    if "__repr__" not in body:
        made.__repr__ = _repr(tuple(name for name, spec in fields if spec.repr))
    key = _key(tuple(name for name, spec in fields if spec.compare))
    if eq and "__eq__" not in body:
        made.__eq__ = _eq(key)
    # dataclasses' rule for __hash__ (without unsafe_hash): kept when the class writes one, else made from the
    # compared fields when frozen, else None (unhashable) when compared by value.
    explicit = body.get("__hash__", _MISSING)
    if eq and (explicit is _MISSING or (explicit is None and "__eq__" in body)):
        made.__hash__ = _hash(key) if frozen else None
    if frozen:
        if "__setattr__" in body or "__delattr__" in body:
            raise TypeError(f"cannot overwrite __setattr__ or __delattr__ of frozen {cls.__name__}")
        made.__setattr__, made.__delattr__ = _frozen(cls, frozenset(name for name, _ in fields))
    if "__match_args__" not in body:
        made.__match_args__ = init  # type: ignore[misc]  # mypy refuses this name even on Any
    return cls


def _fields(cls: type, annotations: dict[str, Any]) -> list[tuple[str, Field]]:
    fields: list[tuple[str, Field]] = []
    for name, annotation in annotations.items():
        if "ClassVar" in str(annotation) or "InitVar" in str(annotation) or "KW_ONLY" in str(annotation):
            raise TypeError(f"{cls.__name__}.{name}: ClassVar, InitVar and KW_ONLY are not supported by records")
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, Field):
            spec = value
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        else:
            spec = Field(value, _MISSING, True, True, True)
        if spec.default is not _MISSING and spec.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {spec.default.__class__} for field {name} is not allowed: "
                             "use default_factory")
        fields.append((name, spec))
    return fields


def _init(cls: type, fields: list[tuple[str, Field]], annotations: dict[str, Any],
          frozen: bool) -> Callable[..., None]:
    """The ``__init__`` of ``cls``: the compiled constructor of its shape, renamed to its fields."""
    shape = (frozen, hasattr(cls, "__post_init__"), tuple(_kind(spec) for _, spec in fields))
    template = _TEMPLATES.get(shape)
    if template is None:
        template = _TEMPLATES[shape] = _template(*shape)
    MADE_SHAPES.add(shape)
    names = {f"_f{index}": name for index, (name, _) in enumerate(fields)}
    code = template.replace(
        co_varnames=tuple(names.get(name, name) for name in template.co_varnames),
        co_names=tuple(names.get(name, name) for name in template.co_names),
        co_consts=tuple(names.get(const, const) if isinstance(const, str) else const for const in template.co_consts),
        co_name="__init__",
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    scope: dict[str, Any] = {"__name__": cls.__module__, "_record_factory": _FACTORY,
                             "_record_set": object.__setattr__}
    defaults: list[Any] = []
    for index, (name, spec) in enumerate(fields):
        if spec.default_factory is not _MISSING:
            scope[f"_record_factory_{index}"] = spec.default_factory
        if not spec.init:
            continue
        if spec.default_factory is not _MISSING:
            defaults.append(_FACTORY)
        elif spec.default is not _MISSING:
            defaults.append(spec.default)
        elif defaults:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    function = FunctionType(code, scope, "__init__", tuple(defaults) or None)
    function.__annotations__ = {name: annotations[name] for name, spec in fields if spec.init} | {"return": None}
    return function


# A constructor's code depends only on which fields it takes, which it fills from a factory and which it leaves
# alone: it is made once for each such shape (with the fields named _f0, _f1 ...) and copied with the fields'
# names, as compiling is most of what making a class costs. The shapes of the package's own records come
# compiled with it (record_shapes.py, written by scripts/generate-record-shapes from MADE_SHAPES); another
# shape is compiled when its first class is made.
Shape = tuple[bool, bool, tuple[str, ...]]
_TEMPLATES: dict[Shape, CodeType] = {shape: function.__code__ for shape, function in SHAPES.items()}
MADE_SHAPES: set[Shape] = set()  # the shapes of the classes made in this process
_TAKEN, _TAKEN_OR_MADE, _MADE, _LEFT = "taken", "taken or made", "made", "left"


def _kind(spec: Field) -> str:
    factory = spec.default_factory is not _MISSING
    if spec.init:
        return _TAKEN_OR_MADE if factory else _TAKEN
    return _MADE if factory else _LEFT  # left to the class attribute holding the default, or to __post_init__


def _template(frozen: bool, post_init: bool, kinds: tuple[str, ...]) -> CodeType:
    made: dict[str, Any] = {}
    exec(template_source(frozen, post_init, kinds), {}, made)
    code: CodeType = made["__init__"].__code__
    return code


def template_source(frozen: bool, post_init: bool, kinds: tuple[str, ...], function: str = "__init__") -> str:
    """The source of the constructor of a shape, its fields named _f0, _f1 ..."""
    params, lines = ["self"], []
    for index, kind in enumerate(kinds):
        name, factory = f"_f{index}", f"_record_factory_{index}"
        if kind == _TAKEN:
            value = name
        elif kind == _TAKEN_OR_MADE:
            value = f"{factory}() if {name} is _record_factory else {name}"
        elif kind == _MADE:
            value = f"{factory}()"
        else:
            continue
        if kind != _MADE:
            params.append(name)
        lines.append(f"_record_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if post_init:
        lines.append("self.__post_init__()")
    return f"def {function}({', '.join(params)}):\n    " + ("\n    ".join(lines) or "pass") + "\n"


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the compared fields' values, as dataclasses compare and hash them."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        single = attrgetter(names[0])
        return lambda obj: (single(obj),)
    return lambda obj: ()


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))
    return __hash__


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__
