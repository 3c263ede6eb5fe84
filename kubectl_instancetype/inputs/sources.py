"""What the inputs layer reads through: sources named on the command line, and the reader that opens them.

The reading itself (files, directories, standard input, URLs) is I/O and lives at the edge, in
:mod:`kubectl_instancetype.cli.inputs`; the layer is handed a :class:`Reader` and stays pure.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ..records import dataclass

STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Source:
    """One file to read: its path on disk (or ``-``), the name shown in messages, and the ``-f`` argument
    it was found under (the directory a ``--exclude`` pattern is relative to; the file itself when named)."""

    path: str
    display: str
    root: str = ""
    problem: str | None = None  # a directory that could not be listed: reading it reports this


@dataclass(frozen=True)
class Text:
    """What reading a source gave: its text, and a warning when it came unchecked (an unpinned URL)."""

    text: str
    warning: str | None = None


class Reader(Protocol):
    """The I/O the inputs layer needs: listing the files of arguments, and reading one."""

    def sources(self, paths: tuple[str, ...], recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
        """The files named by ``paths``, directories expanded (sorted)."""
        ...

    def read(self, source: Source, max_bytes: int) -> Text:
        """The text of ``source``; InputError (exit 3) when it cannot be read."""
        ...
