"""The glob patterns Argo CD matches a rule's group and kind with (util/glob/glob.go: github.com/gobwas/glob
compiled without separators).

``*`` (and ``**``) any text, ``?`` one character, ``[abc]``, ``[a-z]`` and ``[!abc]`` classes, ``{a,b}``
alternatives (which may hold patterns), ``\\`` escaping the next character; anything else stands for itself.
A pattern gobwas cannot compile matches nothing (``glob.Match`` logs the error and returns false).
"""

from __future__ import annotations

import functools
import re


class BadGlob(ValueError):
    """A pattern gobwas/glob refuses to compile."""


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        body, end = _sequence(pattern, 0, in_braces=False)
    except BadGlob:
        return None
    if end != len(pattern):
        return None
    return re.compile(body + r"\Z", re.DOTALL)


def glob_match(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the gobwas glob ``pattern`` (False for a pattern it cannot compile)."""
    compiled = _compiled(pattern)
    return compiled is not None and compiled.match(text) is not None


def valid(pattern: str) -> bool:
    return _compiled(pattern) is not None


def _sequence(pattern: str, i: int, in_braces: bool) -> tuple[str, int]:
    """The regular expression of ``pattern[i:]`` up to the end, or (inside braces) a ``,`` or ``}``."""
    out: list[str] = []
    while i < len(pattern):
        char = pattern[i]
        if in_braces and char in ",}":
            return "".join(out), i
        if char == "*":
            while i < len(pattern) and pattern[i] == "*":
                i += 1
            out.append(".*")
            continue
        if char == "?":
            out.append(".")
        elif char == "[":
            text, i = _class(pattern, i + 1)
            out.append(text)
            continue
        elif char == "{":
            text, i = _alternatives(pattern, i + 1)
            out.append(text)
            continue
        elif char == "\\":
            if i + 1 >= len(pattern):
                raise BadGlob("escape at the end")
            i += 1
            out.append(re.escape(pattern[i]))
        elif char == "}" or char == "]":
            raise BadGlob(f"unexpected {char}")
        else:
            out.append(re.escape(char))
        i += 1
    if in_braces:
        raise BadGlob("unclosed {")
    return "".join(out), i


def _alternatives(pattern: str, i: int) -> tuple[str, int]:
    options: list[str] = []
    while True:
        text, i = _sequence(pattern, i, in_braces=True)
        options.append(text)
        if pattern[i] == "}":
            return "(?:" + "|".join(options) + ")", i + 1
        i += 1  # the comma


def _class(pattern: str, i: int) -> tuple[str, int]:
    negate = i < len(pattern) and pattern[i] == "!"
    if negate:
        i += 1
    items: list[str] = []
    while i < len(pattern) and pattern[i] != "]":
        char = pattern[i]
        if char == "\\":
            i += 1
            if i >= len(pattern):
                raise BadGlob("escape at the end")
            char = pattern[i]
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            high = pattern[i + 2]
            if high < char:
                raise BadGlob("inverted range")
            items.append(f"{re.escape(char)}-{re.escape(high)}")
            i += 3
            continue
        items.append(re.escape(char))
        i += 1
    if i >= len(pattern) or not items:
        raise BadGlob("unclosed or empty [")
    return ("[^" if negate else "[") + "".join(items) + "]", i + 1
