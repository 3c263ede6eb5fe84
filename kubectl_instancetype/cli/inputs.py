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

from ..catalog.remote import is_url, parse_source, redact
from ..errors import InputError, InternalLimitError, Location
from ..inputs import STDIN, STDIN_NAME, Source, Text
from ..records import dataclass
from ..yamlio import DEFAULT_LIMITS

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
__all__ = ["FILES", "STDIN", "STDIN_NAME", "FileReader", "Source", "expand_paths", "read_text"]


def expand_paths(paths: tuple[str, ...], recursive: bool, follow_symlinks: bool = False,
                 outside: tuple[str, ...] = ()) -> Iterator[Source]:
    """Files named by ``-f`` arguments; directories give their manifest files, sorted; URLs stay URLs.

    Inside a directory, symbolic links that lead out of it are skipped unless ``follow_symlinks``: a
    ``--write`` over a repository must not reach files elsewhere on the machine. A symbolic link to a
    file the walk lists anyway is an alias and is skipped; each directory is walked once, however many
    links lead to it (a link loop ends). Nothing inside the directories ``outside`` (the output
    directory) is read, even named. A directory that cannot be listed is a Source whose reading reports it.
    """
    skip = {os.path.realpath(path) for path in outside}
    for path in paths:
        if is_url(path):
            yield Source(path, redact(path.partition("#")[0]), path)
        elif path == STDIN:
            yield Source(STDIN, STDIN_NAME, STDIN)
        elif os.path.isdir(path):
            yield from _directory(Path(path), recursive, follow_symlinks, skip)
        elif not _within(os.path.realpath(path), skip):  # pre-commit may name files of the output tree
            yield Source(path, shown(path), path)


def shown(path: str) -> str:
    """A file name as messages and reports show it: bytes that are not UTF-8 (``os.fsdecode``'s surrogates)
    written as ``\\xff``, so JSON, markdown and JUnit reports stay valid UTF-8 and the name stays readable."""
    if path.isascii():
        return path
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


def _within(path: str, directories: set[str]) -> bool:
    return any(path == d or path.startswith(d.rstrip(os.sep) + os.sep) for d in directories)


def _directory(root: Path, recursive: bool, follow_symlinks: bool, skip: set[str]) -> Iterator[Source]:
    inside = root.resolve()
    found: list[Path] = []
    unreadable: list[Source] = []
    visited: set[tuple[int, int]] = set()

    def failed(exc: OSError) -> None:
        name = exc.filename if isinstance(exc.filename, str) else str(root)
        unreadable.append(Source(name, name, str(root), f"cannot read directory: {exc.strerror or exc}"))

    for folder, dirs, names in os.walk(root, onerror=failed, followlinks=follow_symlinks):
        try:
            info = os.stat(folder)
        except OSError:
            dirs[:] = []
            continue
        if (info.st_dev, info.st_ino) in visited or _within(os.path.realpath(folder), skip):
            dirs[:] = []  # a link loop, or a directory seen through another link, or the output directory
            continue
        visited.add((info.st_dev, info.st_ino))
        dirs[:] = sorted(dirs) if recursive else []
        found.extend(Path(folder, name) for name in names if Path(name).suffix.lower() in MANIFEST_SUFFIXES)
    links = {file for file in found if file.is_symlink()}
    # the files the walk lists anyway, for the links to them (resolved only when there are links: a path
    # resolved is a system call for each of its parts)
    listed = {str(file.resolve()) for file in found if file not in links} if links else set()
    for file in sorted(found):
        if file in links:
            target = file.resolve()
            if str(target) in listed or (not follow_symlinks and not target.is_relative_to(inside)):
                continue
        if file.is_file():
            yield Source(str(file), shown(str(file)), str(root))
    yield from unreadable


def read_text(source: Source, max_bytes: int = DEFAULT_LIMITS.max_bytes, warnings: list[str] | None = None) -> str:
    """The text of ``source``; InputError (exit 3) when it cannot be read, fetched or decoded."""
    if source.problem is not None:
        raise InputError(source.problem, Location(source.display))
    if is_url(source.path):
        from .fetch import fetch_text

        return fetch_text(parse_source(source.path), max_bytes, warnings if warnings is not None else [])
    try:
        data = _read_bytes(source, max_bytes)
    except FileNotFoundError:
        raise InputError("no such file or directory", Location(source.display)) from None
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), Location(source.display)) from None
    if len(data) > max_bytes:
        raise InternalLimitError(f"input is larger than the limit of {max_bytes} bytes (--max-input-bytes)",
                                 Location(source.display))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(source.display)) from None


def _read_bytes(source: Source, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of a file or standard input: one more than allowed tells it is too big."""
    if source.path == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a closed standard input (cli.crash.ClosedStream) or a text-only stand-in
            text = sys.stdin.read(max_bytes + 1)
            return text.encode("utf-8", "surrogateescape")
        return bytes(stream.read(max_bytes + 1))
    with open(source.path, "rb") as handle:
        return handle.read(max_bytes + 1)


@dataclass(frozen=True)
class FileReader:
    """The inputs layer's :class:`~kubectl_instancetype.inputs.Reader` over the file system, stdin and URLs;
    nothing inside the directories ``outside`` (``render --output-dir``) is listed."""

    outside: tuple[str, ...] = ()

    def sources(self, paths: tuple[str, ...], recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
        return expand_paths(paths, recursive, follow_symlinks, self.outside)

    def read(self, source: Source, max_bytes: int) -> Text:
        warnings: list[str] = []
        text = read_text(source, max_bytes, warnings)
        return Text(text, warnings[0] if warnings else None)


FILES = FileReader()
