"""Rewriting YAML files in place (``render --write``) while keeping their comments and formatting.

A file is cut into document bodies and the text around them (:mod:`.split`). Documents that do not
change are copied from the original text, byte for byte. A changed document is loaded with ruamel.yaml's
round-trip loader, edited in place (:mod:`.edit`), dumped in the file's own indentation and quote style
(:mod:`.style`), and its untouched lines are spelled as in the original (:mod:`.merge`). Every rewritten
document is loaded back with :func:`load_stream` and must equal the new data exactly: if keeping the old
scalar styles would break that, the document is edited again without them, and if that fails too the
file is refused rather than written wrong.
"""

from __future__ import annotations

import atexit
import io
import os
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import zip_longest
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import YAMLError

from ..errors import InputError, Location
from .edit import Editor
from .kept import lost
from .load import Document, load_stream, stream_data, tokens
from .merge import keep_original
from .splice import splice
from .split import Body, Layout, split
from .style import Style, detect, file_quote
from .values import same

#: how many changed documents each path rewrote in this process (``bench/run.py`` prints them, through
#: ``KUBECTL_INSTANCETYPE_WRITE_PATHS``)
WRITE_PATHS: Counter[str] = Counter()


def _said_paths() -> None:
    if WRITE_PATHS:
        sys.stderr.write(f"write paths: {WRITE_PATHS['splice']} spliced, {WRITE_PATHS['editor']} through the editor\n")


if os.environ.get("KUBECTL_INSTANCETYPE_WRITE_PATHS"):
    atexit.register(_said_paths)


#: called after each document a rewrite copies or rewrites (the progress of a long ``--write``)
AFTER_DOCUMENT: list[Callable[[], None]] = []


class RewriteError(InputError):
    """A document that cannot be rewritten so that it reads back as the new data."""


def _yaml(style: Style) -> YAML:
    yaml = YAML()  # round-trip mode
    yaml.preserve_quotes = True
    yaml.width = 1_000_000  # never fold long lines that were not folded before
    yaml.indent(mapping=style.mapping, sequence=style.sequence, offset=style.offset)
    return yaml


def _dump(yaml: YAML, tree: Any) -> str:
    out = io.StringIO()
    yaml.dump(tree, out)
    return out.getvalue()


def _loads_as(text: str, new: Any, source: str, prelude: str = "") -> bool:
    """Whether ``text`` is one document whose data is exactly ``new``, no mapping key repeated (a repeated key
    reads as its last value: a text that writes a key twice can read as the new data and still be wrong)."""
    try:
        docs = load_stream(prelude + text, source)
    except InputError:
        return False
    return len(docs) == 1 and not docs[0].warnings and same(docs[0].data, new)


def _edit(text: str, old: Any, new: Any, style: Style, keep: bool, prelude: str = "") -> str:
    """The document ``text`` (LF line ends) edited to hold ``new``, read under the directives ``prelude``."""
    yaml = _yaml(style)
    tree = yaml.load(prelude + _spaced_tabs(text))
    normalised = _without_directives(_dump(yaml, tree), prelude)
    edited = _without_directives(_dump(yaml, Editor(style, keep).document(tree, old, new)), prelude)
    if edited.endswith("\n...\n") and not text.rstrip().endswith("..."):
        edited = edited[: -len("...\n")]
    merged = keep_original(text, normalised, edited)
    return merged if merged != edited and _loads_as(merged, new, "<merge>", prelude) else edited


def _spaced_tabs(text: str) -> str:
    """``text`` with each tab that only separates tokens (outside scalars, tags and comments) spelled as a space,
    as libyaml and kubectl read it: ruamel.yaml's round-trip scanner refuses a tab after a value or a colon
    (``image: x<TAB>``), which every other reader of the file accepts. The meaning is the same; the merge
    still spells untouched lines as they were."""
    if "\t" not in text:
        return text
    spans = [(t.start_mark.index, t.end_mark.index) for t in tokens(text) if t.end_mark.index > t.start_mark.index]
    out, at, previous_end = list(text), 0, 0
    for index, char in enumerate(text):
        if char != "\t":
            continue
        while at < len(spans) and spans[at][1] <= index:
            previous_end = spans[at][1]
            at += 1
        inside = at < len(spans) and spans[at][0] <= index
        line_start = text.rfind("\n", 0, index) + 1
        in_comment = "#" in text[max(previous_end, line_start):index]
        if not inside and not in_comment:
            out[index] = " "
    return "".join(out)


def _kept_root_tag(before: str, after: str) -> str:
    """``after`` (the editor's text of the body ``before``) with the tag that stood alone on the body's first
    line (``--- !!map``: the body starts after ``--- ``) put back: ruamel.yaml drops a standard tag, and the
    body would then start on the ``---`` line, where a block mapping cannot."""
    first, newline, _ = before.partition("\n")
    token = first.strip()
    if newline and token.startswith("!") and " " not in token and not after.startswith(first):
        return f"{first}\n{after}"
    return after


def _without_directives(dumped: str, prelude: str) -> str:
    """A document ruamel.yaml dumped under directives (``%TAG``, which it writes again) without them and
    their ``---``: the file's own directives stay in the text before the body."""
    if not prelude:
        return dumped
    lines = dumped.splitlines(keepends=True)
    while lines and lines[0].startswith("%"):
        lines.pop(0)
    if not lines or lines[0] != "---\n":
        raise ValueError("the document's directives cannot be kept")
    return "".join(lines[1:])


def _directives(gap: str) -> str:
    """The directives (``%TAG``, ``%YAML``) of the gap before a document, ended by ``---``: what the body is
    read under."""
    lines = [line for line in gap.replace("\r\n", "\n").splitlines(keepends=True) if line.startswith("%")]
    return "".join(lines) + "---\n" if lines else ""


def _rewrite_body(body: Body, text: str, new: Any, whole: str, source: str, gap: str = "",
                  verify: bool = True) -> str:
    """The new text of one changed document body, in the body's own line-end conventions."""
    lf = text.replace("\r\n", "\n")
    newline = "\r\n" if "\r\n" in text else "\n"
    # Most changes need no round-trip tree (splice.py, which checks its own output); a body without a line
    # end of its own does not say which one the file uses.
    spliced = splice(lf, body.data, new, _directives(gap), verify, lambda: file_quote(whole)) if "\n" in lf \
        else None
    if spliced is not None:
        WRITE_PATHS["splice"] += 1
    # Both paths keep one promise: a spliced body that would lose a comment goes to the editor, which keeps
    # it or refuses below.
    if spliced is not None and lost(lf, spliced) is None:
        out = spliced.removesuffix("\n") if not lf.endswith("\n") else spliced
        return out.replace("\n", newline) if newline != "\n" else out
    WRITE_PATHS["editor"] += 1
    prelude = _directives(gap)
    style = detect(prelude + lf, whole)
    where = Location(source, whole.count("\n", 0, body.start) + 1)
    for keep in (True, False):
        try:
            out = _kept_root_tag(lf, _edit(lf, body.data, new, style, keep, prelude))
        except DuplicateKeyError:  # kubectl reads the last value; an edit could not say which one it changes
            raise RewriteError("cannot rewrite a document whose mapping keys repeat: remove the repeated keys",
                               where) from None
        except (YAMLError, ValueError) as exc:  # what Kubernetes reads but ruamel.yaml's round trip cannot
            problem = getattr(exc, "problem", None) or str(exc).strip().splitlines()[0]
            mark = getattr(exc, "problem_mark", None)
            at = Location(source, where.line + mark.line, mark.column + 1) if mark is not None else where
            raise RewriteError(f"cannot rewrite this document: ruamel.yaml cannot edit it ({problem})",
                               at) from None
        if not lf.endswith("\n"):  # the last document of a file without a final newline
            out = out.removesuffix("\n")
        if _loads_as(out, new, source, prelude):
            break
    else:
        raise RewriteError("cannot rewrite this document without changing its meaning", where)
    dropped = lost(lf, out)
    if dropped is not None:
        raise RewriteError(f"cannot rewrite this document without dropping the comment {'#' + dropped!r} "
                           "(comments inside a flow collection that changes are lost: move it out)", where)
    newline = "\r\n" if "\r\n" in text else style.newline
    return out.replace("\n", newline) if newline != "\n" else out


def rewrite(text: str, new_docs: Mapping[int, Any], source: str, docs: list[Document] | None = None) -> str:
    """``text`` with document ``i`` (numbered as :func:`load_stream` numbers them) holding ``new_docs[i]``.

    Documents not in ``new_docs``, or whose new data equals their old data, are returned byte for byte;
    changed documents are edited minimally, keeping comments, quoting, indentation and line ends.
    """
    layout = split(text, source, docs)
    missing = sorted(set(new_docs) - {body.index for body in layout.bodies})
    if missing:
        raise RewriteError("file changed while it was being rendered", Location(source))
    # Spliced documents are checked once, with the whole stream; only when that check fails is each
    # spliced document checked on its own (and given to the editor when its splice does not read back).
    try:
        return _rewritten(text, layout, new_docs, source, verify=False)
    except RewriteError:
        return _rewritten(text, layout, new_docs, source, verify=True)


def _rewritten(text: str, layout: Layout, new_docs: Mapping[int, Any], source: str, verify: bool) -> str:
    out: list[str] = []
    gap = ""
    for body, piece in layout.pieces():
        if body is None or body.index not in new_docs or same(body.data, new_docs[body.index]):
            out.append(piece)
            gap = piece if body is None else ""
        else:
            out.append(_rewrite_body(body, piece, new_docs[body.index], text, source, gap, verify))
        if body is not None and verify is False:
            for said in AFTER_DOCUMENT:
                said()
    result = "".join(out)
    if result != text:
        _check_whole(result, layout, new_docs, source)
    return result


def _check_whole(result: str, layout: Layout, new_docs: Mapping[int, Any], source: str) -> None:
    """Refuse unless ``result`` reads back as every document it should hold, in place, and nothing else."""
    expected = [(body.index, new_docs.get(body.index, body.data)) for body in layout.bodies]
    missing = object()
    repeats: set[int] = set()
    try:  # one document at a time: the check of a large file holds no second copy of it
        read = zip_longest(stream_data(result, source, repeats=repeats), expected, fillvalue=(missing, missing))
        faithful = all(index == want and same(data, wanted) for (index, data), (want, wanted) in read)
    except InputError:
        faithful = False
    # A key written twice reads as its last value: a rewritten document must not repeat one (a document
    # copied as it was may, kubectl reads it so).
    rewritten = {body.index for body in layout.bodies
                 if body.index in new_docs and not same(body.data, new_docs[body.index])}
    faithful = faithful and not repeats & rewritten
    if not faithful:
        raise RewriteError("cannot rewrite this file without changing its meaning", Location(source))
