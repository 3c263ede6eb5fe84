"""Template parameters: the passed values merged in, the references checked, the values generated.

Mirrors ``virt-template-engine`` ``template/parameters.go`` (``MergeParameters``,
``ValidateParameterReferences``) and ``generateParameterValues`` of ``template/template.go``. Where the engine
answers in Go's random map order (the warnings for unused parameters, several undefined references, several
unknown passed parameters) the answers here are sorted, so that a run is reproducible.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..records import dataclass, replace
from ..schema.fielderror import FieldError, dotted, invalid, required
from .generator import Entropy, GeneratorError, generate

# template.go: a reference anywhere in a string, and a whole-value reference (the whole string).
STRING_REFERENCE = re.compile(r"\$\{([a-zA-Z0-9_]+)\}")
VALUE_REFERENCE = re.compile(r"\$\{\{([a-zA-Z0-9_]+)\}\}\Z")
GENERATORS = ("expression",)


@dataclass(frozen=True)
class Parameter:
    """One ``spec.parameters[]`` item (``v1beta1.Parameter``)."""

    name: str = ""
    display_name: str = ""
    description: str = ""
    value: str = ""
    generate: str = ""
    source: str = ""  # ``from``
    required: bool = False

    def go_struct(self) -> dict[str, object]:
        """The JSON Go writes for it (declaration order, ``omitempty`` on every field)."""
        pairs = (("name", self.name), ("displayName", self.display_name), ("description", self.description),
                 ("value", self.value), ("generate", self.generate), ("from", self.source),
                 ("required", self.required))
        return {key: value for key, value in pairs if value}


class MergeError(ValueError):
    """A passed parameter the template does not define (``MergeParameters``)."""


def merge(parameters: tuple[Parameter, ...], values: Mapping[str, str]) -> tuple[Parameter, ...]:
    """The parameters with the passed values set; the first undefined name (sorted) is refused."""
    names = {p.name for p in parameters}
    unknown = sorted(set(values) - names)
    if unknown:
        raise MergeError(f"parameter {unknown[0]} not found in template")
    out = list(parameters)
    first: dict[str, int] = {}  # each name's first parameter: the one a passed value sets
    for i, parameter in enumerate(parameters):
        first.setdefault(parameter.name, i)
    for name, value in values.items():
        out[first[name]] = replace(out[first[name]], value=value)
    return tuple(out)


def references_in(text: str) -> set[str]:
    """``collectReferencedParameters``: the names ``text`` references, whole-value or inside."""
    names = {m.group(1) for m in STRING_REFERENCE.finditer(text)}
    whole = VALUE_REFERENCE.match(text)
    if whole:
        names.add(whole.group(1))
    return names


@dataclass(frozen=True)
class ReferenceCheck:
    """The outcome of ``ValidateParameterReferences``: warnings for unused parameters (sorted) and errors for
    undefined references (sorted by name)."""

    warnings: tuple[str, ...]
    errors: tuple[FieldError, ...]
    unused: tuple[int, ...]  # indices of the unused parameters, for locating the warnings
    undefined: tuple[str, ...]


def check_references(parameters: tuple[Parameter, ...], referenced: Iterable[str]) -> ReferenceCheck:
    """Every defined parameter that nothing references is a warning; every reference to an undefined one an
    error. Duplicate names count once, at their last index (the engine keeps a name -> index map)."""
    used = set(referenced)
    defined: dict[str, int] = {}
    for i, parameter in enumerate(parameters):
        defined[parameter.name] = i
    unused = sorted((i, name) for name, i in defined.items() if name not in used)
    warnings = sorted(f"{dotted(('spec', 'parameters', i, 'name'))}: {name} is defined but never referenced"
                      for i, name in unused)
    undefined = sorted(name for name in used if name not in defined)
    errors = tuple(invalid(("spec", "virtualMachine"), name, f"references undefined parameter {name}")
                   for name in undefined)
    return ReferenceCheck(tuple(warnings), errors, tuple(i for i, _ in unused), tuple(undefined))


def aggregate(errors: tuple[FieldError, ...]) -> str:
    """``ErrorList.ToAggregate().Error()``: one message alone, several as ``[a, b]``."""
    texts = [e.text() for e in errors]
    return texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"


class ParameterError(ValueError):
    """A parameter the engine refuses before substitution; ``error`` is its field error."""

    def __init__(self, error: FieldError) -> None:
        super().__init__(error.text())
        self.error = error


def values(parameters: tuple[Parameter, ...], entropy: Entropy) -> dict[str, str]:
    """``generateParameterValues``: every parameter's value, generated where it has none and a generator;
    empty names, duplicates, unknown generators, empty ``from``, bad expressions and required parameters
    without a value are refused, the first in list order."""
    seen: set[str] = set()
    out: dict[str, str] = {}
    for i, parameter in enumerate(parameters):
        at = ("spec", "parameters", i)
        if parameter.name == "":
            raise ParameterError(invalid((*at, "name"), "", "parameter name is empty"))
        if parameter.name in seen:
            raise ParameterError(FieldError((*at, "name"), "FieldValueDuplicate", parameter.name))
        seen.add(parameter.name)
        value = parameter.value
        if value == "" and parameter.generate != "":
            value = _generated(parameter, at, entropy)
        if value == "" and parameter.required:
            raise ParameterError(required(
                (*at, "value"), f"parameter '{parameter.name}' is required and a value must be specified"))
        out[parameter.name] = value
    return out


def _generated(parameter: Parameter, at: tuple[str | int, ...], entropy: Entropy) -> str:
    if parameter.generate not in GENERATORS:
        raise ParameterError(invalid(
            (*at, "generate"), parameter.generate,
            f"unknown generator name '{parameter.generate}' for parameter '{parameter.name}'"))
    if parameter.source == "":
        raise ParameterError(invalid(
            (*at, "from"), "",
            f"from cannot be empty for parameter '{parameter.name}' using generator '{parameter.generate}'"))
    try:
        return generate(parameter.source, entropy.for_parameter(parameter.name))
    except GeneratorError as exc:
        raise ParameterError(invalid((*at, "from"), parameter.source, str(exc))) from None
