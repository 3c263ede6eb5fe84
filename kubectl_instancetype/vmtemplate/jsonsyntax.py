"""The syntax error apimachinery's ``YAMLOrJSONDecoder`` returns for a JSON-looking file that is no valid JSON
and that the YAML reading refuses as well: encoding/json's (``json: offset N: invalid character 'x' after
object key:value pair``, ``JSONSyntaxError`` in ``k8s.io/apimachinery/pkg/util/yaml/decoder.go``), or
``unexpected EOF`` when the text ends inside the value (a stream decoder's ``io.ErrUnexpectedEOF``).

Python's decoder finds the same first fault; its messages are reworded as Go's scanner words them (the offset
counts the bytes read, the offending one included)."""

from __future__ import annotations

import json

_AFTER = {"object": "after object key:value pair", "array": "after array element"}


def _quoted(char: str) -> str:
    if char == "'":
        return "'\\''"
    if char == '"':
        return "'\"'"
    return "'" + (json.dumps(char)[1:-1] if char < " " else char) + "'"


def _container(text: str, pos: int) -> str:
    """Whether ``pos`` lies directly inside an object or an array (strings skipped)."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text[:pos]:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("object" if char == "{" else "array")
        elif char in "}]" and stack:
            stack.pop()
    return stack[-1] if stack else ""


def _nonfinite(name: str) -> float:
    raise ValueError(name)


def json_syntax_error(text: str) -> str | None:
    """Go's words for the first syntax fault of the JSON value at the start of ``text``; None when the value
    is valid JSON (what follows it is another document: not this decoder's concern)."""
    stripped = text.lstrip("\ufeff")
    offset = len(text.encode("utf-8")) - len(stripped.encode("utf-8"))
    try:
        json.JSONDecoder(parse_constant=_nonfinite).raw_decode(stripped.lstrip(" \t\r\n"))
        return None
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):  # NaN, Infinity: Go reads no such literal
            pos = stripped.find(str(exc))
            return f"json: offset {offset + len(stripped[:pos + 1].encode('utf-8'))}: invalid character " \
                   f"{_quoted(stripped[pos])} looking for beginning of value" if pos >= 0 else None
        lead = len(stripped) - len(stripped.lstrip(" \t\r\n"))
        pos = exc.pos + lead
        if pos >= len(stripped.rstrip(" \t\r\n")) or exc.msg.startswith("Unterminated string"):
            return "unexpected EOF"
        char = stripped[pos]
        at = offset + len(stripped[:pos + 1].encode("utf-8"))
        if exc.msg.startswith("Expecting ',' delimiter"):
            where = _AFTER.get(_container(stripped, pos), "after top-level value")
        elif exc.msg.startswith("Expecting ':' delimiter"):
            where = "after object key"
        elif exc.msg.startswith("Expecting property name"):
            where = "looking for beginning of object key string"
        elif exc.msg.startswith("Invalid control character"):
            where = "in string literal"
        elif exc.msg.startswith("Invalid \\escape"):
            where = "in string escape code"
        else:
            where = "looking for beginning of value"
        return f"json: offset {at}: invalid character {_quoted(char)} {where}"
