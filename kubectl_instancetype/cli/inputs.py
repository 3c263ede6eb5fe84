"""Reading ``-f`` and ``--catalog`` sources: files, directories (``-R``), stdin and http(s) URLs.

This is the I/O edge of the inputs layer (:mod:`kubectl_instancetype.inputs`): :data:`FILES` lists and
reads sources for it, so that a source means the same thing wherever it is named: multi-document streams
with or without a leading ``---`` (the published common-instancetypes bundles), ``kind: List`` (flattened
later), JSON. Everything here opens files or fetches URLs; everything it returns is plain text.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from ..catalog.remote import is_url, parse_source
from ..errors import InputError, Location
from ..inputs import STDIN, STDIN_NAME, Source, Text
from ..yamlio import DEFAULT_LIMITS

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
__all__ = ["FILES", "STDIN", "STDIN_NAME", "FileReader", "Source", "expand_paths", "read_text"]


def expand_paths(paths: tuple[str, ...], recursive: bool, follow_symlinks: bool = False) -> Iterator[Source]:
    """Files named by ``-f`` arguments; directories give their manifest files, sorted; URLs stay URLs.

    Inside a directory, symbolic links that lead out of it are skipped unless ``follow_symlinks``: a
    ``--write`` over a repository must not reach files elsewhere on the machine.
    """
    for path in paths:
        if is_url(path):
            yield Source(path, path.partition("#")[0], path)
        elif path == STDIN:
            yield Source(STDIN, STDIN_NAME, STDIN)
        elif os.path.isdir(path):
            yield from _directory(Path(path), recursive, follow_symlinks)
        else:
            yield Source(path, path, path)


def _directory(root: Path, recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
    inside = root.resolve()
    found: list[Path] = []
    for folder, dirs, files in os.walk(root, followlinks=follow_symlinks):
        dirs[:] = sorted(dirs) if recursive else []
        found.extend(Path(folder, name) for name in files if Path(name).suffix.lower() in MANIFEST_SUFFIXES)
    for file in sorted(found):
        if not follow_symlinks and file.is_symlink() and not file.resolve().is_relative_to(inside):
            continue
        if file.is_file():
            yield Source(str(file), str(file), str(root))


def read_text(source: Source, max_bytes: int = DEFAULT_LIMITS.max_bytes, warnings: list[str] | None = None) -> str:
    """The text of ``source``; InputError (exit 3) when it cannot be read, fetched or decoded."""
    if is_url(source.path):
        from .fetch import fetch_text

        return fetch_text(parse_source(source.path), max_bytes, warnings if warnings is not None else [])
    try:
        if source.path == STDIN:
            return sys.stdin.read()
        with open(source.path, encoding="utf-8", newline="") as handle:
            return handle.read(max_bytes + 1)  # one more than allowed: the loader refuses it, bounded
    except FileNotFoundError:
        raise InputError("no such file or directory", Location(source.display)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(source.display)) from None
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), Location(source.display)) from None


class FileReader:
    """The inputs layer's :class:`~kubectl_instancetype.inputs.Reader` over the file system, stdin and URLs."""

    def sources(self, paths: tuple[str, ...], recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
        return expand_paths(paths, recursive, follow_symlinks)

    def read(self, source: Source, max_bytes: int) -> Text:
        warnings: list[str] = []
        text = read_text(source, max_bytes, warnings)
        return Text(text, warnings[0] if warnings else None)


FILES = FileReader()
