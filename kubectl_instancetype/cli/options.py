"""Option decorators shared by the commands, and the one place exit statuses are computed."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from ..errors import EXIT_OK, ToolError, one_line
from ..yamlio import DEFAULT_LIMITS, Limits


@dataclass(frozen=True)
class InputOptions:
    """What ``-f``/``-R``/``-n`` and the input limits say."""

    filenames: tuple[str, ...]
    recursive: bool
    namespace: str
    limits: Limits
    follow_symlinks: bool = False


@dataclass(frozen=True)
class CatalogOptions:
    """Where instancetypes and preferences come from, and the cluster configuration."""

    catalogs: tuple[str, ...]
    builtin: bool
    kubevirt_config: str | None
    arch: str | None


def input_options(func: Callable[..., Any] | None = None, *, required: bool = True) -> Any:
    """-f/-R/-n, the input limits and --follow-symlinks, handed to the command as ``inputs``.

    ``required=False`` for commands that also take positional PATHs.
    """
    if func is None:
        return functools.partial(input_options, required=required)

    @click.option("-f", "--filename", "filenames", multiple=True, required=required, metavar="PATH",
                  help="A file, a directory, or - for standard input (YAML or JSON; repeatable).")
    @click.option("-R", "--recursive", is_flag=True, help="Process directories of -f recursively.")
    @click.option("-n", "--namespace", default="default", show_default=True,
                  help="Namespace of objects that do not name one.")
    @click.option("--max-nodes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_nodes, show_default=True,
                  help="Refuse a YAML document with more nodes than this once aliases are expanded.")
    @click.option("--max-input-bytes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_bytes,
                  show_default=True, help="Refuse an input stream larger than this.")
    @click.option("--follow-symlinks", is_flag=True,
                  help="Also read (and with --write, rewrite) symbolic links in directories that lead out of them.")
    @functools.wraps(func)
    def wrapper(*args: Any, filenames: tuple[str, ...], recursive: bool, namespace: str, max_nodes: int,
                max_input_bytes: int, follow_symlinks: bool, **kwargs: Any) -> Any:
        limits = Limits(max_nodes=max_nodes, max_depth=DEFAULT_LIMITS.max_depth, max_bytes=max_input_bytes)
        return func(*args, inputs=InputOptions(filenames, recursive, namespace, limits, follow_symlinks), **kwargs)

    return wrapper


def catalog_options(func: Callable[..., Any]) -> Callable[..., Any]:
    @click.option("--catalog", "catalogs", multiple=True, metavar="PATH",
                  help="Instancetypes, preferences and ControllerRevisions: a file, a directory (recursive) "
                       "or - (repeatable).")
    @click.option("--no-builtin-catalog", "no_builtin", is_flag=True,
                  help="Do not fall back to the built-in common-instancetypes catalog.")
    @click.option("--kubevirt-config", metavar="FILE",
                  help="A KubeVirt CR (or a bare spec.configuration) whose settings the render assumes.")
    @click.option("--arch", type=click.Choice(["amd64", "arm64", "s390x"]),
                  help="The cluster's default architecture.")
    @functools.wraps(func)
    def wrapper(*args: Any, catalogs: tuple[str, ...], no_builtin: bool, kubevirt_config: str | None,
                arch: str | None, **kwargs: Any) -> Any:
        root = click.get_current_context().find_root()
        builtin = not (no_builtin or root.params.get("no_builtin_catalog"))
        return func(*args, catalogs=CatalogOptions(catalogs, builtin, kubevirt_config, arch), **kwargs)

    return wrapper


def report(problems: list[ToolError], warnings: list[str]) -> int:
    """Print warnings and problems (one line each) on stderr; the exit status they add up to."""
    for warning in warnings:
        click.echo(one_line(f"warning: {warning}"), err=True)
    for problem in problems:
        click.echo(problem.render(), err=True)
    return max((p.exit_code for p in problems), default=EXIT_OK)
