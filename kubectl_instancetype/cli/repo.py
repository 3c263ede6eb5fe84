"""Catalogs from the git repository (``--repo-catalog``): what pre-commit does not pass.

pre-commit passes only the changed files, so an instancetype kept in an unchanged sibling file is "not
found". With ``--repo-catalog`` every file git tracks (YAML or JSON) that holds an object a render looks up
(instancetypes, preferences, ControllerRevisions, storage objects) is read as a catalog. Files that do not
parse (a Helm template) or are left out by ``--exclude`` are passed over: they are not what is checked (an
excluded file is not even opened). Reads are bounded: a tracked link out of the repository is not followed,
only regular files are opened (a FIFO would block), and no more than ``--max-input-bytes`` of each.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

from ..api.names import INDEXED_KINDS
from ..errors import InputError, UsageError
from ..inputs.exclude import excluded
from ..inputs.sources import Source
from ..yamlio import DEFAULT_LIMITS
from ..yamlio.load import load_stream

SUFFIXES = (".yaml", ".yml", ".json")
_KINDS = "|".join(sorted(INDEXED_KINDS))
_KIND = re.compile(rf"""["']?kind["']?\s*:\s*["']?({_KINDS})\b""")


def repo_catalogs(inputs: tuple[str, ...], exclude: tuple[str, ...],
                  max_bytes: int = DEFAULT_LIMITS.max_bytes) -> tuple[str, ...]:
    """The tracked files of the repository of the working directory that hold catalog or support objects,
    as paths relative to the working directory (the ``inputs`` themselves left out: they are read anyway).

    Only what is the repository's own is read, and never more than ``max_bytes`` of it: a file ``--exclude``
    leaves out is not opened, a tracked symbolic link is followed only to a file of the repository (a pull
    request can plant a link to /dev/zero or a FIFO), and anything that is not a regular file is passed over.
    A file larger than ``max_bytes`` is kept, so that reading it as a catalog says it is too large (exit 3).
    """
    try:
        done = subprocess.run(["git", "ls-files", "-z", "-s", "--full-name", "--", *(f"*{s}" for s in SUFFIXES)],
                              capture_output=True, check=False)
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("--repo-catalog: git is not installed (not on PATH)") from None
    except OSError as exc:
        raise UsageError(f"--repo-catalog: cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0 or top.returncode != 0:
        raise UsageError("--repo-catalog: not in a git repository")
    root, here = Path(top.stdout.strip()).resolve(), Path.cwd().resolve()
    given = {Path(p).resolve() for p in inputs if p != "-"}
    found = []
    for name in sorted(_tracked(done.stdout)):
        path = root / name
        display = _relative(path, here)
        if excluded(Source(name, display), exclude):  # patterns match the path from the repository root
            continue
        real = _own_file(path, root)
        if real is None or real in given or not _holds_catalog(real, max_bytes):
            continue
        found.append(display)
    return tuple(found)


LINK = "120000"  # git's mode of a symbolic link
TRACKED_FILES = frozenset(("100644", "100755", LINK))  # not submodules (160000)


def _tracked(listing: bytes) -> set[str]:
    """The names of the files and links of ``git ls-files -s -z`` ("<mode> <object> <stage>\\t<name>"): not
    submodules."""
    out = set()
    for entry in listing.decode("utf-8", "surrogateescape").split("\0"):
        header, tab, name = entry.partition("\t")
        if tab and header.split(" ", 1)[0] in TRACKED_FILES:
            out.add(name)
    return out


def _own_file(path: Path, root: Path) -> Path | None:
    """The regular file ``path`` is, inside the repository (through a tracked link only to a file of the
    repository); None for anything else: a link out of it, a FIFO, a device, a directory, nothing."""
    try:
        real = path.resolve(strict=True)
        if not real.is_relative_to(root):  # a tracked link, or a directory on the way replaced by one
            return None
        return real if stat.S_ISREG(os.stat(real).st_mode) else None
    except (OSError, RuntimeError):  # a dangling link, a loop
        return None


def _relative(path: Path, here: Path) -> str:
    try:
        return str(path.resolve().relative_to(here))
    except ValueError:
        return str(path)


def _holds_catalog(path: Path, max_bytes: int) -> bool:
    """Whether ``path`` names a kind a render looks up and parses (a template that does not is passed over); a
    file larger than ``max_bytes`` is not read past it and counts, so that its reading says it is too large."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            return True
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if not _KIND.search(text):
        return False
    try:
        load_stream(text, str(path), DEFAULT_LIMITS)
    except InputError:
        return False
    return True


_KUBEVIRT_KIND = re.compile(r"""["']?kind["']?\s*:\s*["']?KubeVirt\b""")


def repo_kubevirt_crs(inputs: tuple[str, ...], exclude: tuple[str, ...],
                      max_bytes: int = DEFAULT_LIMITS.max_bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tracked files of the repository of the working directory that hold a KubeVirt CR, as paths
    relative to the working directory: those that are not among ``inputs``, and those that are. The one CR
    tracked is the cluster's configuration (feature gates, the release in ``status.observedKubeVirtVersion``)
    when nothing else names one.

    Read as the catalogs are, bounded: a file ``--exclude`` leaves out is not opened, only regular files of
    the repository are (a tracked link out of it, a FIFO or a device is passed over), at most ``max_bytes``."""
    try:
        done = subprocess.run(["git", "ls-files", "-z", "--full-name", "--", *(f"*{s}" for s in SUFFIXES)],
                              capture_output=True, check=False)
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise UsageError(f"--repo-catalog: cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0 or top.returncode != 0:
        raise UsageError("--repo-catalog: not in a git repository")
    root, here = Path(top.stdout.strip()).resolve(), Path.cwd().resolve()
    given = {Path(p).resolve() for p in inputs if p != "-"}
    others: list[str] = []
    among: list[str] = []
    for name in sorted(n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n):
        path = root / name
        display = _relative(path, here)
        if excluded(Source(name, display), exclude):
            continue
        real = _regular_file_of(path, root)
        if real is not None and _holds_kubevirt_cr(real, max_bytes):
            (among if real in given else others).append(display)
    return tuple(others), tuple(among)


def _regular_file_of(path: Path, root: Path) -> Path | None:
    """The regular file ``path`` is, inside the repository; None for a link out of it, a FIFO, a device."""
    try:
        real = path.resolve(strict=True)
        return real if real.is_relative_to(root) and stat.S_ISREG(os.stat(real).st_mode) else None
    except (OSError, RuntimeError):  # a dangling link, a loop
        return None


def _holds_kubevirt_cr(path: Path, max_bytes: int) -> bool:
    """Whether ``path`` (at most ``max_bytes`` of it) parses and holds a KubeVirt CR."""
    from ..config import is_kubevirt_cr

    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            return False
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if not _KUBEVIRT_KIND.search(text):
        return False
    try:
        return any(is_kubevirt_cr(doc.data) for doc in load_stream(text, str(path), DEFAULT_LIMITS))
    except InputError:
        return False
