"""The API server's check of a VirtualMachineTemplate against its CRD (virt-template's kubebuilder markers on
``core/v1beta1/virtualmachinetemplate_types.go``, the same for ``v1alpha1``): ``spec`` and
``spec.virtualMachine`` required (an object, unknown fields kept), each parameter's ``name`` required,
``generate`` one of ``expression``, ``from`` matching the generator's expression pattern, the types of every
parameter field. Worded as the API server words a CRD's schema errors.
"""

from __future__ import annotations

import re
from typing import Any

from ..schema.fielderror import FieldError, Path, dotted, invalid, not_supported, required

FROM_PATTERN = r"\[([a-zA-Z0-9\-\\]+)\](\{(\w+)\})"
_FROM = re.compile(FROM_PATTERN, re.ASCII)
_STRINGS = ("name", "displayName", "description", "value", "generate", "from")


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _type(path: Path, value: Any, wanted: str) -> FieldError | None:
    found = _json_type(value)
    if found == wanted:
        return None
    return invalid(path, found, f"{dotted(path)} in body must be of type {wanted}: \"{found}\"")


def crd_errors(data: dict[str, Any]) -> list[FieldError]:
    """The schema errors of a VirtualMachineTemplate (none for a valid one)."""
    spec = data.get("spec")
    if spec is None:
        return [required(("spec",))]
    wrong = _type(("spec",), spec, "object")
    if wrong:
        return [wrong]
    errors: list[FieldError] = []
    vm = spec.get("virtualMachine")
    if vm is None:
        errors.append(required(("spec", "virtualMachine")))
    elif (wrong := _type(("spec", "virtualMachine"), vm, "object")) is not None:
        errors.append(wrong)
    message = spec.get("message")
    if message is not None and (wrong := _type(("spec", "message"), message, "string")) is not None:
        errors.append(wrong)
    parameters = spec.get("parameters")
    if parameters is None:
        return errors
    if (wrong := _type(("spec", "parameters"), parameters, "array")) is not None:
        return [*errors, wrong]
    for i, item in enumerate(parameters):
        errors += _parameter(("spec", "parameters", i), item)
    return errors


def _parameter(at: Path, item: Any) -> list[FieldError]:
    if (wrong := _type(at, item, "object")) is not None:
        return [wrong]
    errors: list[FieldError] = []
    if item.get("name") is None:
        errors.append(required((*at, "name")))
    for key in _STRINGS:
        value = item.get(key)
        if value is not None and (wrong := _type((*at, key), value, "string")) is not None:
            errors.append(wrong)
    flag = item.get("required")
    if flag is not None and (wrong := _type((*at, "required"), flag, "boolean")) is not None:
        errors.append(wrong)
    generate = item.get("generate")
    if isinstance(generate, str) and generate != "expression":
        errors.append(not_supported((*at, "generate"), generate, ["expression"]))
    source = item.get("from")
    if isinstance(source, str) and not _FROM.search(source):
        path = (*at, "from")
        errors.append(invalid(path, source, f"{dotted(path)} in body should match '{FROM_PATTERN}'"))
    return errors
