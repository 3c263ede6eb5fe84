"""The VirtualMachinePool validating webhook on CREATE (pkg/virt-api/webhooks/validating-webhook/admitters/
vmpool-admitter.go): ``ValidateVMPoolSpec`` and the discontinued feature gates of the VM template.

The pool's VM template is checked as written, before any instancetype or preference is applied (the VMs the
pool creates meet the VM webhook later, expanded). The update and scale-in strategies are not checked here:
KubeVirt names several configured strategies in Go's map order, which differs from run to run.
"""

from __future__ import annotations

from typing import Any

from ..api.labelselector import selector_matches
from ..config import ClusterConfig
from . import gates
from .cause import Cause, FieldPath, Spec
from .vm import Verdict, validate_vm_spec

OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def admit_create(pool: Spec, cfg: ClusterConfig) -> Verdict:
    """The webhook's answer for ``pool``."""
    spec = pool.get("spec") or {}
    field = FieldPath.of("spec")
    template = spec.get("virtualMachineTemplate")
    if not isinstance(template, dict):
        return Verdict((field.child("template").cause("missing virtual machine template."),))
    vm_spec = template.get("spec") or {}
    causes = [
        *validate_vm_spec(field.child("virtualMachineTemplate", "spec"), vm_spec, cfg),
        *_selector(field.child("selector"), spec.get("selector"), (template.get("metadata") or {}).get("labels") or {}),
        *_max_unavailable(field.child("maxUnavailable"), spec.get("maxUnavailable")),
        *gates.discontinued_in_use(cfg, ((vm_spec.get("template") or {}).get("spec") or {})),
    ]
    if causes:
        return Verdict(tuple(causes))
    return Verdict(warnings=tuple(gates.deprecated_in_use(cfg, (vm_spec.get("template") or {}).get("spec") or {})))


def _selector(field: FieldPath, selector: Any, labels: dict[str, str]) -> list[Cause]:
    """``LabelSelectorAsSelector`` then ``Matches``: a missing selector matches nothing."""
    if selector is None:
        return [field.cause("selector does not match labels.")]
    problem = _selector_error(selector)
    if problem:
        return [field.cause(problem)]
    if not selector_matches(selector, labels):
        return [field.cause("selector does not match labels.")]
    return []


def _selector_error(selector: Spec) -> str:
    """apimachinery's error for a selector it cannot convert (the first expression at fault)."""
    for expression in selector.get("matchExpressions") or []:
        operator, values = expression.get("operator"), expression.get("values") or []
        if operator not in OPERATORS:
            return f'"{operator}" is not a valid label selector operator'
        shown = "[]string(nil)" if not values else "[]string{" + ", ".join(f'"{v}"' for v in values) + "}"
        if operator in ("In", "NotIn") and not values:
            return f"values: Invalid value: {shown}: for 'in', 'notin' operators, values set can't be empty"
        if operator in ("Exists", "DoesNotExist") and values:
            return f"values: Invalid value: {shown}: values set must be empty for exists and does not exist"
    return ""


def _max_unavailable(field: FieldPath, value: Any) -> list[Cause]:
    """An ``IntOrString``: a positive count, or a percentage from 1% to 100%."""
    if value is None:
        return []
    if isinstance(value, str):
        if not value.endswith("%"):
            return [field.cause("maxUnavailable percentage must end with %")]
        number = value[:-1]
        try:
            val = _atoi(number)
        except ValueError as exc:
            return [field.cause(f'maxUnavailable percentage value "{number}" is invalid: {exc}')]
        if val <= 0 or val > 100:
            return [field.cause(f"maxUnavailable percentage value {val} must be between 1 and 100")]
        return []
    if isinstance(value, int) and value <= 0:
        return [field.cause("maxUnavailable must be greater than 0")]
    return []


def _atoi(text: str) -> int:
    """Go's ``strconv.Atoi``, its error text included."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(f'strconv.Atoi: parsing "{text}": invalid syntax')
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise ValueError(f'strconv.Atoi: parsing "{text}": value out of range')
    return value
