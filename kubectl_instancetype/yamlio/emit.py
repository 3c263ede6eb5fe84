"""Writing plain data as YAML the way ``kubectl get -o yaml`` prints it, and as kubectl-style JSON.

kubectl's YAML comes from go-yaml v2 (through sigs.k8s.io/yaml). This emitter makes the same choices:
keys in go-yaml's "natural" order, two-space indentation, sequences flush with their key, ``{}``/``[]``
for empty collections, literal blocks for multi-line text, plain scalars folded at a space past column
80, single quotes where a plain scalar cannot hold the text and double quotes where a resolver would read
it as something else. It quotes a little more than go-yaml so that YAML 1.1 *and* 1.2 readers (ruamel,
our loader) read back exactly the same data. It is hand-written and caches per-string decisions because
ruamel's C dumper is several times too slow for rendering thousands of VMs.

:func:`dump_yaml_commented` writes the same text with a trailing ``  # comment`` on the first line of chosen
values (a scalar, a collection, a list item): removing those comments gives :func:`dump_yaml`'s text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from json.encoder import encode_basestring as _json_str  # json's own (C) string escaping, ensure_ascii=False
from typing import Any

from ..escape.terminal import one_line
from ..gonum import yaml_float
from . import keyorder
from .keyorder import SIMPLE_KEYS as _SIMPLE_KEYS
from .load import resolve_plain

_WIDTH = 80  # go-yaml's best_width: scalars fold at the first lone space written past this column
_MAX_SIMPLE_KEY = 128  # longer keys (in UTF-8 bytes) are written as explicit "? key" entries
_PLAIN, _SINGLE, _DOUBLE, _LITERAL = range(4)

# What go-yaml will not write raw (outside its is_printable, or a BOM), plus the line and paragraph
# separators, which YAML 1.1 readers take as line breaks: any of them forces double quotes.
# Written as the (small) complements of the printable ranges: negated classes over most of Unicode take
# ~6 ms each to compile, on every start of the tool. Even this class takes 0.3 ms: ASCII text (nearly all
# text) is searched with its ASCII part, the whole class is compiled for the first other text.
_SPECIAL_ASCII = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


@cache
def _special_re() -> re.Pattern[str]:
    return re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff]")


@cache
def _escape_re() -> re.Pattern[str]:
    """The characters a double-quoted scalar escapes (compiled on first use)."""
    return re.compile(r"[\x00-\x1f\x22\x5c\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff]")


_NAMED = {
    "\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r",
    "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\u2028": "L", "\u2029": "P",
}  # fmt: skip
_BREAKS = re.compile(r"[\n\r\x85\u2028\u2029]")
# Where a plain scalar would start an indicator, a comment, a document marker or lose its spaces.
_BAD_START = re.compile(r"[-?:](?: |\Z)|[#,\[\]{}&*!|>'\"%@`]|---|\.\.\.| ")
_BAD_INSIDE = re.compile(r": |:\Z| #| \Z")

# Plain words that go-yaml, YAML 1.1 or YAML 1.2 resolve to non-strings (compared in lower case).
_WORDS = frozenset(
    ("y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "<<", "=", ".inf", "+.inf", "-.inf", ".nan")
)
_NUMBER = re.compile(  # applied with underscores removed, as go-yaml and YAML 1.1 ignore them
    r"[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\Z"
)


@cache
def _digitless_re() -> re.Pattern[str]:
    """A number without digits (compiled on first use)."""
    return re.compile(r"[-+]?(?:0[xXbBoO])?\.?\Z")  # "0x_", "-_": numbers to YAML 1.1 regexps


_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?\Z"
)
# string -> (style, text on one line, the column the text must start before to stay on one line: -1 for a
# literal block, which never does; beyond any column for a text without a space to fold at)
_STRS: dict[str, tuple[int, str, int]] = {}
_KEYS: dict[str, str] = {}  # key -> "key:" text, or "" for keys written as "? key"
_CACHE_LIMIT = 200_000
_PADDED = 64
_PADS = [" " * n for n in range(_PADDED)]


def dump_yaml(obj: Any) -> str:
    """One YAML document (no ``---``) for plain data, byte for byte as kubectl would print it."""
    if len(_STRS) > _CACHE_LIMIT or keyorder.cache_size() > _CACHE_LIMIT:
        _STRS.clear()
        _KEYS.clear()
        keyorder.clear_caches()
    out: list[str] = []
    kind = type(obj)
    try:
        if kind is dict and obj:
            _map(obj, 0, out, "")
        elif kind is list and obj:
            _seq(obj, 0, out, "")
        else:  # a root scalar continues its folded or block lines two columns in, as go-yaml does
            out.append(_scalar(obj, 0, 2))
    except _Subclassed:
        return dump_yaml(_plain(obj))
    return "".join(out)


Path = tuple[str | int, ...]
COMMENT = "  # "  # what separates a value from its trailing comment


def dump_yaml_commented(obj: Any, comments: Mapping[Path, str]) -> str:
    """``dump_yaml(obj)`` with ``comments[path]`` after the value at each ``path`` (keys and list indices).

    A mapping or list value carries it on its key's line, a list item on its first line, a block scalar on
    its ``|`` line and a folded scalar after its last line. Line breaks in a comment become spaces.
    """
    kind = type(obj)
    if not comments or kind not in (dict, list) or not obj:
        return dump_yaml(obj)
    dump_yaml({})  # keeps the caches bounded, as dump_yaml does
    out: list[str] = []
    try:
        if kind is dict:
            _cmap(obj, 0, out, "", (), comments, "")
        else:
            _cseq(obj, 0, out, "", (), comments, "")
    except _Subclassed:
        return dump_yaml_commented(_plain(obj), comments)
    return "".join(out)


def _joined(first: str, second: str) -> str:
    return f"{first}; {second}" if first and second else first or second


def _attach(text: str, note: str) -> str:
    """``text`` (a scalar's lines) with ``note`` after the line where the value is complete enough."""
    if not note:
        return text
    comment = COMMENT + one_line(_BREAKS.sub(" ", note))  # an origin names a catalog object: terminal text
    first = text.index("\n")
    if first == len(text) - 1:
        return text[:-1] + comment + "\n"
    if text[0] == "|":
        return text[:first] + comment + text[first:]
    return text[:-1] + comment + "\n"


def _cmap(m: dict[str, Any], indent: int, out: list[str], lead: str, path: Path, comments: Mapping[Path, str],
          pending: str) -> None:
    """:func:`_map` with comments; ``pending`` goes on the first line (the list item this mapping is)."""
    pad = _pad(indent)
    for key in keyorder.ordered(m):
        kt = _KEYS.get(key)
        if kt is None:
            kt = _key_text(key)
        value = m[key]
        kind = type(value)
        here = (*path, key)
        note = _joined(pending, comments.get(here, ""))
        pending = ""
        if not kt:  # an explicit "? key" entry (no KubeVirt field): written without comments
            out.append(lead + "? " + _scalar(key, indent + 2, indent + 2))
            _seq([value], indent, out, pad, ": ")
        elif kind is dict and value:
            out.append(_attach(f"{lead}{kt}\n", note))
            _cmap(value, indent + 2, out, _pad(indent + 2), here, comments, "")
        elif kind is list and value:
            out.append(_attach(f"{lead}{kt}\n", note))
            _cseq(value, indent, out, pad, here, comments, "")
        else:
            out.append(f"{lead}{kt} " + _attach(_scalar(value, indent + len(kt) + 1, indent + 2), note))
        lead = pad


def _cseq(items: list[Any], indent: int, out: list[str], lead: str, path: Path, comments: Mapping[Path, str],
          pending: str) -> None:
    """:func:`_seq` with comments; an item's comment goes on its first line."""
    pad = _pad(indent)
    child = indent + 2
    for index, value in enumerate(items):
        kind = type(value)
        here = (*path, index)
        note = _joined(pending, comments.get(here, ""))
        pending = ""
        if kind is dict and value:
            out.append(lead + "- ")
            _cmap(value, child, out, "", here, comments, note)
        elif kind is list and value:
            out.append(lead + "- ")
            _cseq(value, child, out, "", here, comments, note)
        else:
            out.append(lead + "- " + _attach(_scalar(value, child, child), note))
        lead = pad


def dump_yaml_all(objs: Iterable[Any]) -> str:
    """A YAML stream: the documents joined by ``---`` lines; ``""`` when there are none."""
    return "---\n".join(dump_yaml(obj) for obj in objs)


_INF = float("inf")
_HTML = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def dump_json(obj: Any) -> str:
    """JSON as ``kubectl -o json`` prints it: 4-space indent, sorted keys, UTF-8, HTML-safe escapes.

    Go's encoder escapes ``<``, ``>``, ``&``, U+2028 and U+2029; NaN and infinities are refused.
    """
    try:
        text = _indented_json(obj)
    except (TypeError, ValueError):  # another type than JSON's own, a non-string key, NaN: json's answer
        text = json.dumps(obj, indent=4, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return text.translate(_HTML) + "\n"


def _indented_json(obj: Any) -> str:
    """``json.dumps(obj, indent=4, sort_keys=True, ensure_ascii=False)`` for plain JSON values, without the
    generic encoder's generators (a launcher Pod per VM is megabytes of JSON); TypeError or ValueError for
    anything else, which :func:`dump_json` leaves to ``json.dumps``."""
    out: list[str] = []
    put = out.append
    quote = _json_str
    str_, dict_, list_, int_ = str, dict, list, int

    def value(o: Any, pad: str) -> None:
        kind = type(o)
        if kind is dict_:
            if not o:
                put("{}")
                return
            inner = pad + "    "
            sep = ",\n" + inner
            lead = "{\n" + inner
            for key in sorted(o):
                if type(key) is not str_:
                    raise TypeError("a key that is no string")
                item = o[key]
                if type(item) is str_:
                    put(lead + quote(key) + ": " + quote(item))
                else:
                    put(lead + quote(key) + ": ")
                    value(item, inner)
                lead = sep
            put("\n" + pad + "}")
        elif kind is list_:
            if not o:
                put("[]")
                return
            inner = pad + "    "
            sep = ",\n" + inner
            lead = "[\n" + inner
            for item in o:
                if type(item) is str_:
                    put(lead + quote(item))
                else:
                    put(lead)
                    value(item, inner)
                lead = sep
            put("\n" + pad + "]")
        elif kind is str_:
            put(quote(o))
        elif o is True:
            put("true")
        elif o is False:
            put("false")
        elif o is None:
            put("null")
        elif kind is int_:
            put(int.__repr__(o))
        elif kind is float and o == o and o not in (_INF, -_INF):
            put(float.__repr__(o))
        else:
            raise TypeError("not a plain JSON value")

    value(obj, "")
    return "".join(out)


def _map(m: dict[str, Any], indent: int, out: list[str], lead: str | None) -> None:
    """Entries of a non-empty mapping whose keys start at column ``indent``; ``lead`` starts line one (None:
    the indentation, as for a mapping under a key)."""
    pad = _PADS[indent] if indent < _PADDED else " " * indent
    if lead is None:
        lead = pad
    keys = sorted(m)  # keyorder.ordered's first answer, inline: most mappings' keys sort by code point
    if len(keys) > 1 and not _SIMPLE_KEYS.issuperset(keys):
        keys = keyorder.ordered(m)
    for key in keys:
        kt = _KEYS.get(key) or _key_text(key)
        value = m[key]
        kind = type(value)
        # _scalar's one-line case first, inline: most values (a key written "? key" has an empty kt)
        if kind is str and kt and (info := _STRS.get(value)) is not None and indent + len(kt) + 1 < info[2]:
            out.append(f"{lead}{kt} {info[1]}\n")
        elif not kt:
            out.append(lead + "? " + _scalar(key, indent + 2, indent + 2))
            _seq([value], indent, out, pad, ": ")
        elif kind is dict:
            if value:
                out.append(f"{lead}{kt}\n")
                _map(value, indent + 2, out, None)
            else:
                out.append(f"{lead}{kt} {{}}\n")
        elif kind is list and value:
            out.append(f"{lead}{kt}\n")
            _seq(value, indent, out, pad)
        elif kind is int:
            out.append(f"{lead}{kt} {value}\n")  # _scalar's, inline
        else:
            out.append(f"{lead}{kt} " + _scalar(value, indent + len(kt) + 1, indent + 2))
        lead = pad


def _seq(items: list[Any], indent: int, out: list[str], lead: str, marker: str = "- ") -> None:
    """Items of a non-empty sequence whose dashes sit at column ``indent``; nested collections start
    on the dash's line. With ``marker=": "`` it writes the value of an explicit ``? key`` entry."""
    pad = _PADS[indent] if indent < _PADDED else " " * indent
    child = indent + 2
    for value in items:
        kind = type(value)
        if kind is dict and value:
            out.append(lead + marker)
            _map(value, child, out, "")
        elif kind is list and value:
            out.append(lead + marker)
            _seq(value, child, out, "")
        else:
            out.append(lead + marker + _scalar(value, child, child))
        lead = pad


def _scalar(value: Any, col: int, indent: int) -> str:
    """A scalar (or empty collection) starting at column ``col``, with its line break(s).

    Continuation lines (folded text, literal blocks) are indented to ``indent``.
    """
    kind = type(value)
    if kind is str:
        info = _STRS.get(value)
        if info is None:
            info = _STRS[value] = _info(value)
        style, text, before = info
        if style == _LITERAL:
            return _literal(value, indent)
        if col >= before:  # past column 80, with a space to break at
            return _fold(text, col, indent, style) + "\n"
        return text + "\n"
    if kind is bool:
        return "true\n" if value else "false\n"
    if kind is int:
        return f"{value}\n"
    if value is None:
        return "null\n"
    if kind is float:
        return yaml_float(value) + "\n"
    if kind is dict:
        return "{}\n"
    if kind is list:
        return "[]\n"
    return _scalar(_plain_value(value), col, indent)


class _Subclassed(Exception):
    """A mapping or list of a subclass met where the emitter dispatches on exact types: the document is
    written again as plain data (rare: a pin's :class:`.keyorder.InPlace` mappings)."""


def _plain_value(value: Any) -> Any:
    """Subclasses of the scalar types (enums, for instance) as their base values; anything else is an error."""
    for base in (bool, int, float, str):
        if isinstance(value, base):
            return base(value)
    if isinstance(value, dict | list):
        raise _Subclassed
    raise TypeError(f"cannot write {type(value).__name__} as YAML: only plain dict/list/scalar data")


def _plain(value: Any) -> Any:
    """``value`` with every mapping a ``dict`` and every list a ``list``."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _info(s: str) -> tuple[int, str, int]:
    """What :data:`_STRS` keeps of ``s``."""
    style, text = _analyse(s)
    if style == _LITERAL:
        return style, text, -1
    return style, text, _WIDTH + 1 - len(text) if " " in text else _NO_FOLD


_NO_FOLD = 1 << 62  # beyond any column


def _analyse(s: str) -> tuple[int, str]:
    """The style go-yaml picks for ``s`` (tightened for other readers) and its one-line text."""
    if not s or (_SPECIAL_ASCII if s.isascii() else _special_re()).search(s):
        return _DOUBLE, _double(s)
    if "\n" in s:
        if s.endswith(" ") or " \n" in s:  # a literal block would lose these spaces
            return _DOUBLE, _double(s)
        return _LITERAL, ""
    if _ambiguous(s):
        return _DOUBLE, _double(s)
    if _BAD_START.match(s) or _BAD_INSIDE.search(s):
        return _SINGLE, "'" + s.replace("'", "''") + "'"
    return _PLAIN, s


def _ambiguous(s: str) -> bool:
    """Whether go-yaml, a YAML 1.1 or 1.2 resolver, or our loader reads plain ``s`` as a non-string."""
    if s.lower() in _WORDS:
        return True
    if s[0] not in "-+.0123456789":
        return False
    bare = s.replace("_", "")
    if _NUMBER.match(bare) or _SEXAGESIMAL.match(s) or _TIMESTAMP.match(s):
        return True
    if "_" in s and _digitless_re().match(bare):
        return True
    try:
        return not isinstance(resolve_plain(s), str)
    except ValueError:
        return True


def _double(s: str) -> str:
    if s.startswith("\ufeff"):  # go-yaml's BOM test looks at the string's start: it escapes every character
        return '"' + "".join(map(_escape, s)) + '"'
    return '"' + _escape_re().sub(_escape_match, s) + '"'


def _escape_match(match: re.Match[str]) -> str:
    return _escape(match.group())


def _escape(char: str) -> str:
    """``char`` as a double-quoted escape: a named one, else ``\\xXX``, ``\\uXXXX`` or ``\\UXXXXXXXX``."""
    named = _NAMED.get(char)
    if named is not None:
        return "\\" + named
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def _fold(text: str, col: int, indent: int, style: int) -> str:
    """One-line ``text`` starting at column ``col``, broken like go-yaml at lone spaces past column 80.

    A plain or quoted scalar reads a single line break as one space, so the broken space is dropped;
    a double-quoted scalar escapes a space that would otherwise start the continuation line.
    """
    parts: list[str] = []
    start, base, end = 0, col, len(text) - 1
    pad = _pad(indent)
    pos = text.find(" ")
    while pos != -1:
        inside = style == _PLAIN or 1 < pos < end - 1  # quoted text never breaks at its first/last char
        nxt = text[pos + 1]
        if base + pos - start > _WIDTH and text[pos - 1] != " " and inside and (style == _DOUBLE or nxt != " "):
            parts.append(text[start:pos] + "\n" + pad)
            base, start = indent, pos + 1
            if style == _DOUBLE and nxt == " ":
                parts.append("\\")
                base += 1
        pos = text.find(" ", pos + 1)
    parts.append(text[start:])
    return "".join(parts)


def _literal(s: str, indent: int) -> str:
    """``s`` as a literal block: ``|``, indentation hint if it starts with a blank, chomping indicator."""
    head = "|2" if s[0] in " \n" else "|"
    if not s.endswith("\n"):
        head += "-"
    elif len(s) == 1 or s[-2] == "\n":
        head += "+"
    pad = _pad(indent)
    lines = s.split("\n")
    last = lines.pop()
    body = "".join(pad + line + "\n" if line else "\n" for line in lines)
    return head + "\n" + body + (pad + last + "\n" if last else "")


def _key_text(key: Any) -> str:
    """``key:`` as a simple key, or ``""`` when go-yaml writes it as an explicit ``? key`` entry."""
    if type(key) is not str:
        raise TypeError(f"mapping keys must be strings, not {type(key).__name__}")
    if _BREAKS.search(key) or len(key.encode("utf-8", "surrogatepass")) > _MAX_SIMPLE_KEY:
        text = ""
    else:
        info = _STRS.get(key)
        if info is None:
            info = _STRS[key] = _info(key)
        text = info[1] + ":"
    _KEYS[key] = text
    return text


def _pad(n: int) -> str:
    return _PADS[n] if n < len(_PADS) else " " * n
