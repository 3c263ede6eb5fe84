"""The config file: settings found the way ruff and yamllint find theirs, so they are written once.

``.kubectl-instancetype.yaml`` (or ``.yml``) in the working directory or the nearest directory above it, else
the ``[tool.kubectl-instancetype]`` table of the nearest ``pyproject.toml`` that has one; ``--config PATH``
names the file instead (``--config ''``: none). Its keys are the long options of the commands, without the
dashes (``catalog``, ``kubevirt-config``, ``kubevirt-version``, ``arch``, ``exclude``, ``namespace``,
``validate``, ``builtin-catalog``, ``output-format``, …), each of one type; a key named after a command whose
value is a mapping (``render:``, ``validate:``) holds settings for that command only, and the other commands
ignore it (``validate: strict`` is the ``--validate`` mode, ``validate: {…}`` the validate command's table).
A command's table also takes every long option of that command, checked as the command line checks it
(``diff: {restart-impact: true, fail-on: restart}``; :mod:`.tables`).
Flags given on the command line win, before the command or after it. Paths (``catalog``,
``kubevirt-config``) are relative to the file; URLs stay as they are. A mistake anywhere in the file (an
unknown key, a wrong type, a second document) is a usage error naming the file, whichever command runs.

The settings become click's ``default_map``: every command, the pre-commit hooks, the GitHub Action, the Argo
CD plugin and the KRM function that run them read the same file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import InputError, UsageError
from ..yamlio import DEFAULT_LIMITS
from ..yamlio.load import load_stream

NAMES = (".kubectl-instancetype.yaml", ".kubectl-instancetype.yml")
PYPROJECT = "pyproject.toml"
TABLE = "kubectl-instancetype"
STRING, STRINGS, BOOL, MODE = "a string", "a string or a list of strings", "true or false", "a string or true/false"
INT = "a whole number from -2^63 to 2^64-1"  # what go-yaml reads as an integer; the CLI's --seed takes the same
# Config key -> (the parameter it sets, whether it is a path (or a list of paths) relative to the file, its type).
KEYS: dict[str, tuple[str, bool, str]] = {
    "catalog": ("catalogs", True, STRINGS),
    "catalogs": ("catalogs", True, STRINGS),
    "kubevirt-config": ("kubevirt_config", True, STRING),
    "kubevirt-version": ("kubevirt_version", False, STRING),
    "arch": ("arch", False, STRING),
    "exclude": ("exclude", False, STRINGS),
    "namespace": ("namespace", False, STRING),
    "validate": ("validate", False, MODE),
    "recursive": ("recursive", False, BOOL),
    "repo-catalog": ("repo_catalog", False, BOOL),
    "accept-removed-versions": ("accept_removed", False, BOOL),
    "follow-symlinks": ("follow_symlinks", False, BOOL),
    "output-format": ("output_format", False, STRING),
    "summary": ("summary", False, BOOL),
    "quiet": ("quiet", False, BOOL),
    "builtin-catalog": ("no_builtin", False, BOOL),  # inverted: the option is --no-builtin-catalog
    "template-values": ("template_values", True, STRING),
    "seed": ("seed", False, INT),
}
META = "kubectl_instancetype.config"  # the group's --config, for the command's own to read


def find(start: Path) -> Path | None:
    """The config file for ``start``: the nearest ``.kubectl-instancetype.yaml``, or ``pyproject.toml`` with a
    ``[tool.kubectl-instancetype]`` table, in ``start`` or a directory above it."""
    for directory in (start, *start.parents):
        for name in NAMES:
            if (directory / name).is_file():
                return directory / name
        pyproject = directory / PYPROJECT
        if pyproject.is_file() and TABLE in _tool(pyproject, _pyproject(pyproject)):
            return pyproject
    return None


def _tool(path: Path, document: dict[str, Any]) -> dict[str, Any]:
    """The ``[tool]`` table of a pyproject.toml (PEP 518 makes it a table; a file where it is not is refused,
    not searched as text)."""
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise UsageError(f"{os.path.relpath(path)}: error: cannot read the config: tool: must be a table")
    return tool


def _pyproject(path: Path) -> dict[str, Any]:
    import tomllib  # here: only a pyproject.toml needs it (a cold start without one does not pay for it)

    try:
        return tomllib.loads(_text(path))
    except tomllib.TOMLDecodeError as exc:  # "Expected ... (at line 1, column 27)"
        import re

        text = str(exc)
        at = re.search(r" \(at line (\d+), column (\d+)\)$", text)
        where = f"{os.path.relpath(path)}:{at[1]}:{at[2]}" if at else os.path.relpath(path)
        message = text[: at.start()] if at else text
        raise UsageError(f"{where}: error: cannot read the config: {message}") from None


def _text(path: Path) -> str:
    """The config file's text, or a usage error naming it (unreadable, not UTF-8)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: error: cannot read the config: not UTF-8 (byte {exc.object[exc.start]:#04x} "
                         f"at offset {exc.start})") from None
    except OSError as exc:
        raise UsageError(f"{path}: error: cannot read the config: {exc.strerror or exc}") from None


Locate = Callable[[tuple[str, ...]], str]


def read(path: Path) -> tuple[dict[str, Any], Locate]:
    """The settings table of the config file ``path``, and where a key of it is (``path:line:col``)."""
    if path.name == PYPROJECT:
        from .tomlkeys import locator

        table = _tool(path, _pyproject(path)).get(TABLE, {})
        if not isinstance(table, dict):
            raise UsageError(f"{path}: error: tool.{TABLE}: must be a table of settings")
        return table, locator(str(path), _text(path), ("tool", TABLE))
    try:
        docs = load_stream(_text(path), str(path), DEFAULT_LIMITS)
    except InputError as exc:
        raise UsageError(f"{exc.location or path}: error: cannot read the config: {exc.message}") from None
    if len(docs) > 1:  # an error, not a warning: which document holds the settings the team meant is a guess
        raise UsageError(f"{docs[1].location}: error: a second document in the config: its settings are one "
                         "mapping (remove the '---' and what follows, or merge the documents)")
    table = docs[0].data if docs else {}
    if not isinstance(table, dict):
        raise UsageError(f"{docs[0].location}: error: the config must be a mapping of settings")
    return table, lambda key: str(docs[0].locate(key))


def commands() -> tuple[str, ...]:
    """The commands a table of the config can be named after."""
    from . import COMMANDS

    return tuple(name for name in COMMANDS if not name.startswith("_"))


def default_map(path: Path, command: str) -> dict[str, Any]:
    """The defaults the config file at ``path`` gives ``command``'s parameters.

    A top-level key naming a command and holding a mapping is that command's table (``render:``,
    ``validate:``, ``catalog:``); ``validate`` and ``catalog`` holding anything else are the ``--validate`` mode
    and the ``--catalog`` paths. Every table is checked, so a typo fails every command alike; a command reads
    the common settings and its own table, and ignores the other commands' tables.
    """
    table, locate = read(path)
    names = commands()
    tables = {k: v for k, v in table.items() if k in names and (isinstance(v, dict) or k not in KEYS)}
    common = _params(path, {k: v for k, v in table.items() if k not in tables}, (), locate)
    own: dict[str, Any] = {}
    for name, settings in tables.items():
        if not isinstance(settings, dict):
            raise UsageError(f"{locate((name,))}: error: {name}: must be a mapping of settings for the {name} "
                             f"command")
        params = _params(path, settings, (name,), locate, _options(name))
        if name == command:
            own = params
    return {**common, **own}


def _options(name: str) -> dict[str, Any]:
    """The keys the table of the command ``name`` accepts besides the common settings: its options
    (:mod:`.tables`)."""
    from . import tables

    found = tables.command(name)
    return {k: v for k, v in tables.settings(found).items() if k not in KEYS} if found is not None else {}


def _unknown(key: str, within: tuple[str, ...], known: list[str]) -> str:
    """The unknown-setting message: the close spellings first, then every key the place accepts."""
    import difflib

    near = difflib.get_close_matches(key, known, n=2)
    hint = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
    tables = "" if within else f"; tables: {', '.join(sorted(commands()))}"
    return (f"unknown setting {'.'.join((*within, key))!r} ({hint}known: {', '.join(known)}{tables})")


def _params(path: Path, table: dict[str, Any], within: tuple[str, ...], locate: Locate,
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The parameters ``table`` sets: the common settings (:data:`KEYS`) and, in a command's table, that
    command's ``options``."""
    from . import tables

    out: dict[str, Any] = {}
    options = options or {}
    for key, value in table.items():
        name = str(key).replace("_", "-")
        if name in options:
            try:
                out[options[name].param] = tables.value(options[name], value, lambda p: _path(path, p))
            except ValueError as exc:
                got = f" (it is {value!r})" if isinstance(value, str | int | float) and not isinstance(value, bool) \
                    else _got(value, name)
                raise UsageError(f"{locate((*within, key))}: error: {'.'.join((*within, name))}: must be {exc}"
                                 f"{got}") from None
            continue
        if name not in KEYS:
            raise UsageError(f"{locate((*within, key))}: error: "
                             f"{_unknown(str(key), within, sorted({*KEYS, *options}))}")
        param, is_path, kind = KEYS[name]
        checked = _checked(value, kind)
        if checked is None:
            raise UsageError(f"{locate((*within, key))}: error: {'.'.join((*within, name))}: must be {kind}"
                             f"{_got(value, name)}")
        if name == "builtin-catalog":
            out[param] = not checked
        elif kind == STRINGS:
            out[param] = [_path(path, v) if is_path else v for v in checked]
        elif is_path:
            out[param] = _path(path, checked)
        else:
            out[param] = str(checked).lower() if kind == MODE and isinstance(checked, bool) else checked
    return out


def _checked(value: Any, kind: str) -> Any:
    """``value`` if it has the type ``kind`` names (a lone string for a list: a list of one), else None."""
    if kind == BOOL:
        return value if isinstance(value, bool) else None
    if kind == INT:
        whole = isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value <= 2**64 - 1
        return value if whole else None
    if kind == MODE and isinstance(value, bool):
        return value
    if kind == STRINGS:
        values = value if isinstance(value, list) else [value]
        return values if values and all(isinstance(v, str) for v in values) else None
    return value if isinstance(value, str) else None


def _got(value: Any, name: str) -> str:
    """What the value is instead, in YAML's words (not Python's)."""
    if value is None:
        return " (it is empty: null)"
    if isinstance(value, bool):
        return f" (it is {str(value).lower()})"
    if (isinstance(value, int) and not -(2**63) <= value <= 2**64 - 1) or (
            isinstance(value, float) and value.is_integer() and abs(value) >= 2**63):
        return " (it is out of range)"  # a TOML integer, or a YAML one go-yaml reads as a float64
    if isinstance(value, int | float):
        hint = ": quote it (\"1.10\"), YAML reads 1.10 as the number 1.1" if name == "kubevirt-version" else ""
        return f" (it is a number{hint})"
    if isinstance(value, list):
        return " (it is a list)" if not value or all(isinstance(v, str) for v in value) else " (a list holding " \
            "something else than strings)"
    if isinstance(value, dict):
        return " (it is a mapping)"
    return ""


def _path(config: Path, value: str) -> str:
    """``value`` relative to the config file's directory, as a path relative to the working directory when it
    is below it (messages then name files as the user sees them)."""
    if "://" in value or value == "-" or os.path.isabs(value):
        return value
    full = (config.parent / value).resolve()
    try:
        return os.path.relpath(full)
    except ValueError:  # another drive
        return str(full)


def apply(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """The ``--config`` callback (eager): the settings become the defaults of the command's options."""
    if ctx.resilient_parsing:
        return value
    if value is None:
        value = ctx.meta.get(META)  # ``kubectl instancetype --config PATH render``
    if value == "":
        return value
    try:
        path = Path(value) if value is not None else find(Path.cwd())
    except UsageError as exc:  # a pyproject.toml on the way up that does not parse
        raise click.UsageError(exc.message, ctx=ctx) from None
    if path is None:
        return value
    path = Path(os.path.relpath(path)) if path.is_absolute() else path  # named as the user sees it
    if value is not None and not path.is_file():
        # /dev/zero, a FIFO or a directory exist: reading them would hang, or never end
        why = "not a regular file" if path.exists() else "no such file"
        raise click.BadParameter(f"{value}: {why}", ctx=ctx, param=_param)
    try:
        settings = default_map(path, _command_name(ctx))
    except (UsageError, InputError) as exc:
        where = f"{exc.location}: " if exc.location else ""
        raise click.UsageError(f"{where}{exc.message}", ctx=ctx) from None
    known = {p.name for p in ctx.command.params}
    ctx.default_map = {**{k: v for k, v in settings.items() if k in known}, **(ctx.default_map or {})}
    return value


def _command_name(ctx: click.Context) -> str:
    """The command whose table applies: the one named after the program (``catalog`` for ``catalog list``)."""
    while ctx.parent is not None and ctx.parent.parent is not None:
        ctx = ctx.parent
    assert ctx.command.name is not None
    return ctx.command.name


def config_option() -> Any:
    return click.Option(["--config"], metavar="PATH", expose_value=False, is_eager=True, callback=apply,
                        help="Read settings from PATH instead of the .kubectl-instancetype.yaml or pyproject.toml "
                             "[tool.kubectl-instancetype] found from the working directory up ('' for none); "
                             "options given here win.")


def remember(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """The group's ``--config`` callback: kept for the command, which reads the file."""
    if value is not None:
        ctx.meta[META] = value
    return value
