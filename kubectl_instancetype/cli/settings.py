"""The config file: settings found the way ruff and yamllint find theirs, so they are written once.

``.kubectl-instancetype.yaml`` (or ``.yml``) in the working directory or the nearest directory above it, else
the ``[tool.kubectl-instancetype]`` table of the nearest ``pyproject.toml`` that has one; ``--config PATH``
names the file instead (``--config ''``: none). Its keys are the long options of the commands, without the
dashes (``catalog``, ``kubevirt-config``, ``kubevirt-version``, ``arch``, ``exclude``, ``namespace``,
``validate``, ``builtin-catalog``, ``output-format``, …); a table named after a command (``render:``,
``validate:``) holds settings for that command only. Flags given on the command line win. Paths
(``catalog``, ``kubevirt-config``) are relative to the file; URLs stay as they are.

The settings become click's ``default_map``: every command, the pre-commit hooks, the GitHub Action, the Argo
CD plugin and the KRM function that run them read the same file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from ..errors import InputError, UsageError
from ..yamlio import DEFAULT_LIMITS
from ..yamlio.load import load_stream

NAMES = (".kubectl-instancetype.yaml", ".kubectl-instancetype.yml")
PYPROJECT = "pyproject.toml"
TABLE = "kubectl-instancetype"
# Config key -> (the parameter it sets, whether it is a path (or a list of paths) relative to the file).
KEYS: dict[str, tuple[str, bool]] = {
    "catalog": ("catalogs", True),
    "catalogs": ("catalogs", True),
    "kubevirt-config": ("kubevirt_config", True),
    "kubevirt-version": ("kubevirt_version", False),
    "arch": ("arch", False),
    "exclude": ("exclude", False),
    "namespace": ("namespace", False),
    "validate": ("validate", False),
    "recursive": ("recursive", False),
    "repo-catalog": ("repo_catalog", False),
    "accept-removed-versions": ("accept_removed", False),
    "follow-symlinks": ("follow_symlinks", False),
    "output-format": ("output_format", False),
    "summary": ("summary", False),
    "quiet": ("quiet", False),
    "template-values": ("template_values", True),
    "seed": ("seed", False),
}
LISTS = frozenset(("catalogs", "exclude"))
META = "kubectl_instancetype.config"  # the group's --config, for the command's own to read


def find(start: Path) -> Path | None:
    """The config file for ``start``: the nearest ``.kubectl-instancetype.yaml``, or ``pyproject.toml`` with a
    ``[tool.kubectl-instancetype]`` table, in ``start`` or a directory above it."""
    for directory in (start, *start.parents):
        for name in NAMES:
            if (directory / name).is_file():
                return directory / name
        pyproject = directory / PYPROJECT
        if pyproject.is_file() and TABLE in _pyproject(pyproject).get("tool", {}):
            return pyproject
    return None


def _pyproject(path: Path) -> dict[str, Any]:
    import tomllib  # here: only a pyproject.toml needs it (a cold start without one does not pay for it)

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:  # "Expected ... (at line 1, column 27)"
        import re

        text = str(exc)
        at = re.search(r" \(at line (\d+), column (\d+)\)$", text)
        where = f"{os.path.relpath(path)}:{at[1]}:{at[2]}" if at else os.path.relpath(path)
        message = text[: at.start()] if at else text
        raise UsageError(f"{where}: error: cannot read the config: {message}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the config: {exc}") from None


def read(path: Path) -> dict[str, Any]:
    """The settings table of the config file ``path``."""
    if path.name == PYPROJECT:
        table = _pyproject(path).get("tool", {}).get(TABLE, {})
    else:
        try:
            docs = load_stream(path.read_text(encoding="utf-8"), str(path), DEFAULT_LIMITS)
        except OSError as exc:
            raise UsageError(f"--config {path}: {exc.strerror or exc}") from None
        table = docs[0].data if docs else {}
    if not isinstance(table, dict):
        raise UsageError(f"{path}: the config must be a mapping of settings")
    return table


def default_map(path: Path, commands: list[str]) -> dict[str, dict[str, Any]]:
    """click's ``default_map`` for every command from the config file at ``path``."""
    table = read(path)
    common = _params(path, {k: v for k, v in table.items() if k not in commands})
    out = {}
    for command in commands:
        own = table.get(command, {})
        if not isinstance(own, dict):
            raise UsageError(f"{path}: {command}: must be a mapping of settings")
        out[command] = {**common, **_params(path, own)}
    return out


def _params(path: Path, table: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        name = str(key).replace("_", "-")
        if name == "builtin-catalog":
            out["no_builtin"] = not _flag(path, name, value)
            continue
        if name not in KEYS:
            known = ', '.join(sorted((*KEYS, 'builtin-catalog')))
            raise UsageError(f"{path}: unknown setting {key!r} (known: {known})")
        param, is_path = KEYS[name]
        if param in LISTS:
            values = value if isinstance(value, list) else [value]
            out[param] = [_path(path, str(v)) if is_path else str(v) for v in values]
        elif isinstance(value, bool) and param in ("validate",):
            out[param] = str(value).lower()
        elif isinstance(value, bool):
            out[param] = value
        else:
            out[param] = _path(path, str(value)) if is_path else str(value)
    return out


def _flag(path: Path, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{path}: {name}: must be true or false")
    return value


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
        raise click.BadParameter(f"{value}: no such file", ctx=ctx, param=_param)
    assert ctx.command.name is not None
    try:
        settings = default_map(path, [ctx.command.name])[ctx.command.name]
    except (UsageError, InputError) as exc:
        where = f"{exc.location}: " if exc.location else ""
        raise click.UsageError(f"{where}{exc.message}", ctx=ctx) from None
    known = {p.name for p in ctx.command.params}
    ctx.default_map = {**{k: v for k, v in settings.items() if k in known}, **(ctx.default_map or {})}
    return value


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
