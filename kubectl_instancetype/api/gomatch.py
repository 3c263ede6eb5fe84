"""Go's ``path/filepath.Match`` on Linux: shell patterns where ``*`` and ``?`` never cross a ``/``.

KubeVirt matches a VM's machine type against the cluster's ``emulatedMachines`` patterns with it
(pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go, ``validateEmulatedMachine``).
Python's ``fnmatch`` differs (``[!…]`` negation, ``/`` matched by ``*``, no escapes, no malformed patterns), so
this follows Go's match.go step by step, byte by byte; a malformed pattern matches nothing, as KubeVirt
ignores the error.
"""

from __future__ import annotations

import functools

SEPARATOR = "/"


class BadPattern(ValueError):
    """Go's ``filepath.ErrBadPattern``."""


@functools.lru_cache(maxsize=4096)  # a function of two strings: a file of VMs asks the same few pairs again
def match(pattern: str, name: str) -> bool:
    """Whether ``name`` matches ``pattern`` (False for a malformed pattern, like KubeVirt's ``ok, _ :=``)."""
    try:
        return _match(pattern.encode(errors="surrogatepass"), name.encode(errors="surrogatepass"))
    except BadPattern:
        return False


def _match(pattern: bytes, name: bytes) -> bool:
    while pattern:
        star, chunk, pattern = _scan_chunk(pattern)
        if star and not chunk:
            return b"/" not in name  # a trailing * matches the rest unless it has a /
        rest = _match_chunk(chunk, name)
        if rest is not None and (not rest or pattern):  # the last chunk must use up the name
            name = rest
            continue
        if star and (skipped := _after_star(chunk, name, last=not pattern)) is not None:
            name = skipped
            continue
        return False
    return not name


def _after_star(chunk: bytes, name: bytes, last: bool) -> bytes | None:
    """The rest of ``name`` once the star before ``chunk`` skipped 1, 2, … bytes (never a /) and ``chunk``
    matched, the last chunk using up the name; None when no skip works."""
    for i in range(len(name)):
        if name[i : i + 1] == b"/":
            break
        rest = _match_chunk(chunk, name[i + 1 :])
        if rest is not None and not (last and rest):
            return rest
    return None


def _scan_chunk(pattern: bytes) -> tuple[bool, bytes, bytes]:
    """Leading stars, then the chunk up to the next star outside a class, then the rest."""
    star = False
    while pattern[:1] == b"*":
        pattern, star = pattern[1:], True
    in_range, i = False, 0
    while i < len(pattern):
        c = pattern[i : i + 1]
        if c == b"\\" and i + 1 < len(pattern):
            i += 1
        elif c == b"[":
            in_range = True
        elif c == b"]":
            in_range = False
        elif c == b"*" and not in_range:
            return star, pattern[:i], pattern[i:]
        i += 1
    return star, pattern, b""


def _rune(data: bytes) -> tuple[int, int]:
    """Go's ``utf8.DecodeRuneInString``: the code point and its length (U+FFFD, 1 when invalid)."""
    for size in (1, 2, 3, 4):
        try:
            return ord(data[:size].decode()), size
        except UnicodeDecodeError:
            continue
    return 0xFFFD, 1


def _match_chunk(chunk: bytes, s: bytes) -> bytes | None:
    """What is left of ``s`` after ``chunk`` matched its start, or None; BadPattern for a malformed chunk.
    After a failure the chunk is still read to the end, to find a malformed pattern as Go does."""
    failed = False
    while chunk:
        failed = failed or not s
        head = chunk[:1]
        if head == b"[":
            r = -1
            if not failed:
                r, n = _rune(s)
                s = s[n:]
            chunk = chunk[1:]
            negated = chunk[:1] == b"^"
            if negated:
                chunk = chunk[1:]
            matched, ranges = False, 0
            while True:
                if chunk[:1] == b"]" and ranges > 0:
                    chunk = chunk[1:]
                    break
                lo, chunk = _escaped(chunk)
                hi = lo
                if chunk[:1] == b"-":
                    hi, chunk = _escaped(chunk[1:])
                matched = matched or lo <= r <= hi
                ranges += 1
            failed = failed or matched == negated
            continue
        if head == b"?":
            if not failed:
                failed = s[:1] == b"/"
                s = s[_rune(s)[1] :]
            chunk = chunk[1:]
            continue
        if head == b"\\":
            chunk = chunk[1:]
            if not chunk:
                raise BadPattern(chunk)
        if not failed:
            failed = chunk[:1] != s[:1]
            s = s[1:]
        chunk = chunk[1:]
    return None if failed else s


def _escaped(chunk: bytes) -> tuple[int, bytes]:
    """Go's ``getEsc``: one possibly escaped character of a class, and the rest of the chunk."""
    if not chunk or chunk[:1] in (b"-", b"]"):
        raise BadPattern(chunk)
    if chunk[:1] == b"\\":
        chunk = chunk[1:]
        if not chunk:
            raise BadPattern(chunk)
    r, n = _rune(chunk)
    if r == 0xFFFD and n == 1:
        raise BadPattern(chunk)
    rest = chunk[n:]
    if not rest:
        raise BadPattern(chunk)
    return r, rest
