"""Reading and replacing the files ``--write``, ``--output-dir`` and the reports produce, without ever damaging one.

A file is replaced atomically: a temporary file in the same directory, flushed to disk, renamed over it,
so a process killed at any moment leaves the old or the new content. What the rename would silently lose
is refused instead: a file that is not a regular file (a FIFO, a device), that has other hard links (the
rename would split them), that is read-only (its mode says so, whoever runs the tool: root included), or
whose owner and group cannot be kept.

Under ``--output-dir`` nothing is followed: every directory from the output directory down is opened
with ``O_NOFOLLOW`` relative to its parent, and a symbolic link anywhere in the output tree (the file,
a directory, a dangling link) is refused, so a link planted by a pull request cannot send the output
elsewhere on the machine. Reports (``--output-file``, ``--junit-xml``) are written the same way (:func:`report`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator

from ..errors import InputError, Location
from ..records import dataclass

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class Place:
    """Where a target lives: the directory to open and the file name in it; ``confined`` for ``--output-dir``."""

    directory: str
    name: str
    confined_to: str | None = None  # the output directory when nothing from there down may be a link
    display: str = ""  # the path as the user named it, for messages ("": the directory and name)
    within: str = " in the output directory"  # where a refused link is, for messages


def in_place(path: str) -> Place:
    """A file rewritten where it is (``--write``): through an in-tree symbolic link, its target."""
    real = os.path.realpath(path)
    return Place(os.path.dirname(real), os.path.basename(real), display=path)


def under(root: str, relative: str) -> Place:
    """A file at ``relative`` inside the output directory ``root``; no ``..`` nor absolute parts."""
    parts = [p for p in os.path.normpath(relative).split(os.sep) if p not in ("", ".")]
    if not parts or os.path.isabs(relative) or ".." in parts:
        raise InputError("refusing to write outside the output directory", Location(os.path.join(root, relative)))
    return Place(os.path.join(root, *parts[:-1]), parts[-1], root)


def report(path: str) -> Place:
    """A report file (``--output-file``, ``--junit-xml``): never written through a symbolic link, nor through
    one among its directories from the working directory down (a pull request can plant one at the name a CI
    step writes its report to, as in an output directory); a path from the root is the user's own choice
    above its last directory."""
    directory, name = os.path.split(path)
    if not name or name in (".", ".."):
        raise InputError("not a file name", Location(path))
    root = (directory or ".") if os.path.isabs(path) else "."
    return Place(directory or ".", name, root, path, ": a pull request can plant one where a report goes")


def _refuse(place: Place, message: str) -> InputError:
    return InputError(message, Location(place.display or os.path.join(place.directory, place.name)))


@contextlib.contextmanager
def _directory(place: Place, create: bool) -> Iterator[int | None]:
    """A descriptor of ``place.directory`` (None when it does not exist and ``create`` is off)."""
    fd: int | None
    if place.confined_to is None:
        if create:
            os.makedirs(place.directory, exist_ok=True)
        try:
            fd = os.open(place.directory, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            if create:
                raise
            yield None
            return
    else:
        fd = _walk(place, create)
        if fd is None:
            yield None
            return
    try:
        yield fd
    finally:
        os.close(fd)


def _walk(place: Place, create: bool) -> int | None:
    """Open the directories of a confined place one by one, refusing symbolic links."""
    root = place.confined_to or "."
    relative = os.path.relpath(place.directory, root)
    parts = [] if relative == "." else relative.split(os.sep)
    if create:
        with contextlib.suppress(FileExistsError):
            os.makedirs(os.path.dirname(os.path.abspath(root)), exist_ok=True)
            os.mkdir(root)
    fd = _open_dir(place, root, None, root)
    if fd is None:
        return None
    for part in parts:
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=fd)
        try:
            child = _open_dir(place, part, fd, os.path.join(root, part))
        finally:
            os.close(fd)
        if child is None:
            return None
        fd = child
    return fd


def _open_dir(place: Place, name: str, parent: int | None, shown: str) -> int | None:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        return None
    except OSError as exc:
        try:
            is_link = stat.S_ISLNK(os.lstat(name, dir_fd=parent).st_mode)
        except OSError:
            is_link = False
        if is_link:
            raise InputError(f"refusing to write through a symbolic link{place.within}",
                             Location(shown)) from None
        raise InputError(f"cannot open directory: {exc.strerror or exc}", Location(shown)) from None


def _lstat(name: str, directory: int) -> os.stat_result | None:
    try:
        return os.lstat(name, dir_fd=directory)
    except FileNotFoundError:
        return None


def read(place: Place, max_bytes: int) -> str | None:
    """The current text of a target; None when it does not exist (or cannot be read as UTF-8 text)."""
    with _directory(place, create=False) as directory:
        if directory is None:
            return None
        info = _lstat(place.name, directory)
        if info is None:
            return None
        _check_kind(place, info)
        try:
            fd = os.open(place.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=directory)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(max_bytes + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _check_kind(place: Place, info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(place, f"refusing to write through a symbolic link{place.within}")
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(place, "not a regular file: refusing to replace it")


def _check_replaceable(place: Place, info: os.stat_result) -> None:
    _check_kind(place, info)
    if info.st_nlink > 1:
        raise _refuse(place, f"file has {info.st_nlink} hard links: replacing it would split them")
    if not info.st_mode & stat.S_IWUSR:
        raise _refuse(place, "file is read-only: refusing to replace it")


def write(place: Place, text: str, expected: str | None = None) -> None:
    """Replace the target by ``text`` in one rename, keeping its permissions, owner and group.

    ``expected`` is the text the new one was computed from (a read-modify-write): the file is read again
    just before the rename, and left alone when it no longer holds that text (someone edited it meanwhile).
    """
    data = text.encode("utf-8")
    try:
        with _directory(place, create=True) as directory:
            assert directory is not None
            info = _lstat(place.name, directory)
            if info is not None:
                _check_replaceable(place, info)
            _replace(place, directory, data, info, None if expected is None else expected.encode("utf-8"))
    except InputError:
        raise
    except OSError as exc:
        raise _refuse(place, f"cannot write: {exc.strerror or exc}") from None


def _unchanged(place: Place, directory: int, expected: bytes, info: os.stat_result | None) -> bool:
    """Whether the file still is what it was when it was read: same inode, same bytes (no link followed)."""
    try:
        fd = os.open(place.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                     dir_fd=directory)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        now = os.fstat(handle.fileno())
        if not stat.S_ISREG(now.st_mode) or (info is not None and now.st_ino != info.st_ino):
            return False
        return handle.read(len(expected) + 1) == expected


def _replace(place: Place, directory: int, data: bytes, info: os.stat_result | None,
             expected: bytes | None = None) -> None:
    if info is not None:
        mode = stat.S_IMODE(info.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    temporary = f".{place.name}.{os.urandom(4).hex()}.tmp"  # random, as secrets.token_hex (not imported)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(temporary, flags, 0o600, dir_fd=directory)
    except OSError as exc:
        raise InputError(f"cannot create a temporary file in this directory: {exc.strerror or exc}",
                         Location(place.directory)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if info is not None:
                _keep_owner(place, handle.fileno(), info)
            os.fchmod(handle.fileno(), mode)
        if expected is not None and not _unchanged(place, directory, expected, info):
            raise InputError("file changed while it was being rewritten: left as it is now (run again)",
                             Location(os.path.join(place.directory, place.name)))
        os.replace(temporary, place.name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=directory)
        raise


def _keep_owner(place: Place, fd: int, info: os.stat_result) -> None:
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        raise _refuse(place, "cannot keep the file's owner and group: refusing to replace it") from None
