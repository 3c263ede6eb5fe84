"""Which comments a YAML text holds, found from the scanner's tokens, so a rewrite can prove it kept them.

ruamel.yaml's round-trip dumper drops comments it cannot place (inside a flow collection that is written
again); :mod:`.roundtrip` refuses such a rewrite rather than lose a comment silently. Every token covers
its own text (block scalars included), so a ``#`` outside every token, at a line start or after a blank,
starts a comment that runs to the end of its line.
"""

from __future__ import annotations

from collections import Counter

from .load import tokens


def comments(text: str) -> Counter[str]:
    """The comments of ``text`` (their text after ``#``, stripped), with how often each occurs."""
    covered = bytearray(len(text) + 1)
    try:
        for token in tokens(text):
            start, end = token.start_mark.index, token.end_mark.index
            covered[start:end] = b"\x01" * (end - start)
    except Exception:  # text that does not scan has no comments we could vouch for
        return Counter()
    found: Counter[str] = Counter()
    pos = text.find("#")
    while pos != -1:
        if not covered[pos] and (pos == 0 or text[pos - 1] in " \t\r\n"):
            end = text.find("\n", pos)
            end = len(text) if end == -1 else end
            found[text[pos + 1 : end].strip()] += 1
            pos = text.find("#", end)
        else:
            pos = text.find("#", pos + 1)
    return found


def lost(before: str, after: str) -> str | None:
    """A comment of ``before`` that ``after`` no longer holds (None when every one is kept)."""
    if "#" not in before:
        return None  # no comment to lose (the common VM): no scan
    missing = comments(before) - comments(after)
    return next(iter(missing), None)
