"""Processing a template into a VirtualMachine, as ``virtctl template process --file`` does locally
(``pkg/virtctl/template/process`` ``processLocal``, then ``virt-template-engine`` ``template/processor.go``).

The order and the wording are virtctl's: merge the passed values (``error merging template parameters: …``),
check the references (warnings for unused parameters; ``error validating template parameters: …``), then
process (``error processing VirtualMachineTemplate locally: …``): generate values, take the raw VM, strip a
hard-coded namespace, substitute, convert strictly into a ``kubevirt.io/v1`` VirtualMachine with the kind
forced, substitute the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.golang import clone_json, go_json
from ..records import dataclass, field
from ..schema.fielderror import GoStruct, go_value, invalid
from ..schema.tables import MAIN
from ..yamlio.load import DEFAULT_LIMITS
from .conversion import ConversionError, convert
from .document import Template, raw_vm_error
from .generator import Entropy
from .parameters import (
    STRING_REFERENCE,
    MergeError,
    Parameter,
    ParameterError,
    aggregate,
    check_references,
    merge,
    references_in,
    values,
)
from .substitution import NestingError, SubstitutionError, json_depth, referenced, substitute, substitute_all

MERGE, VALIDATE, PROCESS = "merge", "validate", "process"
LIMIT = "limit"  # not the engine's refusal: a value beyond this tool's input limits


class ProcessError(ValueError):
    """virtctl's refusal: ``message`` is the line it prints, ``stage`` the step (``merge``, ``validate``,
    ``process``), ``path`` the template field at fault (from the document's root), ``parameter`` the
    parameter it concerns, if any."""

    def __init__(self, message: str, stage: str, path: tuple[str | int, ...] = (), parameter: str = "",
                 warnings: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message, self.stage, self.path, self.parameter = message, stage, path, parameter
        self.warnings = warnings


@dataclass(frozen=True)
class Processed:
    """A processed template: the VM as virtctl prints it, the message, the warnings (sorted), every
    parameter's value, the names of the generated ones, and which VM fields came from which parameters."""

    vm: dict[str, Any]
    message: str
    warnings: tuple[str, ...]
    values: Mapping[str, str]
    generated: frozenset[str] = frozenset()
    sources: Mapping[tuple[str | int, ...], tuple[str, ...]] = field(default_factory=dict)


def _located_parameter(parameters: tuple[Parameter, ...], index: int, origin: tuple[str | int, ...]
                       ) -> tuple[str | int, ...]:
    base = ("parameters",) if origin and origin[0] == "objects" else ("spec", "parameters")
    return (*base, index) if 0 <= index < len(parameters) else base


def process(template: Template, passed: Mapping[str, str], entropy: Entropy | None = None,
            release: str = MAIN) -> Processed:
    """The VirtualMachine ``template`` gives with the ``passed`` values; :class:`ProcessError` as virtctl."""
    entropy = entropy or Entropy()
    try:
        parameters = merge(template.parameters, passed)
    except MergeError as exc:
        raise ProcessError(f"error merging template parameters: {exc}", MERGE) from None
    raw_error = raw_vm_error(template.vm, template.openshift)
    if raw_error is not None:
        raise ProcessError(f"error validating template parameters: {raw_error}", VALIDATE, template.origin)
    used = referenced(template.vm) | references_in(template.message)
    check = check_references(parameters, used)
    if check.errors:
        raise ProcessError(f"error validating template parameters: {aggregate(check.errors)}", VALIDATE,
                           _referencing(template, check.undefined[0]), check.undefined[0], check.warnings)
    try:
        filled = values(parameters, entropy)
    except ParameterError as exc:
        step = exc.error.path
        index = step[2] if len(step) > 2 and isinstance(step[2], int) else -1
        at = _located_parameter(parameters, index, template.origin) + tuple(step[3:4])
        name = parameters[index].name if 0 <= index < len(parameters) else ""
        raise ProcessError(f"error processing VirtualMachineTemplate locally: {exc.error.text()}", PROCESS,
                           at, name, check.warnings) from None
    vm = clone_json(template.vm)
    _strip_namespace(vm)
    try:
        substituted = substitute_all(vm, filled)
    except NestingError as exc:
        index = next((i for i, p in enumerate(parameters) if json_depth(filled[p.name]) > DEFAULT_LIMITS.max_depth),
                     -1)
        name = parameters[index].name if index >= 0 else ""
        raise ProcessError(f"template parameter {name}: its value, read as JSON for a ${{{{{name}}}}} reference, is "
                           f"{exc}", LIMIT, _located_parameter(parameters, index, template.origin), name,
                           check.warnings) from None
    except SubstitutionError as exc:
        listed = [GoStruct(p.go_struct()) for p in parameters]
        text = invalid(("spec", "parameters"), listed, f"error processing template: {exc}").text()
        raise ProcessError(f"error processing VirtualMachineTemplate locally: {text}",
                           PROCESS, template.origin, "", check.warnings) from None
    try:
        typed = convert(substituted, release)
    except ConversionError as exc:
        raise ProcessError(
            "error processing VirtualMachineTemplate locally: spec.virtualMachine: Invalid value: "
            f"{go_json(substituted)}: failed to convert unstructured object to VirtualMachine: {exc}",
            PROCESS, (*template.origin, *_in_template(template.vm, exc.path or ())), "", check.warnings) from None
    try:
        message, _ = substitute(template.message, filled)
    except SubstitutionError as exc:
        text = f"spec.message: Invalid value: {go_value(template.message)}: error processing message: {exc}"
        raise ProcessError(f"error processing VirtualMachineTemplate locally: {text}", PROCESS,
                           template.origin, "", check.warnings) from None
    generated = frozenset(p.name for p in parameters if p.value == "" and p.generate != "")
    return Processed(typed, message, check.warnings, filled, generated, _sources(template.vm))


def _in_template(vm: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """``path`` of the processed VM as far as the template's VM has it (a substituted key is not there)."""
    out: list[str | int] = []
    for step in path:
        inside = step in vm if isinstance(vm, dict) else (
            isinstance(vm, list) and isinstance(step, int) and 0 <= step < len(vm))
        if not inside:
            break
        vm = vm[step]
        out.append(step)
    return tuple(out)


def _referencing(template: Template, name: str) -> tuple[str | int, ...]:
    """Where the first reference to ``name`` is (from the document's root): in the VM, else the message."""
    for path, names in _sources(template.vm).items():
        if name in names:
            return (*template.origin, *path)
    message = ("message",) if template.openshift else ("spec", "message")
    return message if name in references_in(template.message) else template.origin


def _strip_namespace(vm: dict[str, Any]) -> None:
    """``removeHardcodedNamespace``: a namespace without a ``${…}`` reference is removed."""
    meta = vm.get("metadata")
    if isinstance(meta, dict):
        namespace = meta.get("namespace")
        if isinstance(namespace, str) and namespace and not STRING_REFERENCE.search(namespace):
            del meta["namespace"]


def _sources(vm: Any, path: tuple[str | int, ...] = ()) -> dict[tuple[str | int, ...], tuple[str, ...]]:
    """Which fields of the template's VM reference which parameters (keys: paths in the VM)."""
    out: dict[tuple[str | int, ...], tuple[str, ...]] = {}
    if isinstance(vm, dict):
        for key, item in vm.items():
            names = references_in(key) if isinstance(key, str) else set()
            if names:
                out[(*path, key)] = tuple(sorted(names))
            out.update(_sources(item, (*path, key)))
    elif isinstance(vm, list):
        for i, item in enumerate(vm):
            out.update(_sources(item, (*path, i)))
    elif isinstance(vm, str):
        names = references_in(vm)
        if names:
            out[path] = tuple(sorted(names))
    return out
