"""Markdown of a pull-request comment (GitHub's CommonMark and its extensions): a value as data, whatever it holds.

Where a value is put decides how it is written:

- :func:`code`, an inline code span: delimited by more backticks than any run inside, padded when it starts or
  ends with a backtick; a value holding a line break or another control character is JSON-quoted inside the span
  (the span, and the list item or table row it is in, stays on its line). ``<``, ``&`` and ``@`` need nothing there.
- :func:`text`, prose: on one line (control characters escaped as the text report does), each character that
  could start Markdown or HTML backslash-escaped, a leading block marker escaped, and ``@`` followed by a zero-width
  space so that no one is mentioned (GitHub links a mention in any text outside code, entities decoded).
- :func:`cell` and :func:`code_cell`, a table cell: as text or as code, never a ``|`` the table would split on.
- :func:`html`, inside an HTML block (``<summary>``): on one line (a blank line would end the block), HTML-escaped.
- :func:`fence`, a fenced block's delimiter: longer than any backtick run of its body.
- :func:`clip`, the whole comment cut at a line to at most N characters, open blocks closed, with a note.
"""

from __future__ import annotations

import html as _html
import json
import re

from .terminal import one_line

_SPECIAL = re.compile(r"([\\`*_\[\]<>!|#~&$])")
_BLOCK_START = re.compile(r"^( {0,3})(?:([-+=])|(\d+)(?=[.)]))")
_JSON_LEFT = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_MENTION = "@\u200b"


def code(value: str) -> str:
    """``value`` as an inline code span."""
    body = value if value and one_line(value) == value else _quoted(value)
    ticks = "`" * (max((len(run) for run in re.findall("`+", body)), default=0) + 1)
    padded = body[:1] == "`" or body[-1:] == "`" or (body[:1] == " " == body[-1:] and bool(body.strip()))
    pad = " " if padded else ""
    return f"{ticks}{pad}{body}{pad}{ticks}"


def _quoted(value: str) -> str:
    """``value`` as a JSON string, also the characters JSON leaves as they are (DEL, C1, separators, bidi
    controls, lone surrogates) written as ``\\u`` escapes."""
    return _JSON_LEFT.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def text(value: str) -> str:
    """``value`` as prose: shown as it reads, nothing in it Markdown, HTML or a mention."""
    out = _SPECIAL.sub(r"\\\1", one_line(value)).replace("@", _MENTION)
    return _BLOCK_START.sub(_unblock, out, count=1)


def _unblock(found: re.Match[str]) -> str:
    """A list item's or a setext underline's marker at the start, escaped (if the text starts a line)."""
    indent, marker, number = found.groups()
    return f"{indent}\\{marker}" if marker else f"{indent}{number}\\"


def cell(value: str) -> str:
    """``value`` as prose in a table cell (a ``|`` is escaped by :func:`text` already)."""
    return text(value)


def code_cell(value: str) -> str:
    """``value`` as code in a table cell; as prose when it holds a ``|`` (GFM splits a row on it, code spans
    included, and its escape ``\\|`` would be shown inside one)."""
    return text(value) if "|" in value else code(value)


def html(value: str) -> str:
    """``value`` as the text of an HTML element of an HTML block: one line, HTML-escaped, no mention."""
    return _html.escape(one_line(value), quote=True).replace("@", _MENTION)


def fence(body: str) -> str:
    """A code fence longer than any run of backticks in ``body``, so that nothing in it closes the block."""
    return "`" * max(3, max((len(run) for run in re.findall("`+", body)), default=0) + 1)


def fenced(body: str, info: str = "") -> str:
    """``body`` as a fenced code block (``info`` its language), ending with a newline."""
    delimiter = fence(body)
    return f"{delimiter}{info}\n{body}{'' if body.endswith(chr(10)) or not body else chr(10)}{delimiter}\n"


def clip(markdown: str, limit: int, note: str) -> str:
    """``markdown`` when it has at most ``limit`` characters, else its first lines with the code fence and the
    ``<details>`` blocks they leave open closed, then ``note``: at most ``limit`` characters in all."""
    if len(markdown) <= limit:
        return markdown
    kept, size, state = 0, 0, ("", 0)
    lines = markdown.splitlines(keepends=True)
    for index, line in enumerate(lines):
        after = _state(state, line)
        if size + len(line) + len(_closing(after)) + len(note) > limit:
            break
        kept, size, state = index + 1, size + len(line), after
    out = "".join(lines[:kept]) + _closing(state) + note
    return out if len(out) <= limit else note[:limit]


def _state(state: tuple[str, int], line: str) -> tuple[str, int]:
    """The open code fence (its delimiter, ``""`` when none) and ``<details>`` depth after ``line``."""
    open_fence, depth = state
    stripped = line.strip()
    if open_fence:
        closes = stripped.startswith(open_fence) and set(stripped) == {"`"}
        return ("" if closes else open_fence), depth
    if stripped.startswith("```"):
        return stripped[:len(stripped) - len(stripped.lstrip("`"))], depth
    return "", depth + (stripped == "<details>") - (stripped == "</details>" and depth > 0)


def _closing(state: tuple[str, int]) -> str:
    open_fence, depth = state
    return (f"{open_fence}\n" if open_fence else "") + "\n</details>\n" * depth
