"""Loading YAML and JSON streams into plain data, fast, the way Kubernetes reads them.

Documents are built straight from libyaml's events (through ruamel.yaml.clib), resolving plain scalars
with the YAML 1.1 rules that Kubernetes' go-yaml applies (``yes``/``on`` are booleans, ``1e9`` is a
number). Only the standard ``tag:yaml.org,2002`` tags are accepted. Positions are not kept on the hot
path: each document records where its text is, and :meth:`Document.locate` indexes that document alone
when an error needs ``line:col`` (``positions.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from ..errors import InputError, InternalLimitError, Location
from ..records import dataclass, field
from .positions import Positions, Span

try:  # the C parser (libyaml), the one parser the tool reads YAML with
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - exercised only without ruamel.yaml.clib
    _CParser = None
    _NATIVE = False
else:  # the classes of the events it makes (the builder dispatches on them)
    import _ruamel_yaml
    from ruamel.yaml.events import AliasEvent, DocumentStartEvent

    from .parser_events import CLASSES as _EVENT_CLASSES
    from .parser_events import MappingStartEvent, ScalarEvent, SequenceStartEvent
    from .parser_events import converted as _converted

    for _event in _EVENT_CLASSES:
        setattr(_ruamel_yaml, _event.__name__, _event)
    _probe = _CParser("[a]")
    # a parser that does not make its events through these names has its events converted (see _parser)
    _NATIVE = [type(_probe.get_event()) for _ in range(4)][2:] == [SequenceStartEvent, ScalarEvent]

#: ruamel's pure-Python parser is no fallback: it accepts and refuses other inputs than libyaml
#: (``{image: quay.io/x:41}``, ``"\\ud800"``, tabs, NEL and LS line breaks …), and the tool must answer the
#: same wherever it runs. Without libyaml it refuses to read YAML, saying how to get it.
NO_LIBYAML = (
    "cannot read YAML here: this Python has no libyaml parser (ruamel.yaml.clib); pip install "
    "ruamel.yaml.clib, or run the krew archive with a CPython it carries the parser for (3.11 to 3.14)"
)


@dataclass(frozen=True)
class Limits:
    """Safety limits for untrusted input; documented in the README and configurable on the CLI."""

    max_nodes: int = 2_000_000  # nodes of one document once aliases are expanded
    max_depth: int = 512  # nesting depth of collections
    max_bytes: int = 256 * 1024 * 1024  # size of one input stream


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, eq=False)
class Document:
    """One document of an input stream, as plain JSON-like data.

    ``prefix`` locates an object nested in a document (an item of a ``kind: List``): positions are
    then looked up under it, lazily, so flattening a large List costs no parsing.
    """

    data: Any
    source: str
    index: int
    line: int
    col: int
    text: str = field(repr=False, default="")
    prefix: tuple[str | int, ...] = ()
    span: Span | None = field(repr=False, default=None)
    positions: Positions | None = field(repr=False, default=None)
    bom: bool = False  # the stream started with a byte order mark (``text`` is without it)
    warnings: tuple[str, ...] = ()  # e.g. duplicate keys: kubectl keeps the last value, we say so
    #: the data as the text reads, when ``data`` is what validation kept of it (unknown fields and nulls
    #: pruned): a rewrite pairs the text with this, and keeps what was pruned
    original: Any = field(repr=False, default=None)

    @property
    def as_read(self) -> Any:
        """The data as read from the text (before validation pruned anything)."""
        return self.data if self.original is None else self.original

    @property
    def stream_text(self) -> str:
        """The whole stream this document was read from, exactly as it was read (with its BOM)."""
        return "\ufeff" + self.text if self.bom else self.text

    @property
    def location(self) -> Location:
        if self.prefix:
            return self.locate(())
        return Location(self.source, self.line, self.col)

    def locate(self, path: tuple[str | int, ...]) -> Location:
        """Where the value at JSON ``path`` starts (the deepest existing prefix of it)."""
        positions = self.positions
        if positions is None and self.text:
            positions = Positions(self.text, events)
        found = positions.locate(self.index, self.span, self.prefix + path) if positions else None
        if found is None:
            return Location(self.source, self.line, self.col)
        return Location(self.source, *found)

    def nested(self, data: Any, *path: str | int) -> Document:
        """The object at ``path`` inside this document, as a document of its own."""
        return Document(data, self.source, self.index, self.line, self.col, self.text, self.prefix + path,
                        self.span, self.positions, self.bom)


_BOOL = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
}
_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_INT = re.compile(r"[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|0|[1-9][0-9_]*)\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOAT = {
    ".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"),
    "+.inf": float("inf"), "+.Inf": float("inf"), "+.INF": float("inf"),
    "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf"),
    ".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan"),
}
_FIRST = frozenset("0123456789+-.~nNyYtTfFoO")
_LETTERS = frozenset("nNyYtTfFoO")
_TAG = "tag:yaml.org,2002:"


def resolve_plain(value: str) -> Any:
    """The value of an untagged plain scalar under YAML 1.1 (Kubernetes') rules."""
    if not value:
        return None
    first = value[0]
    if first not in _FIRST:
        return value
    if value in _NULL:
        return None
    b = _BOOL.get(value)
    if b is not None:
        return b
    if first in _LETTERS:  # no number starts with a letter: a word that is no null or boolean is a string
        return value
    if _INT.match(value):
        return _parse_int(value)
    if _FLOAT.match(value) and any(c.isdigit() for c in value):
        number = float(value.replace("_", ""))
        # go-yaml keeps a float out of float64's range (1e999) as a string, as strconv.ParseFloat fails
        return number if math.isfinite(number) else value
    return _SPECIAL_FLOAT.get(value, value)


_UINT64_MAX = 2**64 - 1
_MAX_DIGITS = {2: 64, 8: 22, 10: 20, 16: 16}  # the most digits a uint64 has in each base


def _parse_int(value: str) -> int | float | str:
    """An integer as go-yaml v2 reads it (resolve.go): an int64 or uint64 when it is one, else a float64
    when ``strconv.ParseFloat`` reads it (decimal, finite), else the text as a string. Digits are counted
    before converting, so no text is long enough to hit Python's int conversion limit."""
    text = value.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    base = 10
    if digits.startswith(("0b", "0x", "0o")):
        base, digits = {"b": 2, "x": 16, "o": 8}[digits[1]], digits[2:]
    elif len(digits) > 1 and digits.startswith("0"):
        base = 8
    significant = digits.lstrip("0")
    if len(significant) <= _MAX_DIGITS[base]:
        whole = sign * int(digits or "0", base)
        if -(2**63) <= whole <= _UINT64_MAX:
            return whole
    if base != 10:
        return value  # ParseFloat reads no hex without an exponent, no octal, no binary: a string
    number = float(text)
    return number if math.isfinite(number) else value


def _tagged(tag: str, value: str, where: Location) -> Any:
    name = tag[len(_TAG):] if tag.startswith(_TAG) else None
    if name == "str":
        return value
    if name in ("int", "float", "bool", "null"):
        resolved = resolve_plain(value)
        ok = {
            "int": isinstance(resolved, int) and not isinstance(resolved, bool),
            "float": isinstance(resolved, (int, float)) and not isinstance(resolved, bool),
            "bool": isinstance(resolved, bool),
            "null": resolved is None,
        }[name]
        if not ok:
            raise InputError(f"cannot read {value!r} as !!{name}", where)
        return float(resolved) if name == "float" else resolved
    if name in ("binary", "timestamp"):
        return "".join(value.split()) if name == "binary" else value
    raise InputError(f"unsupported YAML tag {tag!r} (only the standard YAML types are accepted)", where)


def events(text: str) -> Iterator[Any]:
    """libyaml's events for ``text``, read as go-yaml reads it (a colon inside a word, see below)."""
    return _read(text, "event")


def _read(text: str, item: str) -> Iterator[Any]:
    """libyaml's ``item``s (``event`` or ``token``) for ``text``. A text refused for a colon inside a word is
    read again with its word colons stood in for; the items given so far are the same, so they are skipped."""
    if _CParser is None:
        raise InputError(NO_LIBYAML)
    parser = _parser(text)
    check, get = getattr(parser, f"check_{item}"), getattr(parser, f"get_{item}")
    count = 0
    try:
        while check():
            got = get()
            count += 1
            yield got
    except Exception as exc:
        if not _refused(exc, text):
            raise
    else:
        return
    parser = _parser(text)
    check, get = getattr(parser, f"check_{item}"), getattr(parser, f"get_{item}")
    for _ in range(count):
        get()
    while check():
        yield get()


# The libyaml that ruamel.yaml.clib bundles refuses a colon inside a plain scalar in a flow collection
# (``{image: quay.io/x:41}``: "found unexpected ':'"), a check go-yaml v2, which kubectl reads manifests
# with, does not have (scannerc.go, yaml_parser_scan_plain_scalar: a ':' ends a plain scalar only before
# a blank): kubectl reads "quay.io/x:41". There is one reader for every command, libyaml, and such a text is
# read by it too: every colon inside a word (after a character that is not a blank, a quote or a flow
# indicator, before one that is not a blank) is replaced by a character the text does not hold, which
# libyaml reads as part of the scalar, and put back in every value, tag and anchor. A colon before a
# non-blank is no indicator in block context for either parser, so this reads the text exactly as go-yaml
# does, positions included (one character for one), and nothing else about the reading changes (tabs,
# escapes, directives are libyaml's rules as for every other text). Clean texts pay nothing.
@cache
def _word_colon_re() -> re.Pattern[str]:
    """A colon inside a plain word (compiled on first use)."""
    return re.compile(r"(?<=[^\s\"'\]}\[{,]):(?=[^\s])")


_FLOW_COLON_TEXTS: dict[int, str] = {}  # texts refused for a flow colon (by hash) -> their stand-in char


def _refused_flow_colon(exc: Exception) -> bool:
    return (getattr(exc, "problem", None) == "found unexpected ':'"
            and getattr(exc, "context", None) == "while scanning a plain scalar")


def _stand_in(text: str) -> str:
    """A private-use character ``text`` does not hold."""
    for code in range(0xE000, 0xF900):
        char = chr(code)
        if char not in text:
            return char
    raise InputError("cannot read this text: it holds every private-use character")  # pragma: no cover


def _refused(exc: Exception, text: str) -> bool:
    """Whether libyaml refused ``text`` for a word colon it was not yet given a stand-in for (now it is:
    read it again)."""
    key = hash(text)
    if not _refused_flow_colon(exc) or key in _FLOW_COLON_TEXTS:
        return False
    if len(_FLOW_COLON_TEXTS) > 4096:
        _FLOW_COLON_TEXTS.clear()
    _FLOW_COLON_TEXTS[key] = _stand_in(text)
    return True


class _ReadAgain(Exception):
    """The text was refused for a word colon and has a stand-in now."""


class _Restoring:
    """A libyaml parser over a text whose word colons were replaced, giving events and tokens back with
    their colons."""

    def __init__(self, text: str, char: str) -> None:
        self._parser = _native_parser(_word_colon_re().sub(char, text))
        self._char = char

    def check_event(self) -> bool:
        return bool(self._parser.check_event())

    def get_event(self) -> Any:
        event = self._parser.get_event()
        char = self._char
        if type(event) in _EVENT_CLASSES:  # its text, tag and anchor are among its (immutable) args
            args = event.args
            if any(arg.__class__ is str and char in arg for arg in args):
                event = type(event)(*(arg.replace(char, ":") if arg.__class__ is str else arg for arg in args))
            return event
        value = getattr(event, "value", None)
        if value.__class__ is str and char in value:
            event.value = value.replace(char, ":")
        tag = getattr(event, "tag", None)
        if tag.__class__ is str and char in tag:
            event.tag = tag.replace(char, ":")
        anchor = getattr(event, "anchor", None)
        if anchor.__class__ is str and char in anchor:
            event.anchor = anchor.replace(char, ":")
        tags = getattr(event, "tags", None)
        if tags:
            event.tags = {k.replace(char, ":"): v.replace(char, ":") for k, v in tags.items()}
        return event

    def check_token(self) -> bool:
        return bool(self._parser.check_token())

    def get_token(self) -> Any:
        return self._parser.get_token()


def _parser(text: str) -> Any:
    """libyaml's parser for ``text``, reading its word colons as go-yaml does (see above)."""
    key = hash(text)
    char = _FLOW_COLON_TEXTS.get(key)
    if char is None:
        return _native_parser(text)
    if char in text:  # another text of the same hash chose it: choose again (reading a stand-in is harmless)
        char = _FLOW_COLON_TEXTS[key] = _stand_in(text)
    return _Restoring(text, char)


def _native_parser(text: str) -> Any:
    """libyaml's parser for ``text``, giving the events of :mod:`.parser_events`."""
    return _CParser(text) if _NATIVE else _Converting(text)


class _Converting:
    """libyaml's parser where it makes ruamel's own events: each converted to its class of
    :mod:`.parser_events` (a parser module that binds the event classes when it is built)."""

    def __init__(self, text: str) -> None:
        self._parser = _CParser(text)

    def check_event(self) -> bool:
        return bool(self._parser.check_event())

    def get_event(self) -> Any:
        return _converted(self._parser.get_event())

    def check_token(self) -> bool:
        return bool(self._parser.check_token())

    def get_token(self) -> Any:
        return self._parser.get_token()


def tokens(text: str) -> Iterator[Any]:
    """libyaml's scanner tokens for ``text``; each has start and end marks."""
    return _read(text, "token")


def _mark(mark: Any, source: str) -> Location:
    return Location(source, mark.line + 1, mark.column + 1)


def _syntax_error(exc: Exception, source: str, text: str | None = None) -> InputError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    position = getattr(exc, "position", None)
    if mark is None and isinstance(position, int) and hasattr(exc, "character"):  # libyaml's reader
        char, reason = exc.character, getattr(exc, "reason", "")
        code = f"#x{char:04x}" if isinstance(char, int) else repr(char)
        message = f"YAML syntax error: unacceptable character {code}: {reason}"
        if text is None:
            return InputError(message, Location(source))
        line = text.count("\n", 0, position) + 1
        return InputError(message, Location(source, line, position - text.rfind("\n", 0, position)))
    lines = [line for line in str(exc).strip().splitlines() if not line.lstrip().startswith("in \"<")]
    problem = getattr(exc, "problem", None) or (lines[-1] if lines else type(exc).__name__)
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {context}, {problem}" if context else f"YAML syntax error: {problem}"
    if mark is None:
        return InputError(message, Location(source))
    return InputError(message, _mark(mark, source))


class _Builder:
    """Turns one stream's events into documents (a hand-written constructor, for speed)."""

    def __init__(self, text: str, source: str, limits: Limits, bom: bool = False, nonfinite: bool = False) -> None:
        self.nonfinite = nonfinite  # infinities and NaN kept (a reader that converts them, as virtctl's does)
        self.text = text
        self.source = source
        self.limits = limits
        self.bom = bom
        self.duplicated = False

    def documents(self) -> list[Document]:
        if len(self.text) > self.limits.max_bytes:
            raise InternalLimitError(
                f"input is larger than the limit of {self.limits.max_bytes} bytes (--max-input-bytes)",
                Location(self.source),
            )
        if _CParser is None:
            raise InputError(NO_LIBYAML, Location(self.source))
        try:
            return self._documents()
        except _ReadAgain:
            return self._documents()  # with its word colons stood in for

    def _documents(self) -> list[Document]:
        out: list[Document] = []
        positions = Positions(self.text, events)
        try:
            parser = _parser(self.text)
            more, get = parser.check_event, parser.get_event  # called directly: once per event, the hot path
            index = 0
            while more():
                event = get()
                if event.__class__ is DocumentStartEvent:
                    start = event.start_mark
                    first = get()
                    self.duplicated = False
                    data = self._value(first, get)
                    end = get().end_mark  # DocumentEndEvent
                    out.append(
                        Document(
                            data,
                            self.source,
                            index,
                            first.start_mark.line + 1,
                            first.start_mark.column + 1,
                            self.text,
                            (),
                            Span(start.index, end.index, start.line, start.column),
                            positions,
                            self.bom,
                            warnings=duplicate_warnings(self.text, index, self.source) if self.duplicated else (),
                        )
                    )
                    index += 1
        except InputError:
            raise
        except ImportError:
            message = "cannot read YAML here: the ruamel.yaml package is not installed"
            raise InputError(message, Location(self.source)) from None
        except RecursionError:
            raise InternalLimitError("document nested too deeply", Location(self.source)) from None
        except Exception as exc:  # the parser raises its own MarkedYAMLError family
            if _refused(exc, self.text):
                raise _ReadAgain from None
            raise _syntax_error(exc, self.source, self.text) from None
        return out

    def each(self, parser: Any) -> Iterator[Any]:
        """The data of each document ``parser`` reads from this text, in turn (None for an empty one)."""
        if _CParser is None:
            raise InputError(NO_LIBYAML, Location(self.source))
        more, get = parser.check_event, parser.get_event
        while more():
            if get().__class__ is DocumentStartEvent:
                data = self._value(get(), get)
                get()  # DocumentEndEvent
                yield data

    def _value(self, first: Any, get: Callable[[], Any]) -> Any:
        anchors: dict[str, tuple[Any, int, int]] = {}  # name -> (value, nodes, nesting height)
        count = 0
        max_nodes = self.limits.max_nodes
        max_depth = self.limits.max_depth
        nonfinite = self.nonfinite
        # An explicit stack instead of recursion: deep nesting cannot exhaust Python's stack.
        # [container, pending_key, anchor, start_count, start_mark, height of the children so far, (the key's
        # event, while its value is read)]. The node events are read through their ``args`` (parser_events).
        stack: list[list[Any]] = []
        event: Any = first
        while True:
            kind = event.__class__
            count += 1
            height = 0  # how deep the value just completed nests (an alias brings its anchor's)
            if kind is ScalarEvent:
                anchor, tag, _, text, _, _, style = event.args
                if tag and tag != "!":
                    value: Any = _tagged(tag, text, _mark(event.start_mark, self.source))
                elif style:
                    value = text
                elif text == "<<" and stack and stack[-1][1] is _NO_KEY and isinstance(stack[-1][0], dict):
                    value = _MERGE  # only a plain << in key position merges
                elif text and text[0] not in _FIRST:
                    value = text  # resolve_plain's first answer, inline: most plain scalars are words
                else:
                    value = resolve_plain(text)
                if value.__class__ is float and not math.isfinite(value) and not nonfinite:
                    raise InputError(
                        f"{text!r} is not a number JSON can hold: kubectl and the API server refuse "
                        "infinities and NaN", _mark(event.start_mark, self.source))
                if anchor:
                    anchors[anchor] = (value, 1, 0)
            elif kind is AliasEvent:
                if event.anchor not in anchors:
                    raise InputError(
                        f"unknown YAML alias *{event.anchor}", _mark(event.start_mark, self.source)
                    )
                value, size, height = anchors[event.anchor]
                count += size
                if len(stack) + height > max_depth:  # aliases of aliases nest deeper than the text shows
                    raise InternalLimitError(
                        f"document nested deeper than the limit of {max_depth} levels (through aliases)",
                        _mark(event.start_mark, self.source),
                    )
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                anchor, tag, _, mark, _, _ = event.args
                if tag is not None and tag not in _COLLECTION_TAGS:
                    raise InputError(
                        f"unsupported YAML tag {tag!r} (only the standard YAML types are accepted)",
                        _mark(mark, self.source),
                    )
                if len(stack) >= max_depth:
                    raise InternalLimitError(
                        f"document nested deeper than the limit of {max_depth} levels",
                        _mark(mark, self.source),
                    )
                stack.append([{} if kind is MappingStartEvent else [], _NO_KEY, anchor, count, mark, 0])
                event = get()
                continue
            else:  # MappingEndEvent / SequenceEndEvent
                frame = stack.pop()
                value = frame[0]
                height = frame[5] + 1
                if frame[2]:
                    anchors[frame[2]] = (value, count - frame[3], height)
            if count > max_nodes:
                raise InternalLimitError(
                    f"document has more than {max_nodes} nodes once aliases are expanded (--max-nodes)",
                    _mark(first.start_mark, self.source),
                )
            if not stack:
                return value
            top = stack[-1]
            if height > top[5]:
                top[5] = height
            parent = top[0]
            if parent.__class__ is list:
                parent.append(value)
            elif top[1] is _NO_KEY:
                top[1] = value
                top.append(event)
            else:
                key, keyed = top[1], top.pop()
                if key.__class__ is str and key not in parent:
                    parent[key] = value  # the common case, inline
                else:
                    self._put(parent, keyed.start_mark, key, value)
                top[1] = _NO_KEY
            event = get()

    def _put(self, mapping: dict[str, Any], mark: Any, key: Any, value: Any) -> None:
        if key is _MERGE:
            for source in value if isinstance(value, list) else [value]:
                if not isinstance(source, dict):
                    raise InputError("YAML merge key '<<' needs a mapping", _mark(mark, self.source))
                for k, v in source.items():
                    mapping.setdefault(k, v)
            return
        if isinstance(key, (dict, list)):
            raise InputError("mapping keys must be scalars", _mark(mark, self.source))
        if not isinstance(key, str):
            key = _key_text(key)
        if key in mapping:
            self.duplicated = True  # kubectl (sigs.k8s.io/yaml) keeps the last value; the slow path says where
        mapping[key] = value


_NO_KEY = object()
_COLLECTION_TAGS = ("", _TAG + "map", _TAG + "seq", _TAG + "omap", "!")
_MERGE = object()


def duplicate_warnings(text: str, index: int, source: str) -> tuple[str, ...]:
    """One warning per repeated mapping key of document ``index``, naming the line of each occurrence.

    Only called for a document that has some: the fast builder does not keep key positions.
    """
    out: list[str] = []
    open_: list[tuple[dict[str, int], list[bool]] | None] = []  # per collection: key lines, next-is-key
    doc = -1
    for event in events(text):
        kind = type(event).__name__
        doc += kind == "DocumentStartEvent"
        if doc != index or kind in ("DocumentStartEvent", "DocumentEndEvent", "StreamStartEvent"):
            continue
        top = open_[-1] if open_ else None
        if top is not None:
            top[1][0] = not top[1][0]
            if top[1][0] and kind == "ScalarEvent":  # a key: the nodes of a mapping alternate
                line, first = event.start_mark.line + 1, top[0].get(event.value)
                if first is not None:
                    out.append(f"{source}:{line}:{event.start_mark.column + 1}: mapping key \"{event.value}\" "
                               f"is repeated (lines {first} and {line}); the last value is used, as kubectl does")
                top[0][event.value] = line
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            open_.append(({}, [False]) if kind == "MappingStartEvent" else None)
        elif kind in ("MappingEndEvent", "SequenceEndEvent"):
            open_.pop()
    return tuple(out)


def _key_text(key: Any) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def stream_data(text: str, source: str, limits: Limits = DEFAULT_LIMITS,
                repeats: set[int] | None = None) -> Iterator[tuple[int, Any]]:
    """(index, data) of each non-empty document of ``text`` in turn, numbered as :func:`load_stream`
    numbers them, none kept: checking a rewritten stream of 10,000 VMs holds one document at a time.
    ``repeats`` collects the indexes of the documents where a mapping key repeats."""
    bom = text.startswith("\ufeff")
    builder = _Builder(text[1:] if bom else text, source, limits, bom)
    yielded = 0
    for _ in range(2):  # a second time only for a text refused for a word colon (see _Restoring)
        try:
            for index, data in enumerate(builder.each(_parser(builder.text))):
                if builder.duplicated and repeats is not None:
                    repeats.add(index)
                builder.duplicated = False
                if index >= yielded:
                    yielded += 1
                    if data is not None:
                        yield index, data
            return
        except InputError:
            raise
        except RecursionError:
            raise InternalLimitError("document nested too deeply", Location(source)) from None
        except Exception as exc:
            if not _refused(exc, builder.text):
                raise _syntax_error(exc, source, builder.text) from None


def load_stream(text: str, source: str, limits: Limits = DEFAULT_LIMITS, nonfinite: bool = False) -> list[Document]:
    """Every document of a YAML (or JSON) stream; empty documents are dropped. ``nonfinite``: ``.inf`` and
    ``.nan`` are read as floats (refused otherwise: JSON cannot hold them)."""
    bom = text.startswith("\ufeff")
    docs = _Builder(text[1:] if bom else text, source, limits, bom, nonfinite).documents()
    return [d for d in docs if d.data is not None]
