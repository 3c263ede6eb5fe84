"""go-yaml's mapping key order, which ``kubectl get -o yaml`` prints and we reproduce.

Keys sort by code point unless they contain digits or characters outside letters and ASCII punctuation:
then letters come after other characters and runs of digits compare as numbers (``k9`` before ``k10``).
Orders are cached per key set, since manifests repeat the same keys thousands of times.
"""

from __future__ import annotations

import re
from functools import cmp_to_key
from typing import Any

# Keys made only of characters outside this class sort the same naturally and by code point.
_UNNATURAL = re.compile(r"[^\x00-\x2f\x3a-\x5a\x61-\x7a]")
SIMPLE_KEYS: set[str] = set()  # keys known to sort the same naturally and by code point
_ORDERS: dict[tuple[str, ...], list[str]] = {}


def clear_caches() -> None:
    SIMPLE_KEYS.clear()
    _ORDERS.clear()


def cache_size() -> int:
    return len(_ORDERS)


def ordered(m: dict[str, Any]) -> list[str]:
    """The keys of ``m`` in go-yaml's order (code point order unless digits or odd symbols appear)."""
    keys = sorted(m)
    if len(keys) < 2 or SIMPLE_KEYS.issuperset(keys):
        return keys
    natural = False
    for key in keys:
        if key not in SIMPLE_KEYS:
            if _UNNATURAL.search(key):
                natural = True
            else:
                SIMPLE_KEYS.add(key)
    if not natural:
        return keys
    signature = tuple(keys)
    order = _ORDERS.get(signature)
    if order is None:
        order = _ORDERS[signature] = sorted(keys, key=cmp_to_key(_go_compare))
    return order


def _go_compare(a: str, b: str) -> int:
    return -1 if _go_less(a, b) else (1 if _go_less(b, a) else 0)


def _go_less(a: str, b: str) -> bool:
    """go-yaml's key order: letters after other characters, runs of digits compared as numbers."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x == y:
            continue
        x_letter, y_letter = x.isalpha(), y.isalpha()
        if x_letter or y_letter:
            return x < y if x_letter and y_letter else y_letter
        an = bn = 0
        if x == "0" or y == "0":  # zeros after a non-zero digit are part of a number, not padding
            j = i - 1
            while j >= 0 and a[j].isdecimal():
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        an, ai = _digits(a, i, an)
        bn, bi = _digits(b, i, bn)
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return x < y
    return len(a) < len(b)


def _digits(s: str, i: int, n: int) -> tuple[int, int]:
    """The number (wrapping like Go's int64) of the digit run at ``s[i:]``, and where the run ends."""
    while i < len(s) and s[i].isdecimal():
        n = ((n * 10 + ord(s[i]) - 48 + 2**63) % 2**64) - 2**63
        i += 1
    return n, i


class InPlace(dict):
    """A mapping whose new keys a rewrite puts where this order has them (each before the key already there
    that follows it here), not after the keys already there: what a pin writes (:mod:`..gitops.pin`, in the
    order ``kubectl get -o yaml`` shows)."""


def placed(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    """Where the keys ``new`` adds to ``old`` go: each key an :class:`InPlace` mapping puts before a key
    already there, with that key (it goes right before it); then the rest, appended after the keys already
    there in the new data's order (what a render adds: its own order is not the file's)."""
    if not isinstance(new, InPlace):
        return [], [name for name in new if name not in old]
    names = list(new)
    before: list[tuple[str, str]] = []
    after: list[str] = []
    for i, name in enumerate(names):
        if name in old:
            continue
        anchor = next((n for n in names[i + 1:] if n in old), None)
        if anchor is None:
            after.append(name)
        else:
            before.append((name, anchor))
    return before, after


def sorts_before(a: str, b: str) -> bool:
    """Whether go-yaml writes key ``a`` before key ``b`` (kubectl's order)."""
    return ordered({a: None, b: None})[0] == a
