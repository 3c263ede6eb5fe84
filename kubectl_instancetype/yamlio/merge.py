"""Keeping the original text of lines that an edit did not touch but ruamel.yaml would normalise.

ruamel.yaml's round trip is faithful for most files but rewrites a few spellings: ``~`` and ``Null``
become empty, ``+1`` becomes ``1``, ``{ a: 1 }`` becomes ``{a: 1}``, extra spaces after a colon go. For
a changed document three texts are at hand: the *original*, ruamel's *normalised* dump of the unedited
tree, and its *edited* dump. Lines that the edit left alone (equal in normalised and edited) are taken
from the original; the others from the edited text. The caller checks that the result loads back to the
new data and otherwise uses the edited text as it is.
"""

from __future__ import annotations

from difflib import SequenceMatcher

_Chunk = tuple[int, int, int, int]  # normalised[n1:n2] was original[o1:o2]


def _chunks(normalised: list[str], original: list[str]) -> list[_Chunk]:
    """Pieces of the normalised text and the original text they stand for, line by line where possible."""
    out: list[_Chunk] = []
    # Compared without trailing blanks, which ruamel.yaml drops: a file whose every line ends in spaces would
    # otherwise match nowhere but on its blank lines, and the pieces would pair the wrong lines.
    matcher = SequenceMatcher(None, [line.rstrip() for line in normalised], [line.rstrip() for line in original],
                              autojunk=False)
    for tag, n1, n2, o1, o2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and n2 - n1 == o2 - o1):
            out.extend((n1 + k, n1 + k + 1, o1 + k, o1 + k + 1) for k in range(n2 - n1))
        else:
            out.append((n1, n2, o1, o2))
    return out


def _original_of(
    start: int, end: int, chunks: list[_Chunk], normalised: list[str], original: list[str]
) -> list[str]:
    """The original lines behind ``normalised[start:end]`` (normalised ones where a piece is cut)."""
    out: list[str] = []
    for n1, n2, o1, o2 in chunks:
        if n1 == n2:  # lines only the original has: kept when inside the range
            if start < n1 < end or n1 == end == len(normalised):
                out.extend(original[o1:o2])
        elif start <= n1 and n2 <= end:
            out.extend(original[o1:o2])
        elif n1 < end and start < n2:
            out.extend(normalised[max(n1, start) : min(n2, end)])
    return out


def keep_original(original: str, normalised: str, edited: str) -> str:
    """``edited`` with each untouched line spelled as in ``original`` (all three with LF line ends)."""
    if original == normalised:
        return edited
    o_lines, n_lines, e_lines = (t.splitlines(keepends=True) for t in (original, normalised, edited))
    chunks = _chunks(n_lines, o_lines)
    out: list[str] = []
    matcher = SequenceMatcher(None, n_lines, e_lines, autojunk=False)
    for tag, n1, n2, e1, e2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(_original_of(n1, n2, chunks, n_lines, o_lines))
        else:
            out.extend(e_lines[e1:e2])
    return "".join(out)
