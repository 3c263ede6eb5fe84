"""Catalogs from the git repository (``--repo-catalog``): what pre-commit does not pass.

pre-commit passes only the changed files, so an instancetype kept in an unchanged sibling file is "not
found". With ``--repo-catalog`` every file git tracks (YAML or JSON) that holds an object a render looks up
(instancetypes, preferences, ControllerRevisions, storage objects) is read as a catalog. Files that do not
parse (a Helm template) or are left out by ``--exclude`` are passed over: they are not what is checked (an
excluded file is not even opened). Reads are bounded: a tracked link out of the repository is not followed,
only regular files are opened (a FIFO would block), and no more than ``--max-input-bytes`` of each. The one
KubeVirt CR the repository tracks, if it tracks one, is the cluster's configuration when nothing else names one.
The option and its effect on the catalog options are here too, for ``render`` and ``validate`` alike.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import click

from ..api.names import INDEXED_KINDS
from ..errors import InputError, UsageError
from ..escape.terminal import one_line
from ..inputs.exclude import excluded
from ..inputs.sources import Source
from ..records import replace
from ..yamlio import DEFAULT_LIMITS
from ..yamlio.load import load_stream
from .options import CatalogOptions, InputOptions

SUFFIXES = (".yaml", ".yml", ".json")
_KINDS = "|".join(sorted(INDEXED_KINDS))
_KIND = re.compile(rf"""["']?kind["']?\s*:\s*["']?({_KINDS})\b""")


REPO_CATALOG_HELP = ("Also read the instancetypes, preferences, ControllerRevisions and storage objects of every "
                     "file git tracks in this repository (as pre-commit passes only the changed files): regular "
                     "files of the repository only (a tracked link out of it is not followed), at most "
                     "--max-input-bytes each, --exclude applied before a file is opened.")


def repo_catalog_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option("--repo-catalog", is_flag=True, help=REPO_CATALOG_HELP)(func)


def with_repo_catalog(inputs: InputOptions, catalogs: CatalogOptions, on: bool) -> CatalogOptions:
    """``catalogs`` with the repository's catalog files added when ``on``."""
    if not on:
        return catalogs
    try:
        found = repo_catalogs(inputs.filenames, inputs.exclude, inputs.limits.max_bytes)
    except UsageError as exc:  # outside a repository, no git: the command line asks what cannot be
        raise click.UsageError(exc.message) from None
    return replace(catalogs, catalogs=catalogs.catalogs + found)


def with_tracked_kubevirt_cr(inputs: InputOptions, catalogs: CatalogOptions, on: bool) -> CatalogOptions:
    """``catalogs`` with the KubeVirt CR the repository tracks as the fallback configuration, when ``on`` and
    nothing else names one (``--kubevirt-config`` or the config file's wins, then a CR among the inputs)."""
    if not on or catalogs.kubevirt_config is not None:
        return catalogs
    others, among = repo_kubevirt_crs(inputs.filenames, inputs.exclude, inputs.limits.max_bytes)
    if among or not others:
        return catalogs
    if len(others) > 1:  # one per environment, say: which one the cluster runs is not known
        click.echo(one_line(f"note: --repo-catalog: {len(others)} KubeVirt CRs tracked ({', '.join(others)}): none is "
                            "read as the cluster's configuration; name one with --kubevirt-config"), err=True)
        return catalogs
    return replace(catalogs, fallback_config=others[0])  # a CR among the inputs (untracked) still wins


def repo_catalogs(inputs: tuple[str, ...], exclude: tuple[str, ...],
                  max_bytes: int = DEFAULT_LIMITS.max_bytes) -> tuple[str, ...]:
    """The tracked files of the repository of the working directory that hold catalog or support objects,
    as paths relative to the working directory (the ``inputs`` themselves left out: they are read anyway).

    Only what is the repository's own is read (:func:`_own_files`), and never more than ``max_bytes`` of it.
    A file larger than ``max_bytes`` is kept, so that reading it as a catalog says it is too large (exit 3).
    """
    given = _given(inputs)
    return tuple(display for display, real in _own_files(exclude)
                 if real not in given and _holds_catalog(real, max_bytes))


def _own_files(exclude: tuple[str, ...]) -> list[tuple[str, Path]]:
    """The YAML and JSON files git tracks in the repository of the working directory, in name order: (the
    path relative to the working directory, the regular file it is). A file ``--exclude`` leaves out is not
    opened, a tracked symbolic link is followed only to a file of the repository (a pull request can plant a
    link to /dev/zero or a FIFO), and anything that is not a regular file is passed over. UsageError outside
    a repository or without git."""
    import subprocess

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
    found = []
    for name in sorted(_tracked(done.stdout)):
        path = root / name
        display = _relative(path, here)
        if excluded(Source(name, display), exclude):  # patterns match the path from the repository root
            continue
        real = _own_file(path, root)
        if real is not None:
            found.append((display, real))
    return found


def _given(inputs: tuple[str, ...]) -> set[Path]:
    return {Path(p).resolve() for p in inputs if p != "-"}


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
    text = _text(path, max_bytes)
    if text is None or not isinstance(text, str):
        return text is TOO_LARGE
    return _documents(text, path, _KIND) is not None


TOO_LARGE = object()  # _text of a file larger than the limit


def _text(path: Path, max_bytes: int) -> str | object | None:
    """The text of ``path`` read no further than ``max_bytes`` (:data:`TOO_LARGE` beyond it); None when it
    cannot be read as UTF-8."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        return TOO_LARGE if len(data) > max_bytes else data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _documents(text: str, path: Path, kind: re.Pattern[str]) -> list[Any] | None:
    """The documents of ``text`` when it names ``kind`` and parses; else None (a Helm template, say)."""
    if not kind.search(text):
        return None
    try:
        return load_stream(text, str(path), DEFAULT_LIMITS)
    except InputError:
        return None


_KUBEVIRT_KIND = re.compile(r"""["']?kind["']?\s*:\s*["']?KubeVirt\b""")


def repo_kubevirt_crs(inputs: tuple[str, ...], exclude: tuple[str, ...],
                      max_bytes: int = DEFAULT_LIMITS.max_bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tracked files of the repository of the working directory that hold a KubeVirt CR, as paths
    relative to the working directory: those that are not among ``inputs``, and those that are. The one CR
    tracked is the cluster's configuration (feature gates, the release in ``status.observedKubeVirtVersion``)
    when nothing else names one. Read as the catalogs are (:func:`_own_files`), at most ``max_bytes`` each."""
    given = _given(inputs)
    others: list[str] = []
    among: list[str] = []
    for display, real in _own_files(exclude):
        if _holds_kubevirt_cr(real, max_bytes):
            (among if real in given else others).append(display)
    return tuple(others), tuple(among)


def _holds_kubevirt_cr(path: Path, max_bytes: int) -> bool:
    """Whether ``path`` (at most ``max_bytes`` of it) parses and holds a KubeVirt CR."""
    from ..config import is_kubevirt_cr

    text = _text(path, max_bytes)
    documents = _documents(text, path, _KUBEVIRT_KIND) if isinstance(text, str) else None
    return documents is not None and any(is_kubevirt_cr(doc.data) for doc in documents)
