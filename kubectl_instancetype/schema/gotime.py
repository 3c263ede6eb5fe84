"""Go's ``time.Parse(time.RFC3339, s)`` as metav1.Time decodes a timestamp, with Go's exact error text.

The API server decodes ``metadata.creationTimestamp``, ``deletionTimestamp`` and ``managedFields[].time`` with
it (apimachinery ``apis/meta/v1/time.go``); a malformed one refuses the whole object with Go's
``*time.ParseError`` text (``parsing time "now" as "2006-01-02T15:04:05Z07:00": cannot parse "now" as
"2006"``). Go's general layout parser is walked element by element here (``time/format.go``), so the element
and the rest of the value it names are Go's. A valid time is stored as Go writes it back: UTC, whole seconds.
"""

from __future__ import annotations

import re
from functools import cache

from ..records import dataclass

LAYOUT = "2006-01-02T15:04:05Z07:00"
# Go's layout, split as nextStdChunk splits it: (literal prefix, element).
_CHUNKS = (("", "2006"), ("-", "01"), ("-", "02"), ("T", "15"), (":", "04"), (":", "05"), ("", "Z07:00"))


@dataclass(frozen=True)
class Parsed:
    """A parse: ``stored`` is the time as the server writes it back, ``error`` Go's message otherwise."""

    stored: str = ""
    error: str = ""


def quote(text: str) -> str:
    """``time.quote``: double quotes; bytes outside printable ASCII as ``\\xNN``."""
    out = ['"']
    for char in text:
        if char < " " or char >= "\x80":
            out.extend(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
        else:
            out.append("\\" + char if char in '"\\' else char)
    out.append('"')
    return "".join(out)


class _Fail(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _cannot(value: str, elem: str, rest: str) -> _Fail:
    return _Fail(f"parsing time {quote(value)} as {quote(LAYOUT)}: cannot parse {quote(rest)} as {quote(elem)}")


def _digit(text: str, i: int) -> bool:
    return len(text) > i and "0" <= text[i] <= "9"


def _getnum(text: str, fixed: bool) -> tuple[int, str] | None:
    if not _digit(text, 0):
        return None
    if not _digit(text, 1):
        return None if fixed else (int(text[0]), text[1:])
    return int(text[:2]), text[2:]


def parse_rfc3339(value: str) -> Parsed:
    """``value`` parsed as Go parses an RFC 3339 time (see the module docstring)."""
    try:
        return Parsed(stored=_parse(value))
    except _Fail as fail:
        return Parsed(error=fail.message)


def _parse(value: str) -> str:
    rest = value
    fields: dict[str, int] = {}
    offset = 0
    for prefix, elem in _CHUNKS:
        if not rest.startswith(prefix):
            raise _cannot(value, prefix, rest)
        rest = rest[len(prefix):]
        hold = rest
        if elem == "Z07:00":
            offset, rest = _zone(value, rest, hold)
            continue
        number, rest, out_of_range = _element(elem, rest, value, hold)
        fields[elem] = number
        if out_of_range:
            raise _Fail(f"parsing time {quote(value)}: {out_of_range} out of range")
    if rest:
        raise _Fail(f"parsing time {quote(value)}: extra text: {quote(rest)}")
    year, month, day = fields["2006"], fields["01"], fields["02"]
    if day < 1 or day > days_in(month, year):
        raise _Fail(f"parsing time {quote(value)}: day out of range")
    seconds = ((_days(year, month, day) * 24 + fields["15"]) * 60 + fields["04"]) * 60 + fields["05"] - offset
    return _format(seconds)


def days_in(month: int, year: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days(year: int, month: int, day: int) -> int:
    """Days from 0000-03-01 (proleptic Gregorian), so that years 0 to 9999 and offsets across them work."""
    shifted = year - (month <= 2)
    era_day = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    return shifted * 365 + shifted // 4 - shifted // 100 + shifted // 400 + era_day


def _format(seconds: int) -> str:
    """Seconds since 0000-03-01T00:00:00Z written as RFC 3339 in UTC (Go's ``t.UTC().Format(RFC3339)``)."""
    days, rest = divmod(seconds, 86400)
    era, day_of_era = divmod(days, 146097)
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    year = era * 400 + year_of_era + (month <= 2)
    hour, rest = divmod(rest, 3600)
    minute, second = divmod(rest, 60)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def _element(elem: str, rest: str, value: str, hold: str) -> tuple[int, str, str]:
    """One numeric element: (number, rest, the name of the range it is out of, or "")."""
    if elem == "2006":
        if len(rest) < 4 or not rest[:4].isdigit() or not rest[:4].isascii():
            raise _cannot(value, elem, hold)
        return int(rest[:4]), rest[4:], ""
    got = _getnum(rest, elem != "15")
    if got is None:
        raise _cannot(value, elem, hold)
    number, rest = got
    limits = {"01": ("month", 1, 12), "02": ("day", 0, 99), "15": ("hour", 0, 23), "04": ("minute", 0, 59),
              "05": ("second", 0, 59)}
    name, low, high = limits[elem]
    if elem == "05" and len(rest) >= 2 and rest[0] in ".," and _digit(rest, 1):
        n = 2
        while _digit(rest, n):
            n += 1
        rest = rest[n:]  # a fraction of a second the layout does not name is read and dropped
    return number, rest, "" if low <= number <= high or elem == "02" else name


def _zone(value: str, rest: str, hold: str) -> tuple[int, str]:
    if rest.startswith("Z"):
        return 0, rest[1:]
    if len(rest) < 6 or rest[3] != ":":
        raise _cannot(value, "Z07:00", hold)
    sign, hour, minute = rest[0], _getnum(rest[1:3], True), _getnum(rest[4:6], True)
    if hour is None or minute is None:
        raise _cannot(value, "Z07:00", hold)
    if minute[0] > 60 or hour[0] > 24:  # Go reports the last range it finds out of range, before the sign
        what = "minute" if minute[0] > 60 else "hour"
        raise _Fail(f"parsing time {quote(value)}: time zone offset {what} out of range")
    if sign not in "+-":
        raise _cannot(value, "Z07:00", hold)
    seconds = (hour[0] * 60 + minute[0]) * 60
    return (seconds if sign == "+" else -seconds), rest[6:]


def is_date_time(text: str) -> bool:
    """strfmt's ``IsDateTime`` (go-openapi's, which kube-openapi forks): a full date (``time.Parse
    ("2006-01-02")``) before the first ``t`` (case folded), then a time matching ``DateTimePattern`` with hours,
    minutes and seconds compared as text (what follows a second ``t`` is ignored, and the fraction's separator
    may be any character: the pattern's '.' is unescaped). Both the API server and KubeVirt's webhook ask it."""
    if len(text) < 4:
        return False
    parts = text.lower().split("t")
    if len(parts) < 2 or not _is_date(parts[0]):
        return False
    match = _time_re().match(parts[1])
    return match is not None and match[1] <= "23" and match[2] <= "59" and match[3] <= "59"


def _is_date(text: str) -> bool:
    match = _date_re().match(text)
    if match is None:
        return False
    year, month, day = (int(group) for group in match.groups())
    return 1 <= month <= 12 and 1 <= day <= days_in(month, year)


@cache
def _time_re() -> re.Pattern[str]:
    """strfmt's DateTimePattern, applied to the part after the first "t" (compiled on first use)."""
    return re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))\Z")


@cache
def _date_re() -> re.Pattern[str]:
    """A full-date (compiled on first use)."""
    return re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
