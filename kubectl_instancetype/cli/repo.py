"""Catalogs from the git repository (``--repo-catalog``): what pre-commit does not pass.

pre-commit passes only the changed files, so an instancetype kept in an unchanged sibling file is "not
found". With ``--repo-catalog`` every file git tracks (YAML or JSON) that holds an object a render looks up
(instancetypes, preferences, ControllerRevisions, storage objects) is read as a catalog. Files that do not
parse (a Helm template) or are left out by ``--exclude`` are passed over: they are not what is checked.

A KubeVirt CR tracked in the repository is the cluster's configuration (its feature gates, its release in
``status.observedKubeVirtVersion``) when nothing else names one (``--kubevirt-config``, the config file, a CR
among the inputs): when the repository holds one only; of several, none is chosen (a note says so).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ..api.names import INDEXED_KINDS
from ..errors import InputError, UsageError
from ..inputs.exclude import excluded
from ..inputs.sources import Source
from ..records import dataclass
from ..yamlio import DEFAULT_LIMITS
from ..yamlio.load import load_stream

SUFFIXES = (".yaml", ".yml", ".json")
_KINDS = "|".join(sorted(INDEXED_KINDS))
_KIND = re.compile(rf"""["']?kind["']?\s*:\s*["']?({_KINDS}|KubeVirt)\b""")
KUBEVIRT = "KubeVirt"


@dataclass(frozen=True)
class RepoFiles:
    """What ``--repo-catalog`` found: the catalog files, and the tracked files holding a KubeVirt CR (those
    among the inputs too), as paths relative to the working directory."""

    catalogs: tuple[str, ...] = ()
    kubevirt_crs: tuple[str, ...] = ()
    given_crs: tuple[str, ...] = ()  # the KubeVirt CRs among the inputs


def repo_catalogs(inputs: tuple[str, ...], exclude: tuple[str, ...]) -> tuple[str, ...]:
    """The tracked files of the repository of the working directory that hold catalog or support objects,
    as paths relative to the working directory (the ``inputs`` themselves left out: they are read anyway)."""
    return repo_files(inputs, exclude).catalogs


def repo_files(inputs: tuple[str, ...], exclude: tuple[str, ...]) -> RepoFiles:
    """The tracked files of the repository of the working directory that hold catalog or support objects, and
    those that hold a KubeVirt CR, in one reading."""
    try:
        done = subprocess.run(["git", "ls-files", "-z", "--full-name", "--", *(f"*{s}" for s in SUFFIXES)],
                              capture_output=True, check=False)
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise UsageError(f"--repo-catalog: cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0 or top.returncode != 0:
        raise UsageError("--repo-catalog: not in a git repository")
    root, here = Path(top.stdout.strip()), Path.cwd().resolve()
    given = {Path(p).resolve() for p in inputs if p != "-"}
    found: list[str] = []
    crs: list[str] = []
    given_crs: list[str] = []
    for name in sorted(n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n):
        path = root / name
        kinds = _kinds(path)
        if not kinds:
            continue
        display = _relative(path, here)
        if excluded(Source(name, display), exclude):  # patterns match the path from the repository root
            continue
        if KUBEVIRT in kinds:
            (given_crs if path.resolve() in given else crs).append(display)
        if kinds - {KUBEVIRT} and path.resolve() not in given:
            found.append(display)
    return RepoFiles(tuple(found), tuple(crs), tuple(given_crs))


def _relative(path: Path, here: Path) -> str:
    try:
        return str(path.resolve().relative_to(here))
    except ValueError:
        return str(path)


def _kinds(path: Path) -> set[str]:
    """The kinds a render looks up (and KubeVirt) that ``path`` names, when it parses (a template that does not
    is passed over): none for a file to pass over."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    kinds = {match[1] for match in _KIND.finditer(text)}
    if not kinds:
        return kinds
    try:
        load_stream(text, str(path), DEFAULT_LIMITS)
    except InputError:
        return set()
    return kinds
