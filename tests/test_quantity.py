"""Quantities against apimachinery v0.34: the spec's examples, the conformance corpus, Go's quirks."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, TESTDATA
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kubectl_instancetype.quantity import (
    ERR_FORMAT_WRONG,
    ERR_NUMERIC,
    ERR_SUFFIX,
    Quantity,
    QuantityError,
    canonical,
    from_json,
    json_float,
    new_quantity,
    overcommit_request,
    parse_quantity,
)
from kubectl_instancetype.yamlio.load import load_stream

DATA = TESTDATA / "quantity"
CASES = CONFORMANCE / "cases"

# input -> String(): spec §5.8.1, §13.1 #11, and Go's rules case by case.
CANONICAL = [
    # spec §5.8.1 examples
    ("2Gi", "2Gi"), ("2048Mi", "2Gi"), ("1024Mi", "1Gi"), ("1.5Gi", "1536Mi"), ("0.5Gi", "512Mi"),
    ("512M", "512M"), ("2000M", "2G"), ("1.5G", "1500M"), ("1073741824", "1073741824"),
    ("1000000000", "1G"), ("0Mi", "0"),
    # zero in every spelling
    ("0", "0"), ("-0", "0"), ("+0", "0"), ("0.0", "0"), ("000", "0"), ("0e5", "0"), ("0.0Ki", "0"),
    ("-", "0"), (".", "0"), ("e5", "0"),  # Go's scanner accepts a number without digits as 0
    # the verbatim rule: a canonical parse keeps its text, even with a sign or leading zeros
    ("+1Gi", "+1Gi"), ("01Gi", "01Gi"), ("-1Gi", "-1Gi"), ("1.500G", "1.500G"), ("+100m", "+100m"),
    ("1e3", "1e3"), ("1E9", "1E9"), ("1e+3", "1e+3"), ("12345.678", "12345.678"), ("1025Ki", "1025Ki"),
    # not canonical: recomputed
    ("+1024Ki", "1Mi"), ("08Ki", "8Ki"), ("0.5", "500m"), ("1.0Gi", "1Gi"), ("2.0G", "2G"), ("1000", "1k"),
    ("1.25Gi", "1280Mi"), ("1048576Ki", "1Gi"), ("65536Mi", "64Gi"), ("1e9", "1e9"), ("1.5e9", "1500e6"),
    ("10e8", "1e9"), ("1000e-3", "1"), ("1.1", "1100m"), ("-0.5", "-500m"), ("0.1", "100m"),
    # BinarySI below 1024 or with a fraction is shown as DecimalSI
    ("0.1Gi", "107374182400m"), ("0.5Ki", "512"), ("0.1Ki", "102400m"), ("1.5Ki", "1536"),
    ("-0.5Ki", "-512"), ("1023.5Ki", "1048064"), ("1.000000001Ki", "1024000001024n"),
    # rounding up to nano, away from zero
    ("0.9n", "1n"), ("1.5n", "2n"), ("-1.5n", "-2n"), ("1e-12", "1e-9"), ("0.0000000001", "1n"),
    ("1234567890123456789e-30", "1e-9"), ("0.000000001Ki", "1024n"), ("0.000000000001Ki", "2n"),
    # the BinarySI cap at MaxInt64 (decimal quantities are not capped)
    ("8Ei", "9223372036854775807"), ("-8Ei", "-9223372036854775807"), ("7Ei", "7Ei"), ("1Ei", "1Ei"),
    ("16Ei", "9223372036854775807"), ("9223372036854775808", "9223372036854775808"),
    ("18446744073709551616", "18446744073709551616"), ("100E", "100E"),
    ("123456789012345678901", "123456789012345678901"),
    # v0.34 drops the DecimalSI suffix beyond E (10^18): 10^21 prints "1" (fixed upstream later)
    ("1000E", "1"), ("1000000000000000000000", "1"), ("10000E", "10"),
    # exponents: int32 arithmetic, DecimalExponent printing
    ("1e2000000000", "100e1999999998"), ("1e4294967297", "10"), ("1e-9", "1e-9"), ("1.5e-7", "150e-9"),
    ("1e+21", "1e+21"), ("10e20", "1e21"), ("123456789012345678901e5", "12345678901234567890100e3"),
    ("1234567890123456789e1", "12345678901234567890"),
]

ERRORS = [
    ("", ERR_FORMAT_WRONG), ("abc", ERR_FORMAT_WRONG), ("1 Gi", ERR_FORMAT_WRONG), ("1.2.3", ERR_FORMAT_WRONG),
    ("1kB", ERR_FORMAT_WRONG), ("1Gi ", ERR_FORMAT_WRONG), (" 1Gi", ERR_FORMAT_WRONG), ("1e5.5", ERR_FORMAT_WRONG),
    ("--1", ERR_SUFFIX), ("1Gi\n", ERR_FORMAT_WRONG), ("١", ERR_FORMAT_WRONG),
    ("1K", ERR_SUFFIX), ("1e", ERR_SUFFIX), ("1E", "ok"), ("1Gi5", ERR_SUFFIX), ("1e+", ERR_SUFFIX),
    ("1ee5", ERR_SUFFIX), ("1mi", ERR_SUFFIX), ("1e99999999999999999999", ERR_SUFFIX), ("1KiB5", ERR_FORMAT_WRONG),
    (".e-10", ERR_NUMERIC), ("-.e-10", ERR_NUMERIC),
]

# text -> (Value(), MilliValue())
VALUES = [
    ("1Gi", 1073741824, 1073741824000), ("1.1", 2, 1100), ("-1.1", -2, -1100), ("100m", 1, 100),
    ("0.1Gi", 107374183, 107374182400), ("1n", 1, 1), ("-1n", -1, -1), ("0", 0, 0),
    ("-1.5n", 1, 1),  # inf.Dec path: Go's truncating division plus one moves negatives towards zero
    ("8Ei", 9223372036854775807, -1000),  # MilliValue of the cap overflows int64 and wraps
    ("1000E", 0, 0), ("10E", 0, 0),  # int64Amount overflow in a scaling loop gives 0
    ("9223372036854775807", 9223372036854775807, -1000),  # one multiplication by 1000: wraps
    ("10Gi", 10737418240, 10737418240000), ("1.5Gi", 1610612736, 1610612736000),
]

JSON_VALUES: list[tuple[Any, str]] = [
    (1073741824, "1073741824"), (1000000000, "1G"), (0, "0"), (-5, "-5"), (2**63, "9223372036854775808"),
    (2**64 - 1, "18446744073709551615"), (2**64, "18446744073709552k"), (10**25, "10e24"),
    (1.5, "1500m"), (1e9, "1G"), (1.5e9, "1500M"), (0.1, "100m"), (1e21, "1e+21"), (1e-7, "100e-9"),
    (-0.0, "0"), (2.5e-10, "1e-9"), (1e20, "100E"),
    (" 1Gi ", "1Gi"), ("\u00a01Gi\u3000", "1Gi"), (" 0 ", "0"), ("1.5Gi", "1536Mi"),
]

JSON_ERRORS: list[tuple[Any, str]] = [
    (True, ERR_FORMAT_WRONG), (False, ERR_FORMAT_WRONG), ([1], ERR_FORMAT_WRONG), ({"a": 1}, ERR_FORMAT_WRONG),
    ("1Gi\n", ERR_FORMAT_WRONG), ("\t1Gi", ERR_FORMAT_WRONG), ("1Gi\u2028", ERR_FORMAT_WRONG),
    (float("nan"), "json: unsupported value: NaN"), (float("inf"), "json: unsupported value: +Inf"),
    (None, "a quantity cannot be null"),
]

# float64 -> encoding/json text
GO_FLOATS = [
    (1e9, "1000000000"), (1.5, "1.5"), (0.1, "0.1"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
    (1.2345678901234569e23, "1.2345678901234569e+23"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (1e-6, "0.000001"),
    (-0.0, "-0"), (0.0, "0"), (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    (1e-10, "1e-10"), (100.0, "100"), (-2.5, "-2.5"), (123456.789e3, "123456789"), (3e-5, "0.00003"),
]


@pytest.mark.parametrize(("text", "expected"), CANONICAL)
def test_canonical_spelling(text: str, expected: str) -> None:
    assert str(parse_quantity(text)) == expected


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_parse_errors(text: str, message: str) -> None:
    if message == "ok":
        assert str(parse_quantity(text)) == "1E"
        return
    with pytest.raises(QuantityError) as caught:
        parse_quantity(text)
    assert caught.value.message == message == str(caught.value)


@pytest.mark.parametrize(("text", "value", "milli"), VALUES)
def test_value_and_milli_value(text: str, value: int, milli: int) -> None:
    q = parse_quantity(text)
    assert (q.value(), q.milli_value()) == (value, milli)


@pytest.mark.parametrize(("value", "expected"), JSON_VALUES)
def test_from_json(value: Any, expected: str) -> None:
    assert canonical(value) == expected


@pytest.mark.parametrize(("value", "message"), JSON_ERRORS)
def test_from_json_errors(value: Any, message: str) -> None:
    with pytest.raises(QuantityError) as caught:
        from_json(value)
    assert caught.value.message == message


@pytest.mark.parametrize(("value", "expected"), GO_FLOATS)
def test_json_float(value: float, expected: str) -> None:
    assert json_float(value) == expected


def test_formats_and_new_quantity() -> None:
    assert [parse_quantity(t).format for t in ("1", "1k", "1Ki", "1e3", "0.5Ki", "0Ki")] == [
        "DecimalSI", "DecimalSI", "BinarySI", "DecimalExponent", "BinarySI", "BinarySI",
    ]
    assert parse_quantity("0.0000001Ki").format == "DecimalSI"  # a BinarySI fraction below 1
    assert [str(new_quantity(v, "BinarySI")) for v in (912680576, 1073741824, 16320875520, 1023, -2048)] == [
        "912680576", "1Gi", "15938355Ki", "1023", "-2Ki",
    ]
    assert [str(new_quantity(435200000, f)) for f in ("DecimalSI", "DecimalExponent", "")] == [
        "435200k", "435200e3", "435200e3",
    ]
    with pytest.raises(QuantityError):
        new_quantity(2**63, "DecimalSI")


def test_compare_by_value() -> None:
    one = parse_quantity("1Gi")
    assert one == parse_quantity("1024Mi") == parse_quantity("1073741824") and hash(one) == hash(
        parse_quantity("1.0Gi")
    )
    assert parse_quantity("1536Mi").cmp(parse_quantity("1.5Gi")) == 0
    assert parse_quantity("1G") < parse_quantity("1Gi") and parse_quantity("1Gi") > parse_quantity("1G")
    assert parse_quantity("-1") < parse_quantity("0") < parse_quantity("1n")
    assert parse_quantity("1e2000000000").cmp(parse_quantity("8Ei")) == 1
    assert parse_quantity("1e-9").cmp(parse_quantity("1n")) == 0
    assert parse_quantity("-1e30").cmp(parse_quantity("-1e29")) == -1
    assert parse_quantity("0Mi").is_zero() and not parse_quantity("1n").is_zero()
    assert [parse_quantity(t).sign() for t in ("-1", "0", "2")] == [-1, 0, 1]
    assert Quantity(0, 5) == Quantity(0, -3) and hash(Quantity(0, 5)) == hash(Quantity(0, -3))


# -- the conformance corpus: every Quantity KubeVirt passes through unchanged, with its spelling there --


def _corpus_pairs() -> list[tuple[str, str, str, str]]:
    """(case, field, input as JSON, expected spelling) from the corpus' VM-mode expectations.

    Taken where the value provably passes through: a VM without an instance type keeps its own
    quantities; an instance type's memory.guest/maxGuest are copied into the VM; overcommitPercent
    derives requests.memory from the guest.
    """
    pairs = []
    for case in sorted(p.parent for p in CASES.glob("*/expected.json")):
        docs = [d.data for d in load_stream((case / "input.yaml").read_text(), str(case))]
        vm, expected = docs[-1], json.loads((case / "expected.json").read_text())
        if not vm["spec"].get("instancetype"):
            pairs += [(case.name, f, v, e) for f, v, e in _walk(vm, expected, "")]
            continue
        name = vm["spec"]["instancetype"].get("name")
        found = [d for d in docs if "Instancetype" in d.get("kind", "") and d["metadata"]["name"] == name]
        if len(found) != 1 or any(d.get("kind") == "ControllerRevision" for d in docs):
            continue
        memory = found[0]["spec"].get("memory", {})
        domain = expected["spec"]["template"]["spec"]["domain"]
        for key in ("guest", "maxGuest"):
            if key in memory and key in domain.get("memory", {}):
                pairs.append((case.name, f"instancetype {key}", memory[key], domain["memory"][key]))
        if memory.get("overcommitPercent"):
            request = domain["resources"]["requests"]["memory"]
            pairs.append((case.name, f"overcommit {memory['overcommitPercent']}", memory["guest"], request))
    return [(c, f, json.dumps(v), e) for c, f, v, e in pairs]


def _walk(data: Any, expected: Any, path: str) -> list[tuple[str, Any, str]]:
    """Quantity-valued leaves (memory sizes, requests/limits, disk capacities) found in both trees."""
    if isinstance(data, dict) and isinstance(expected, dict):
        return [x for k in data if k in expected for x in _walk(data[k], expected[k], f"{path}.{k}")]
    if isinstance(data, list) and isinstance(expected, list) and len(data) == len(expected):
        return [x for i, (a, b) in enumerate(zip(data, expected, strict=True)) for x in _walk(a, b, f"{path}[{i}]")]
    parent, _, key = path.rpartition(".")
    quantity = parent.endswith((".requests", ".limits")) or (
        key in ("guest", "maxGuest", "capacity") and parent.endswith((".memory", ".emptyDisk"))
    )
    return [(path.lstrip("."), data, expected)] if quantity and isinstance(expected, str) else []


def _read_tsv(path: Path) -> list[list[str]]:
    lines = path.read_text().splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


CORPUS_TSV = DATA / "conformance.tsv"
CORPUS = _read_tsv(CORPUS_TSV)


@pytest.mark.parametrize(("case", "field", "value", "expected"), CORPUS, ids=[f"{r[0]}:{r[1]}" for r in CORPUS])
def test_conformance_spelling(case: str, field: str, value: str, expected: str) -> None:
    if field.startswith("overcommit "):
        request = overcommit_request(from_json(json.loads(value)), int(field.split()[1]))
        assert str(request) == expected
    else:
        assert canonical(json.loads(value)) == expected


@pytest.mark.skipif(not CASES.is_dir(), reason="testdata/conformance is missing: run scripts/refresh-corpus")
def test_conformance_table_is_current(update_goldens: bool) -> None:
    """testdata/quantity/conformance.tsv holds exactly what the corpus says (--update-goldens rewrites it)."""
    rows = _corpus_pairs()
    if update_goldens:
        header = "# case\tfield\tinput (JSON)\texpected spelling  (from the shared conformance corpus)\n"
        CORPUS_TSV.write_text(header + "".join("\t".join(r) + "\n" for r in rows))
    assert [list(r) for r in rows] == CORPUS
    assert {r[3] for r in rows} >= {"2Gi", "1500M", "107374182400m", "1500e6", "+1Gi", "01Gi", "1E9"}


# -- overcommit: binary32 arithmetic, checked against C single precision (testdata/quantity/overcommit.tsv) --

TV_106 = [
    ("1Gi", 15, 912680576, "912680576"), ("1Gi", 1, 1063004416, "1063004416"), ("2Gi", 50, 1073741824, "1Gi"),
    ("4Gi", 10, 3865470464, "3865470464"), ("8Gi", 25, 6442450944, "6Gi"), ("128Mi", 10, 120795952, "120795952"),
    ("3Gi", 33, 2158220800, "2158220800"), ("16Gi", 5, 16320875520, "15938355Ki"), ("1Gi", 100, 0, "0"),
    ("512M", 15, 435200000, "435200k"), ("512M", 80, 102399992, "102399992"), ("1G", 10, 900000000, "900M"),
    ("1e9", 10, 900000000, "900e6"),  # DecimalExponent guest: the request keeps the format
]
OVERCOMMIT = [(g, int(p), int(b), s) for g, p, b, s in _read_tsv(DATA / "overcommit.tsv")]


@pytest.mark.parametrize(("guest", "percent", "requested", "printed"), TV_106 + OVERCOMMIT)
def test_overcommit_request(guest: str, percent: int, requested: int, printed: str) -> None:
    result = overcommit_request(parse_quantity(guest), percent)
    assert (result.value(), str(result), result.format) == (requested, printed, parse_quantity(guest).format)


# -- properties --

SUFFIXES = ["", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
quantity_texts = st.builds(
    lambda sign, whole, frac, suffix: f"{sign}{whole}{frac}{suffix}",
    st.sampled_from(["", "+", "-"]),
    st.from_regex(r"[0-9]{0,22}", fullmatch=True),
    st.one_of(st.just(""), st.from_regex(r"\.[0-9]{0,12}", fullmatch=True)),
    st.one_of(st.sampled_from(SUFFIXES), st.builds("{}{}".format, st.sampled_from("eE"), st.integers(-40, 40))),
)


def _exact(q: Quantity) -> Fraction:
    return q.unscaled * Fraction(10) ** q.scale


def _oracle(text: str) -> Fraction:
    """The value Go gives ``text``, computed independently: exact, rounded up to nano, BinarySI capped."""
    number = text
    for suffix in sorted(SUFFIXES, key=len, reverse=True):
        if suffix and number.endswith(suffix) and not number[: -len(suffix)].endswith(("e", "E")):
            number, multiplier = number[: -len(suffix)], _MULTIPLIERS[suffix]
            break
    else:
        number, _, exponent = number.replace("E", "e").partition("e")
        multiplier = Fraction(10) ** int(exponent or 0)
    sign = -1 if number.startswith("-") else 1
    digits = number.lstrip("+-")
    whole, _, frac = digits.partition(".")
    exact = Fraction(int(whole or "0")) + (Fraction(int(frac), 10 ** len(frac)) if frac else 0)
    value = exact * multiplier
    nanos = -((-value * 10**9) // 1)  # ceil: rounding away from zero on the magnitude
    if text.endswith("i") and nanos > (2**63 - 1) * 10**9:
        nanos = (2**63 - 1) * 10**9
    return sign * Fraction(nanos, 10**9)


_MULTIPLIERS = {
    **{s: Fraction(10) ** e for s, e in zip("numkMGTPE", (-9, -6, -3, 3, 6, 9, 12, 15, 18), strict=True)},
    **{s: Fraction(2) ** (10 * (i + 1)) for i, s in enumerate(("Ki", "Mi", "Gi", "Ti", "Pi", "Ei"))},
}


@settings(max_examples=400, deadline=None)
@given(quantity_texts)
@example("1000E")
@example("+1.500G")
def test_print_then_parse_is_stable(text: str) -> None:
    try:
        q = parse_quantity(text)
    except QuantityError as exc:  # "", or "." with an exponent below nano: no digit for inf.Dec
        assert exc.message == (ERR_FORMAT_WRONG if text == "" else ERR_NUMERIC)
        assert not any(c.isdigit() for c in text.lower().partition("e")[0])
        return
    printed = str(q)
    again = parse_quantity(printed)
    assert str(again) == printed
    assert _exact(q) == _oracle(text)
    if q.format == "DecimalSI" and not q.is_zero() and _exact(q) % 10**21 == 0:
        assert _exact(again) != _exact(q)  # v0.34 drops the suffix beyond E: the one lossy spelling
    else:
        assert again == q
