"""Numbers printed and rounded the way Go does: encoding/json and go-yaml float text, float32 arithmetic.

KubeVirt's output goes through Go, so floats in YAML, quantities given as JSON numbers and the memory
overcommit computation must follow Go's rules to the last digit.
"""

from __future__ import annotations

import struct


def json_float(value: float) -> str:
    """A float64 as Go's encoding/json prints it: shortest round-trip digits, 'f' notation unless
    the magnitude is below 1e-6 or at least 1e21, then 'e' notation (``1e+21``, ``1e-7``)."""
    if value != value or value in (float("inf"), float("-inf")):
        shown = "NaN" if value != value else ("+Inf" if value > 0 else "-Inf")
        raise ValueError(f"json: unsupported value: {shown}")
    sign = "-" if str(value).startswith("-") else ""
    number, _, exp = repr(abs(value)).partition("e")
    whole, _, fraction = number.partition(".")
    digits = (whole + fraction).lstrip("0").rstrip("0") or "0"
    # repr gives the same shortest round-trip digits as Go's strconv; place the decimal point:
    point = len((whole + fraction).lstrip("0")) - len(fraction) + int(exp or 0)  # digits before it
    magnitude = abs(value)
    if magnitude != 0 and (magnitude < 1e-6 or magnitude >= 1e21):
        tail = "." + digits[1:] if len(digits) > 1 else ""
        power = point - 1
        return f"{sign}{digits[0]}{tail}e{'-' if power < 0 else '+'}{abs(power):0{1 if power < 0 else 2}d}"
    if digits == "0":
        return sign + "0"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


def yaml_float(value: float) -> str:
    """Go's shortest ``%g`` form (``1.5``, ``1e-05``) with a ``.0`` kept so it always reads as a float."""
    if value != value:
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    sign = "-" if str(value).startswith("-") else ""
    mantissa, _, exp = repr(abs(value)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    point = len(whole) + int(exp or 0) - (len(whole + frac) - len(digits))
    digits = digits.rstrip("0")
    if not digits:
        return sign + "0.0"
    x = point - 1  # decimal exponent of the first significant digit
    if x < -4 or x >= 6:  # go's FormatFloat(f, 'g', -1, 64) switches to an exponent here
        return f"{sign}{digits[0]}.{digits[1:] or '0'}e{'-' if x < 0 else '+'}{abs(x):02d}"
    if x < 0:
        return f"{sign}0.{'0' * (-x - 1)}{digits}"
    return f"{sign}{digits[:point].ljust(point, '0')}.{digits[point:] or '0'}"


def f32(value: float) -> float:
    """``value`` rounded to the nearest binary32 (exact after one float64 +, -, * or / of binary32s)."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def int_to_f32(value: int) -> float:
    """An integer rounded once, to nearest-even, to binary32 (as Go's float32(int64) does)."""
    magnitude = abs(value)
    extra = magnitude.bit_length() - 24
    if extra > 0:
        kept, dropped = divmod(magnitude, 1 << extra)
        half = 1 << (extra - 1)
        kept += dropped > half or (dropped == half and kept & 1)
        magnitude = kept << extra
    return float(-magnitude if value < 0 else magnitude)
