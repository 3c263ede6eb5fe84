"""Catalogs from the git repository (``--repo-catalog``): what pre-commit does not pass.

pre-commit passes only the changed files, so an instancetype kept in an unchanged sibling file is "not
found". With ``--repo-catalog`` every file git tracks (YAML or JSON) that holds an object a render looks up
(instancetypes, preferences, ControllerRevisions, storage objects) is read as a catalog. Files that do not
parse (a Helm template) or are left out by ``--exclude`` are passed over: they are not what is checked.
"""

from __future__ import annotations

import re
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


def repo_catalogs(inputs: tuple[str, ...], exclude: tuple[str, ...]) -> tuple[str, ...]:
    """The tracked files of the repository of the working directory that hold catalog or support objects,
    as paths relative to the working directory (the ``inputs`` themselves left out: they are read anyway)."""
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
    found = []
    for name in sorted(n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n):
        path = root / name
        if path.resolve() in given or not _holds_catalog(path):
            continue
        display = _relative(path, here)
        if excluded(Source(name, display), exclude):  # patterns match the path from the repository root
            continue
        found.append(display)
    return tuple(found)


def _relative(path: Path, here: Path) -> str:
    try:
        return str(path.resolve().relative_to(here))
    except ValueError:
        return str(path)


def _holds_catalog(path: Path) -> bool:
    """Whether ``path`` names a kind a render looks up and parses (a template that does not is passed over)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if not _KIND.search(text):
        return False
    try:
        load_stream(text, str(path), DEFAULT_LIMITS)
    except InputError:
        return False
    return True
