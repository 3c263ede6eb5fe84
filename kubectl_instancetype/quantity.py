"""Kubernetes resource quantities, parsed and printed exactly as apimachinery v0.34 does.

KubeVirt decodes every Quantity of a VM with Go's ``resource.ParseQuantity`` and encodes it again, so
the output must carry Go's spelling (``2048Mi`` -> ``2Gi``, ``1.5G`` -> ``1500M``, ``+1Gi`` kept as
written). A :class:`Quantity` keeps what Go keeps: the exact value as ``unscaled * 10**scale``, the
format its suffix chose, the verbatim text when Go caches it (the parse was already canonical), and
whether Go holds the value as an ``int64Amount`` or an ``inf.Dec`` (that choice shows only in the
rounding and overflow of :meth:`Quantity.value`). Reference:
``k8s.io/apimachinery/pkg/api/resource/{quantity,amount,suffix,scale_int,math}.go``.
"""

from __future__ import annotations

import functools
import re

from .gonum import f32, int_to_f32, json_float
from .records import dataclass

DECIMAL_SI = "DecimalSI"
BINARY_SI = "BinarySI"
DECIMAL_EXPONENT = "DecimalExponent"

ERR_FORMAT_WRONG = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"
MAX_DIGITS = 4000  # our limit (Python's int/str conversion stops at 4300 digits); Go has none

_INT64_MAX = (1 << 63) - 1
_INT64_MIN = -(1 << 63)
_NANO = 9
# Go's parser as one expression: sign, leading zeros, digits, fraction, suffix letters and exponent.
_SCAN = re.compile(r"([+-]?)(0*)([0-9]*)(\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)")
_SUFFIXES: dict[str, tuple[int, int, str]] = {
    **{s: (10, e, DECIMAL_SI) for s, e in (("n", -9), ("u", -6), ("m", -3), ("", 0), ("k", 3))},
    **{s: (10, e, DECIMAL_SI) for s, e in (("M", 6), ("G", 9), ("T", 12), ("P", 15), ("E", 18))},
    **{s: (2, 10 * (i + 1), BINARY_SI) for i, s in enumerate(("Ki", "Mi", "Gi", "Ti", "Pi", "Ei"))},
}
_DECIMAL_SUFFIX = {e: s for s, (b, e, _) in _SUFFIXES.items() if b == 10}
_BINARY_SUFFIX = {e // 10: s for s, (b, e, _) in _SUFFIXES.items() if b == 2}
# What Go's strings.TrimSpace still finds in a JSON string: encoding/json writes the other Unicode
# spaces (\t \n \v \f \r U+2028 U+2029) as escapes, which then fail to parse.
_JSON_SPACE = " \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"


class QuantityError(ValueError):
    """A value Go's ``ParseQuantity`` rejects; the message is apimachinery's own."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _i32(n: int) -> int:
    """``n`` wrapped to Go's int32, as the exponent and scale arithmetic in apimachinery is."""
    return ((n + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def _i64(n: int) -> int:
    """``n`` wrapped to Go's int64."""
    return ((n + (1 << 63)) & 0xFFFFFFFFFFFFFFFF) - (1 << 63)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _cmp_scaled(u1: int, s1: int, u2: int, s2: int) -> int:
    """Exact comparison of ``u1 * 10**s1`` with ``u2 * 10**s2`` without building huge powers."""
    sign1, sign2 = _sign(u1), _sign(u2)
    if sign1 != sign2 or sign1 == 0:
        return (sign1 > sign2) - (sign1 < sign2)
    a1, a2 = abs(u1), abs(u2)
    if s1 < s2:
        a1, a2, s1, s2, sign1 = a2, a1, s2, s1, -sign1
    shift = s1 - s2
    if shift > a2.bit_length():  # a1 * 10**shift >= 10**shift > a2
        return sign1
    big = a1 * 10**shift
    return sign1 * ((big > a2) - (big < a2))


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class Quantity:
    """A Kubernetes Quantity: ``unscaled * 10**scale`` in ``format``, compared by value like Go's Cmp.

    ``text`` is the verbatim spelling Go caches when a parse was already canonical ("" otherwise);
    ``dec`` says that Go holds the value as an ``inf.Dec`` rounded to nano (``scale`` -9, or 0 for the
    capped BinarySI maximum) rather than as an ``int64Amount``.
    """

    unscaled: int
    scale: int = 0
    format: str = DECIMAL_SI
    text: str = ""
    dec: bool = False

    def __str__(self) -> str:
        """Go's ``String()`` and ``MarshalJSON`` text."""
        return self.text or _canonical(self)

    def value(self) -> int:
        """Go's ``Value()``: the integer value, fractions rounded away from zero, int64 overflow as Go's."""
        return _scaled_value(self, 0)

    def milli_value(self) -> int:
        """Go's ``MilliValue()``: the value in thousandths, rounded like :meth:`value`."""
        return _scaled_value(self, -3)

    def is_zero(self) -> bool:
        return self.unscaled == 0

    def sign(self) -> int:
        return _sign(self.unscaled)

    def cmp(self, other: Quantity) -> int:
        """-1, 0 or 1 as this quantity's exact value is below, equal to or above ``other``'s."""
        return _cmp_scaled(self.unscaled, self.scale, other.unscaled, other.scale)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) == 0

    def __lt__(self, other: Quantity) -> bool:
        return self.cmp(other) < 0

    def __hash__(self) -> int:
        if self.unscaled == 0:
            return 0
        text = str(abs(self.unscaled))
        mantissa = text.rstrip("0")
        return hash((_sign(self.unscaled), mantissa, self.scale + len(text) - len(mantissa)))


def _canonical(q: Quantity) -> str:
    """Go's ``CanonicalizeBytes``: the largest suffix that keeps the value exact, without a fraction."""
    if q.unscaled == 0:
        return "0"
    fmt = q.format
    if fmt == BINARY_SI:
        whole = _whole(q.unscaled, q.scale)
        if whole is not None and _cmp_scaled(abs(q.unscaled), q.scale, 1024, 0) >= 0:
            return _binary_text(whole)
        fmt = DECIMAL_SI  # |v| < 1024 or a fraction: BinarySI is shown as DecimalSI
    elif fmt != DECIMAL_SI:
        fmt = DECIMAL_EXPONENT  # Go's default for an unknown format
    text = str(abs(q.unscaled))
    mantissa = text.rstrip("0")
    exponent = _i32(q.scale + len(text) - len(mantissa))
    shift = exponent % 3  # lower the exponent to a multiple of three
    number = ("-" if q.unscaled < 0 else "") + mantissa + "0" * shift
    exponent = _i32(exponent - shift)
    if fmt == DECIMAL_SI:
        # apimachinery v0.34 drops the suffix beyond E (10^18), so 10^21 prints "1"; fixed upstream
        # after v0.34 (kubernetes/kubernetes#140459) by falling back to "e21".
        return number + _DECIMAL_SUFFIX.get(exponent, "")
    return number + (f"e{exponent}" if exponent else "")


def _whole(unscaled: int, scale: int) -> int | None:
    """The value as an integer, or None when it has a fraction."""
    if scale >= 0:
        return unscaled * 10**scale
    quotient, remainder = divmod(abs(unscaled), 10**-scale)
    return None if remainder else _sign(unscaled) * quotient


def _binary_text(whole: int) -> str:
    """An integer of at least 1024 in magnitude with the largest binary suffix that divides it."""
    magnitude, power = abs(whole), 0
    while magnitude % 1024 == 0:
        magnitude //= 1024
        power += 1
    return ("-" if whole < 0 else "") + str(magnitude) + _BINARY_SUFFIX.get(power, "")


def _scaled_value(q: Quantity, scale: int) -> int:
    """Go's ``ScaledValue(scale)``: ``int64Amount.AsScaledInt64`` or, for an ``inf.Dec``, ``scaledValue``.

    The ``inf.Dec`` branch divides with Go's truncating ``/`` and then adds one for any remainder, so a
    negative fraction there moves towards zero (``-2n`` has the value 1): Go's behaviour, kept.
    """
    if not q.dec:
        if q.scale < scale:
            return _scale_down(q.unscaled, scale - q.scale)
        return _scale_up(q.unscaled, q.scale - scale)
    dif, unscaled = scale - q.scale, q.unscaled
    if dif <= 0:  # Go multiplies by int64(math.Pow10(n)), which is MinInt64 from 10^19 on
        factor = 10**-dif if dif >= -18 else _INT64_MIN
        return _i64(_i64(unscaled) * factor)
    if unscaled < _INT64_MAX and dif < 19:
        low = _i64(unscaled)
        quotient = _sign(low) * (abs(low) // 10**dif)
        return _i64(quotient + (quotient * 10**dif != low))
    quotient, remainder = divmod(unscaled, 10**dif)
    return _i64(_i64(quotient) + (remainder != 0))


def _scale_down(base: int, digits: int) -> int:
    """Go's ``negativeScaleInt64``: drop ``digits`` decimal places, rounding away from zero."""
    if digits >= 19:  # every int64 is below 10^19 in magnitude
        return _sign(base)
    quotient, remainder = divmod(abs(base), 10**digits)
    return _sign(base) * (quotient + (remainder != 0))


def _scale_up(base: int, digits: int) -> int:
    """Go's ``positiveScaleInt64`` with its overflow results: wrapped for 10, 100, 1000, 10^6 and
    10^9 (one multiplication), 0 for the other scales (a loop that gives up), 0 for MinInt64."""
    if digits == 0 or (base in (0, 1) and digits in (1, 2, 3, 6, 9)):
        return base * 10**digits
    if base == _INT64_MIN:
        return 0
    if digits in (1, 2, 3, 6, 9):
        return _i64(base * 10**digits)
    product = base * 10**digits if digits < 19 else _INT64_MAX + 1
    return product if _INT64_MIN <= product <= _INT64_MAX else 0


@functools.lru_cache(maxsize=8192)
def parse_quantity(text: str) -> Quantity:
    """Go's ``ParseQuantity``; raises :class:`QuantityError` with apimachinery's message."""
    if text == "0":
        return Quantity(0, 0, DECIMAL_SI, text)
    match = _SCAN.fullmatch(text)
    if not text or match is None:
        raise QuantityError(ERR_FORMAT_WRONG)
    sign, zeros, num, _, denom, suffix = match.groups("")
    base, exponent, fmt = _interpret(suffix)
    quantity = _parse_int64(text, sign == "-", num or "0", denom, base, exponent, fmt)
    if quantity is None:
        if not (zeros or num or denom):
            raise QuantityError(ERR_NUMERIC)  # inf.Dec finds no digit in "." (e.g. ".e-10")
        quantity = _parse_dec(sign == "-", num + denom, len(denom), base, exponent, fmt)
    return quantity


def _interpret(suffix: str) -> tuple[int, int, str]:
    """Base, exponent and format of a suffix (Go's ``quantitySuffixer.interpret``)."""
    known = _SUFFIXES.get(suffix)
    if known is not None:
        return known
    if len(suffix) > 1 and suffix[0] in "eE":
        try:
            exponent = int(suffix[1:])
        except ValueError:
            raise QuantityError(ERR_SUFFIX) from None
        if _INT64_MIN <= exponent <= _INT64_MAX:  # strconv.ParseInt(…, 10, 64), then int32(…)
            return 10, _i32(exponent), DECIMAL_EXPONENT
    raise QuantityError(ERR_SUFFIX)


def _parse_int64(
    text: str, negative: bool, num: str, denom: str, base: int, exponent: int, fmt: str
) -> Quantity | None:
    """Go's fast path: few enough digits for an int64 at a scale of nano or coarser, else None."""
    if base == 2:
        if denom:
            return None
        mantissa, precision, scale = 1 << exponent, 14 - len(num) - exponent * 3 // 10, 0
    else:
        mantissa, precision, scale = 1, 18 - len(num) - len(denom), _i32(exponent - len(denom))
    if precision < 0 or scale < -_NANO:
        return None
    shifted = num + denom
    digits = int(shifted)
    result = digits * mantissa
    if result > _INT64_MAX:
        return None
    # Go caches the original text when it is already canonical (so "+1Gi", "01Gi" and "1.500G" survive).
    decimal_canonical = scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
    verbatim = digits & 7 != 0 if base == 2 else decimal_canonical
    return Quantity(-result if negative else result, scale, fmt, text if verbatim else "")


def _parse_dec(negative: bool, digits: str, places: int, base: int, exponent: int, fmt: str) -> Quantity:
    """Go's ``inf.Dec`` path: the exact value rounded up to nano (away from zero), BinarySI capped at
    MaxInt64, and a BinarySI value strictly between 0 and 1 turned into DecimalSI."""
    significant = digits.lstrip("0")
    mantissa = significant.rstrip("0")
    if not mantissa:
        return Quantity(0, 0, fmt, "", True)
    if len(mantissa) > MAX_DIGITS:  # before int(): Python refuses to convert 4300 digits or more
        raise QuantityError(f"quantity has more than {MAX_DIGITS} digits, more than this tool handles")
    trailing = len(significant) - len(mantissa)
    if base == 10:  # inf.Dec scale arithmetic is int32 and wraps, as Go's does
        nanos = _ceil_scaled(int(mantissa), _NANO - _i32(places + _i32(-exponent)) + trailing)
    else:
        nanos = _ceil_scaled(int(mantissa) << exponent, _NANO - places + trailing)
    if fmt == BINARY_SI and nanos > _INT64_MAX * 10**_NANO:
        return Quantity(-_INT64_MAX if negative else _INT64_MAX, 0, fmt, "", True)
    if fmt == BINARY_SI and nanos < 10**_NANO:
        fmt = DECIMAL_SI
    return Quantity(-nanos if negative else nanos, -_NANO, fmt, "", True)


def _ceil_scaled(magnitude: int, power: int) -> int:
    """``magnitude * 10**power`` rounded up to an integer (``magnitude`` > 0)."""
    digits = len(str(magnitude))
    if power >= 0:
        if digits + power > MAX_DIGITS:
            raise QuantityError(f"quantity has more than {MAX_DIGITS} digits, more than this tool handles")
        return magnitude * 10**power
    if digits <= -power:  # below one: rounds up to 1 without building 10**-power
        return 1
    quotient, remainder = divmod(magnitude, 10**-power)
    return quotient + (remainder != 0)


def new_quantity(value: int, fmt: str) -> Quantity:
    """Go's ``resource.NewQuantity(value, format)``: an int64 value, never printed verbatim."""
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise QuantityError(f"quantity value {value} does not fit an int64")
    return Quantity(value, 0, fmt)


def from_json(value: str | int | float) -> Quantity:
    """A YAML/JSON value as Go's ``Quantity.UnmarshalJSON`` receives it once the document is JSON.

    Numbers arrive as encoding/json prints them; strings lose only the spaces ``strings.TrimSpace``
    still sees after JSON escaping; ``true``/``false``, lists and maps fail as Go's parser fails on
    their JSON text. ``None`` is refused: Go turns ``null`` into a zero or an absent Quantity
    depending on the field, which is the caller's business.
    """
    if isinstance(value, bool):
        return parse_quantity("true" if value else "false")
    if isinstance(value, int):
        return parse_quantity(_json_int(value))
    if isinstance(value, float):
        return parse_quantity(_json_float(value))
    if isinstance(value, str):
        return parse_quantity(value.strip(_JSON_SPACE))
    if value is None:
        raise QuantityError("a quantity cannot be null")
    raise QuantityError(ERR_FORMAT_WRONG)


def _json_float(value: float) -> str:
    try:
        return json_float(value)
    except ValueError as exc:  # NaN and infinities have no JSON text
        raise QuantityError(str(exc)) from None


def canonical(value: str | int | float) -> str:
    """The spelling KubeVirt prints for a Quantity value read from YAML/JSON."""
    return str(from_json(value))


def _json_int(value: int) -> str:
    """An integer's JSON text; go-yaml reads integers beyond int64/uint64 as floats."""
    if _INT64_MIN <= value < 1 << 64:
        return str(value)
    try:
        return _json_float(float(value))
    except OverflowError:  # beyond float64 go-yaml keeps the scalar as a string
        return str(value)


def overcommit_request(guest: Quantity, percent: int) -> Quantity:
    """The memory request KubeVirt derives from an instance type's ``overcommitPercent``.

    ``pkg/instancetype/apply/memory.go`` computes ``int64(float32(guest.Value()) * (1 -
    float32(percent)/100))`` in single precision, rounding after every operation, and wraps the
    result in ``NewQuantity`` with the guest's format: 512M at 80 % gives 102399992, not 102400000.
    """
    ratio = f32(1.0 - f32(int_to_f32(percent) / 100.0))
    product = f32(int_to_f32(guest.value()) * ratio)
    requested = int(product)  # truncation toward zero
    if not _INT64_MIN <= requested <= _INT64_MAX:
        requested = _INT64_MIN  # what amd64's float-to-int64 conversion yields out of range
    return new_quantity(requested, guest.format)
