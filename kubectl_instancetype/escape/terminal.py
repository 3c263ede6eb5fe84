"""Terminal text: a string as one line of data for a terminal and a CI log.

Control characters (C0, DEL, C1), line and paragraph separators, the bidirectional overrides and lone surrogates
are written as escapes (``\\n``, ``\\x1b``, ``\\u202e``), so that a value can neither move the cursor, set a window
title, reorder what is shown nor start a line of its own. A CI runner also reads each output line as a possible
workflow command: GitHub's runner takes a line whose first non-blank characters are ``::``
(``ActionCommand.TryParseV2`` trims leading white space) and one holding ``##[`` anywhere (the older
``TryParse``), so a value that would begin with ``::`` has its first colon escaped, and ``##[`` never appears.
"""

from __future__ import annotations

from functools import cache

_C0_C1 = (*range(0x20), 0x7F, *range(0x80, 0xA0))
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_SURROGATES = range(0xD800, 0xE000)  # a name that is not UTF-8, read with surrogateescape: no output encodes them


@cache
def _escapes() -> dict[int, str]:
    """The table of :func:`one_line` (built on first use: its 2,300 entries cost a start that prints nothing to
    escape half a millisecond)."""
    return {c: f"\\x{c:02x}" for c in _C0_C1} | {c: f"\\u{c:04x}" for c in (0x2028, 0x2029, *_BIDI, *_SURROGATES)} | {
        ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t",
    }


def one_line(text: str) -> str:
    """``text`` on one line, each character that could act on a terminal or a CI runner escaped."""
    out = text.translate(_escapes()).replace("##[", "#\\x23[")
    stripped = out.lstrip()
    if stripped.startswith("::"):
        out = f"{out[:len(out) - len(stripped)]}\\x3a{stripped[1:]}"
    return out


def lines(text: str) -> str:
    """``text`` with each of its lines as :func:`one_line` writes it, its line breaks kept (a unified diff of
    rendered VMs, whose block scalars hold what a manifest says)."""
    return "\n".join(one_line(line) for line in text.split("\n"))
