"""Resource lists and their arithmetic as the API server does it: Go's ``Quantity.Add``/``Sub`` (the format of
the receiver unless it is zero, the cached spelling dropped) and ``k8s.io/apiserver/pkg/quota/v1/resources.go``'s
``Add``, ``Subtract``, ``Mask``, ``LessThanOrEqual``, ``RemoveZeros`` and the denial's ``prettyPrint``.

A resource list is a mapping of resource names to :class:`~kubectl_instancetype.quantity.Quantity`; every
function returns a new dict and never changes its arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..quantity import Quantity, parse_quantity

ResourceList = Mapping[str, Quantity]

ZERO = parse_quantity("0")
_INT64_MAX = (1 << 63) - 1


def add(a: Quantity, b: Quantity) -> Quantity:
    """Go's ``a.Add(b)``: the exact sum in ``a``'s format (``b``'s when ``a`` is zero), never a cached text."""
    if a.is_zero():
        return Quantity(b.unscaled, b.scale, b.format, "", b.dec)
    if b.is_zero():
        return Quantity(a.unscaled, a.scale, a.format, "", a.dec)
    low = min(a.scale, b.scale)
    left, right = a.unscaled * 10 ** (a.scale - low), b.unscaled * 10 ** (b.scale - low)
    total = left + right
    # int64Amount.Add gives up (and Go goes on in inf.Dec) when an operand or the sum leaves int64
    dec = a.dec or b.dec or max(abs(left), abs(right), abs(total)) > _INT64_MAX
    return Quantity(total, low, a.format, "", dec)


def negate(q: Quantity) -> Quantity:
    return Quantity(-q.unscaled, q.scale, q.format, "", q.dec)


def subtract(a: Quantity, b: Quantity) -> Quantity:
    """Go's ``a.Sub(b)``: ``a`` minus ``b`` in ``a``'s format (``b``'s when ``a`` is zero)."""
    return add(a, negate(b))


def add_lists(a: ResourceList, b: ResourceList) -> dict[str, Quantity]:
    """``quota.Add``: every resource of either list, summed where both have it (``a``'s value first)."""
    out = dict(a)
    for name, value in b.items():
        out[name] = add(out[name], value) if name in out else value
    return out


def subtract_lists(a: ResourceList, b: ResourceList) -> dict[str, Quantity]:
    """``quota.Subtract``: ``a`` less ``b``, for every resource of either list (``-b`` where ``a`` lacks it)."""
    out = dict(a)
    for name, value in b.items():
        out[name] = subtract(out[name], value) if name in out else negate(value)
    return out


def mask(values: ResourceList, names: Iterable[str]) -> dict[str, Quantity]:
    """``quota.Mask``: only the resources named."""
    wanted = set(names)
    return {name: value for name, value in values.items() if name in wanted}


def remove_zeros(values: ResourceList) -> dict[str, Quantity]:
    """``quota.RemoveZeros``."""
    return {name: value for name, value in values.items() if not value.is_zero()}


def exceeded(values: ResourceList, limits: ResourceList) -> list[str]:
    """``quota.LessThanOrEqual``'s second result: the resources of ``values`` above their limit, sorted."""
    return sorted(name for name, value in values.items() if name in limits and value.cmp(limits[name]) > 0)


def pretty(values: ResourceList) -> str:
    """The denial's ``prettyPrint``: ``name=value`` sorted by name, joined by commas."""
    return ",".join(f"{name}={values[name]}" for name in sorted(values))
