"""XML text and attribute values (the JUnit report): a string as well-formed XML 1.0 character data.

ElementTree quotes ``&``, ``<``, ``>`` and ``"``, but writes the characters XML 1.0 forbids as they are
(U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, lone surrogates, U+FFFE, U+FFFF), and a reader then refuses the
whole report. Those are written as the text report writes control characters (``\\x01``, ``\\udc80``).
"""

from __future__ import annotations

import re

_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text(value: str) -> str:
    """``value`` with each character XML 1.0 forbids written as a visible escape."""
    return _ILLEGAL.sub(_escape, value)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
