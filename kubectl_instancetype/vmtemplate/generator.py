"""The ``expression`` generator of parameter values, and the entropy it draws from.

Mirrors ``kubevirt.io/virt-template-engine`` ``template/generator/expressionvalue.go`` (v0.2.0, vendored by
kubevirt/kubevirt): every ``[ranges]{length}`` of ``from`` is replaced, leftmost first and the string searched
again from its start, by ``length`` characters drawn from the alphabet of ``ranges``. The alphabet is the code's,
not the user guide's: ``\\w`` is letters, digits and ``_``, ``\\a`` letters and digits, ``\\A`` ASCII
punctuation, ``\\d`` digits; ``x-y`` spans the string ``a..zA..Z0..9`` (so ``Z-a`` is refused and ``a-Z`` is
all letters); any run of letters and digits stands for itself; everything is sorted and de-duplicated.

Each character is drawn with Go's ``crypto/rand.Int(reader, len(alphabet))``. :class:`Entropy` is that reader:
the system's random source (as KubeVirt), or the documented seeded stream
``SHA-256("kv-template:<seed>:0") || SHA-256("kv-template:<seed>:1") || …`` (decimal seed, ASCII), which makes
generated values reproducible (``--seed``).
"""

from __future__ import annotations

import hashlib
import os
import re

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
ALPHANUMERIC = LETTERS + DIGITS
SYMBOLS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
MIN_LENGTH, MAX_LENGTH = 1, 255

# Go's RE2 patterns of expressionvalue.go; \w is ASCII in RE2, hence re.ASCII.
_EXPRESSION = re.compile(r"\[([a-zA-Z0-9\-\\]+)\](\{(\w+)\})", re.ASCII)
_RANGE = re.compile(r"(\\w)|(\\d)|(\\a)|(\\A)|(.-.)|([a-zA-Z0-9]+)", re.ASCII)
_GO_INT = re.compile(r"[+-]?[0-9]+\Z")  # what strconv.Atoi (base 10) reads; \w already excludes the rest


class GeneratorError(ValueError):
    """A ``from`` expression the generator refuses; the message is the engine's."""


class Entropy:
    """A reader of random bytes: the seeded stream when ``seed`` is given, else the operating system's."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._buffer = b""
        self._block = 0

    def for_parameter(self, name: str) -> Entropy:
        """The stream a parameter draws from: this one, or with a text seed (``diff``) a stream of its own
        (seed ``<seed>/<name>``), so that a generated value depends only on its own parameter."""
        if isinstance(self.seed, str):
            return Entropy(f"{self.seed}/{name}")
        return self

    def copy(self) -> Entropy:
        """A reader that goes on from where this one is, independently."""
        twin = Entropy(self.seed)
        twin._buffer, twin._block = self._buffer, self._block
        return twin

    def follow(self, other: Entropy) -> None:
        """Go on from where ``other`` (a :meth:`copy` of this reader) is."""
        self._buffer, self._block = other._buffer, other._block

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes (``io.ReadFull``)."""
        if self.seed is None:
            return os.urandom(count)
        while len(self._buffer) < count:
            self._buffer += hashlib.sha256(f"kv-template:{self.seed}:{self._block}".encode("ascii")).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out


def random_below(entropy: Entropy, limit: int) -> int:
    """Go's ``crypto/rand.Int(reader, limit)``: ``k`` bytes (enough for ``limit - 1``), the top byte masked to
    the bit length of ``limit - 1``, drawn again until the number is below ``limit``; no bytes at all when
    ``limit`` is 1."""
    if limit <= 0:
        raise ValueError("crypto/rand: argument to Int is <= 0")
    bits = (limit - 1).bit_length()
    if bits == 0:
        return 0
    size = (bits + 7) // 8
    top_bits = bits % 8 or 8
    while True:
        raw = bytearray(entropy.read(size))
        raw[0] &= (1 << top_bits) - 1
        number = int.from_bytes(raw, "big")
        if number < limit:
            return number


def _ranges_and_length(expression: str) -> tuple[str, int]:
    """``extractRangesAndLength``: the ranges between the brackets and the length between the braces."""
    brace = expression.rindex("{")
    ranges = expression[1:brace - 1]
    if not _RANGE.search(ranges):
        raise GeneratorError(f"malformed ranges syntax: {ranges}")
    text = expression[brace + 1:-1]
    if not _GO_INT.match(text):
        raise GeneratorError(f'malformed length syntax: strconv.Atoi: parsing "{text}": invalid syntax')
    length = int(text)
    if not -(2**63) <= length < 2**63:
        raise GeneratorError(f'malformed length syntax: strconv.Atoi: parsing "{text}": value out of range')
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise GeneratorError(f"range must be within [{MIN_LENGTH}-{MAX_LENGTH}] characters: {length}")
    return ranges, length


def _span(start: str, end: str) -> str:
    """``subAlphabet``: the characters from ``start`` to ``end`` in ``a..zA..Z0..9``."""
    left, right = ALPHANUMERIC.find(start), ALPHANUMERIC.find(end)
    if left == -1:
        raise GeneratorError(f"invalid start character in range: {start}")
    if right == -1:
        raise GeneratorError(f"invalid end character in range: {end}")
    if left > right:
        raise GeneratorError(f"invalid range specified: {start}-{end}")
    return ALPHANUMERIC[left:right + 1]


_CLASSES = {"\\w": LETTERS + DIGITS + "_", "\\d": DIGITS, "\\a": LETTERS + DIGITS, "\\A": SYMBOLS}


def alphabet(ranges: str) -> str:
    """``getAlphabetFromRanges``: every class, span and literal run of ``ranges``, sorted and de-duplicated."""
    parts = []
    for match in _RANGE.finditer(ranges):
        text = match.group(0)
        if text in _CLASSES:
            parts.append(_CLASSES[text])
        elif len(text) == 3 and text[1] == "-":
            parts.append(_span(text[0], text[2]))
        else:
            parts.append(text)
    if not parts:
        raise GeneratorError(f"malformed ranges syntax: {ranges}")
    return "".join(sorted(set("".join(parts))))


def _drawn(expression: str, entropy: Entropy) -> str:
    ranges, length = _ranges_and_length(expression)
    letters = alphabet(ranges)
    return "".join(letters[random_below(entropy, len(letters))] for _ in range(length))


def generate(source: str, entropy: Entropy) -> str:
    """``ExpressionValue.GenerateValue``: ``source`` with every expression replaced by drawn characters.

    As in Go, the first occurrence of the matched text is replaced and the search starts again from the
    beginning; text that is not an expression (``[a-z]`` without a length, ``{3}`` alone) stays as it is.

    Go's search from the beginning costs the string's length for every expression (quadratic). The expressions
    are drawn in one pass instead, and the pass is Go's answer when its result holds no expression: the text
    before each expression then held none either (text before the leftmost match cannot take part in a match
    that reaches the ``[`` opening the next one), so Go's search found the expressions in the same order. When
    the drawn characters spell a new expression with the text around them, Go's loop is run as it is."""
    trial = entropy.copy()
    pieces: list[str] = []
    position = 0
    for match in _EXPRESSION.finditer(source):
        pieces.append(source[position:match.start()])
        try:
            pieces.append(_drawn(match.group(0), trial))
        except GeneratorError:
            if _EXPRESSION.search("".join(pieces)) is None:  # Go reached this expression first too
                raise
            return _go_loop(source, entropy)
        position = match.end()
    pieces.append(source[position:])
    out = "".join(pieces)
    if _EXPRESSION.search(out) is not None:
        return _go_loop(source, entropy)
    entropy.follow(trial)
    return out


def _go_loop(source: str, entropy: Entropy) -> str:
    """Go's loop as it is: the leftmost expression drawn and the search started again."""
    while True:
        match = _EXPRESSION.search(source)
        if match is None:
            return source
        expression = match.group(0)
        source = source.replace(expression, _drawn(expression, entropy), 1)
