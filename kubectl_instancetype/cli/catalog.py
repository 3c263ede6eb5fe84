"""``kubectl instancetype catalog list|show``: browse the instancetypes and preferences a render can use.

The objects are those of ``--catalog`` and ``-f`` sources (read exactly as ``render`` reads them) plus the
built-in common-instancetypes catalog in both scopes, unless ``--no-builtin-catalog``.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import click

from ..api.names import CLUSTER_KINDS
from ..catalog.listing import BUILTIN_SOURCE, Listed, listed, pick, resolve_kind, resource_name, selected, table
from ..catalog.selector import parse_selector
from ..errors import EXIT_FINDINGS, ToolError, UsageError
from ..escape.terminal import lines, one_line
from ..inputs import Inputs
from ..records import dataclass
from ..reporters import RunResult
from ..yamlio import DEFAULT_LIMITS
from . import EXIT_CODES_HELP, exit_codes_help
from .complete import catalog_names
from .options import (
    CatalogOptions,
    InputOptions,
    accept_removed_option,
    builtin_enabled,
    catalog_option,
    exclude_option,
    filename_option,
    kubevirt_version_option,
    load,
    namespace_option,
    no_builtin_option,
    version_of,
)
from .report import finish, report

CONTEXT = {"help_option_names": ["-h", "--help"]}


@dataclass(frozen=True)
class Sources:
    """What ``catalog list|show`` read: the inputs, and whether the built-in catalog is in play."""

    inputs: Inputs
    builtin: bool
    namespace: str


def source_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--catalog``, ``-f`` (optional here), ``--exclude``, ``-n`` and ``--no-builtin-catalog``, read."""
    @catalog_option(metavar="SOURCE", help="A file, a directory (recursive), - or an http(s) URL (pin it with "
                                           "#sha256=<hex>); repeatable.")
    @filename_option(help="More sources, read as render reads -f (repeatable).", metavar="SOURCE")
    @exclude_option
    @namespace_option()
    @no_builtin_option
    @kubevirt_version_option
    @accept_removed_option
    @functools.wraps(func)
    def wrapper(*args: Any, catalogs: tuple[str, ...], filenames: tuple[str, ...], exclude: tuple[str, ...],
                namespace: str, no_builtin: bool, kubevirt_version: str | None, accept_removed: bool,
                **kwargs: Any) -> Any:
        builtin = builtin_enabled(no_builtin)
        inputs = InputOptions(filenames, True, namespace, DEFAULT_LIMITS, exclude=exclude)
        loaded = load(inputs, CatalogOptions(catalogs, builtin, None, None, accept_removed,
                                             version_of(kubevirt_version)))
        return func(*args, sources=Sources(loaded, builtin, namespace), **kwargs)

    return wrapper


@click.group(context_settings=CONTEXT, epilog=EXIT_CODES_HELP)
def catalog() -> None:
    """Browse the instancetypes and preferences of your sources and of the built-in catalog.

    \b
    Examples:
      kubectl instancetype catalog list -l instancetype.kubevirt.io/cpu=4
      kubectl instancetype catalog list --catalog instancetypes/ -l '!instancetype.kubevirt.io/hugepages'
      kubectl instancetype catalog show u1.medium
    """


@catalog.command("list", context_settings=CONTEXT, epilog=EXIT_CODES_HELP)
@source_options
@click.option("-l", "--selector", default="", metavar="SELECTOR",
              help="Label selector: =, ==, !=, in (…), notin (…), key, !key, >, < (comma-separated, all must hold).")
@click.option("-o", "--output", type=click.Choice(["wide", "yaml", "json", "name"]),
              help="wide: more columns; yaml/json: a v1 List of the objects; name: kind/name per line.")
def list_command(sources: Sources, selector: str, output: str | None) -> None:
    """List instancetypes and preferences: NAME, KIND, CPU, MEMORY, CLASS and SOURCE (file or built-in).

    A cluster-scoped object of a source replaces the built-in one of the same kind and name. The built-in
    catalog is listed as a render finds it, cluster-scoped: the namespaced copies common-instancetypes also
    ships are left out (catalog show --kind still shows them).

    \b
    Examples:
      kubectl instancetype catalog list -l instancetype.kubevirt.io/cpu=4
      kubectl instancetype catalog list -l 'instancetype.kubevirt.io/class in (general.purpose,overcommitted)' -o wide
      kubectl instancetype catalog list --catalog catalog/ -l '!instancetype.kubevirt.io/hugepages' -o name
    """
    loaded = sources.inputs
    try:
        items = selected(_renderable(_objects(sources)), parse_selector(selector))
    except UsageError as exc:
        finish(RunResult((*loaded.problems, exc), loaded.notices))
    status = report(RunResult(loaded.problems, loaded.notices))
    _print_list(items, output)
    sys.exit(status)


@catalog.command("show", context_settings=CONTEXT, epilog=exit_codes_help("no object of that name"))
@source_options
@click.argument("name", shell_complete=catalog_names)
@click.option("--kind", metavar="KIND",
              help="VirtualMachineClusterInstancetype, …, a resource or short name (vmcf, vmcp, vmf, vmp); "
                   "default: the cluster-scoped object, as a matcher without a kind takes it.")
@click.option("-o", "--output", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
def show_command(sources: Sources, name: str, kind: str | None, output: str) -> None:
    """Print one instancetype or preference as the render uses it (v1alpha objects converted).

    \b
    Examples:
      kubectl instancetype catalog show u1.medium
      kubectl instancetype catalog show fedora --kind preference -o json
      kubectl instancetype catalog show my-size --catalog catalog/ --kind VirtualMachineInstancetype -n team-a
    """
    problems = sources.inputs.problems
    try:
        item = pick(_objects(sources), name, resolve_kind(kind) if kind else None, sources.namespace)
    except UsageError as exc:
        problems, item = (*problems, exc), None
    if item is None and not problems:
        problems += (_not_found(name, kind),)
    status = report(RunResult(problems, sources.inputs.notices))
    if item is not None:
        _print_objects([item.obj], output, single=True)
    sys.exit(status)


def _objects(sources: Sources) -> list[Listed]:
    objects: Any = None
    if sources.builtin:
        from ..catalog.builtin import bundle  # the catalog the cluster's release deploys
        from ..catalog.builtin.bundles import catalog_version

        objects = bundle(catalog_version(sources.inputs.config.release)).objects
    return listed(sources.inputs.catalog, objects)


def _renderable(items: list[Listed]) -> list[Listed]:
    """``items`` without the built-in catalog's namespaced copies, which no render finds."""
    return [i for i in items if not (i.source == BUILTIN_SOURCE and i.kind not in CLUSTER_KINDS)]


def _not_found(name: str, kind: str | None) -> ToolError:
    error = ToolError(f"no instancetype or preference named {name!r}" + (f" of kind {kind}" if kind else ""))
    error.exit_code = EXIT_FINDINGS
    return error


def _print_list(items: list[Listed], output: str | None) -> None:
    if output in ("yaml", "json"):
        _print_objects([i.obj for i in items], output, single=False)
    elif not items:
        click.echo("No resources found", err=True)
    elif output == "name":
        sys.stdout.write("".join(one_line(resource_name(i)) + "\n" for i in items))
    else:  # terminal text: a name read from a catalog file starts no line and moves no cursor
        sys.stdout.write(lines(table(items, output == "wide")))


def _print_objects(objs: list[dict[str, Any]], output: str, single: bool) -> None:
    from ..yamlio.emit import dump_json, dump_yaml

    doc = objs[0] if single else {"apiVersion": "v1", "kind": "List", "items": objs,
                                  "metadata": {"resourceVersion": ""}}
    sys.stdout.write(dump_json(doc) if output == "json" else dump_yaml(doc))
