"""Go's ``resource.Quantity`` arithmetic as virt-controller's renderers use it (``Add``, ``Sub``, ``Set``).

apimachinery ``quantity.go``/``amount.go``: a sum of two ``int64Amount`` values keeps the smaller scale; a
zero receiver takes the other operand's format (and, for ``int64Amount``, its scale); the result is never
printed verbatim. The format decides the spelling of a request (``2301989888`` vs ``2Gi``), so every step
follows Go's order.
"""

from __future__ import annotations

from ..quantity import Quantity, parse_quantity

ZERO = Quantity(0, 0, "")  # Go's Quantity{}: no format until something is added
_INT64 = 1 << 63


def add(q: Quantity, y: Quantity) -> Quantity:
    """``q.Add(y)`` (q's format, unless q is zero)."""
    fmt = y.format if q.unscaled == 0 else q.format
    if not q.dec and not y.dec:
        if y.unscaled == 0:
            return Quantity(q.unscaled, q.scale, fmt)
        if q.unscaled == 0:
            return Quantity(y.unscaled, y.scale, fmt)
        scale = min(q.scale, y.scale)
        total = q.unscaled * 10 ** (q.scale - scale) + y.unscaled * 10 ** (y.scale - scale)
        if -_INT64 <= total < _INT64:
            return Quantity(total, scale, fmt)
    return _dec(q, y, 1, fmt)


def sub(q: Quantity, y: Quantity) -> Quantity:
    """``q.Sub(y)``."""
    fmt = y.format if q.unscaled == 0 else q.format
    if not q.dec and not y.dec:
        negated = Quantity(-y.unscaled, y.scale, y.format)
        out = add(Quantity(q.unscaled, q.scale, fmt), negated)
        return Quantity(out.unscaled, out.scale, fmt, dec=out.dec)
    return _dec(q, y, -1, fmt)


def _dec(q: Quantity, y: Quantity, sign: int, fmt: str) -> Quantity:
    scale = min(q.scale, y.scale)
    total = q.unscaled * 10 ** (q.scale - scale) + sign * y.unscaled * 10 ** (y.scale - scale)
    return Quantity(total, scale, fmt, dec=True)


def with_value(q: Quantity, value: int) -> Quantity:
    """``q.Set(value)``: the value at scale 0, the format kept."""
    return Quantity(value, 0, q.format)


def scaled(value: int, scale: int, fmt: str = "DecimalSI") -> Quantity:
    """``resource.NewScaledQuantity(value, scale)``."""
    return Quantity(value, scale, fmt)


def must(text: str) -> Quantity:
    """``resource.MustParse``."""
    return parse_quantity(text)


def one() -> Quantity:
    """``*resource.NewQuantity(1, resource.DecimalSI)``, the unit a device request counts in."""
    return Quantity(1, 0, "DecimalSI")


_TEXTS: dict[tuple[int, int, str, str, bool], str] = {}


def text(q: Quantity) -> str:
    """``str(q)`` (Go's spelling), remembered: a render prints the same few quantities thousands of times."""
    key = (q.unscaled, q.scale, q.format, q.text, q.dec)
    found = _TEXTS.get(key)
    if found is None:
        if len(_TEXTS) > 4096:
            _TEXTS.clear()
        found = _TEXTS[key] = str(q)
    return found
