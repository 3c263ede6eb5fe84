"""A VMI spec's CPU and memory as KubeVirt's Go code reads them: quantities that are zero when absent,
topology counts that are uint32.

``ResourceList.Memory()`` and ``Cpu()`` (k8s.io/api/core/v1/resource.go) give the listed quantity or a zero
one (printed ``0``); a ``null`` quantity decodes to zero too. Quantities reach the webhooks after the schema
check, so they parse.
"""

from __future__ import annotations

from typing import Any

from ..quantity import BINARY_SI, DECIMAL_SI, Quantity, from_json, new_quantity
from .cause import Spec

UINT32 = 0xFFFFFFFF
_FORMATS = {"memory": BINARY_SI, "cpu": DECIMAL_SI}


def domain(spec: Spec) -> dict[str, Any]:
    """``spec.domain`` (empty when absent)."""
    value = spec.get("domain")
    return value if isinstance(value, dict) else {}


def section(parent: dict[str, Any], key: str) -> dict[str, Any] | None:
    """``parent[key]`` as a mapping, or None for Go's nil pointer."""
    value = parent.get(key)
    return value if isinstance(value, dict) else None


def cpu(spec: Spec) -> dict[str, Any] | None:
    """``spec.domain.cpu``, or None when nil."""
    return _domain_section(spec, "cpu")


def memory(spec: Spec) -> dict[str, Any] | None:
    """``spec.domain.memory``, or None when nil."""
    return _domain_section(spec, "memory")


def _domain_section(spec: Spec, key: str) -> dict[str, Any] | None:
    # section(domain(spec), key) without the two calls: the CPU and memory rules ask it several times a VM
    dom = spec.get("domain")
    value = dom.get(key) if isinstance(dom, dict) else None
    return value if isinstance(value, dict) else None


def _listed(spec: Spec, kind: str, name: str) -> Quantity:
    dom = spec.get("domain")
    resources = dom.get("resources") if isinstance(dom, dict) else None
    values = resources.get(kind) if isinstance(resources, dict) else None
    value = values.get(name) if isinstance(values, dict) else None
    return _ZERO[name] if value is None else from_json(value)


_ZERO = {name: new_quantity(0, fmt) for name, fmt in _FORMATS.items()}  # a Quantity is immutable: one will do


def listed(spec: Spec, kind: str, name: str) -> bool:
    """Whether ``spec.domain.resources.<kind>`` (requests, limits) lists ``name``: a rule about a quantity the
    spec does not list has nothing to refuse (it reads zero), and skips reading it."""
    dom = spec.get("domain")
    resources = dom.get("resources") if isinstance(dom, dict) else None
    values = resources.get(kind) if isinstance(resources, dict) else None
    return isinstance(values, dict) and values.get(name) is not None


def request(spec: Spec, name: str) -> Quantity:
    """``spec.Domain.Resources.Requests.Memory()`` / ``Cpu()`` for ``name`` "memory" / "cpu"."""
    return _listed(spec, "requests", name)


def limit(spec: Spec, name: str) -> Quantity:
    """``spec.Domain.Resources.Limits.Memory()`` / ``Cpu()``."""
    return _listed(spec, "limits", name)


def quantity(value: Any) -> Quantity | None:
    """A ``*resource.Quantity`` field: None when absent or null."""
    return None if value is None else from_json(value)


def count(cpu_spec: dict[str, Any] | None, key: str) -> int:
    """A uint32 topology field of ``spec.domain.cpu`` (sockets, cores, threads, maxSockets), 0 when unset."""
    value = (cpu_spec or {}).get(key)
    if value.__class__ is int:  # the common case, without the calls below
        return value & UINT32
    return int(value) & UINT32 if isinstance(value, int) and not isinstance(value, bool) else 0


def vcpus(cpu_spec: dict[str, Any] | None) -> int:
    """``hwutil.GetNumberOfVCPUs``: cores × sockets × threads, each 0 skipped, in uint32 arithmetic."""
    total = count(cpu_spec, "cores")
    for key in ("sockets", "threads"):
        n = count(cpu_spec, key)
        if n:
            total = n if total == 0 else (total * n) & UINT32
    return total
