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

from ..catalog.listing import Listed, listed, pick, resolve_kind, resource_name, selected, table
from ..catalog.selector import parse_selector
from ..errors import EXIT_FINDINGS, ToolError, UsageError
from ..yamlio import DEFAULT_LIMITS
from . import EXIT_CODES_HELP
from .complete import catalog_names
from .options import CatalogOptions, InputOptions, report
from .session import Session, build_session

CONTEXT = {"help_option_names": ["-h", "--help"]}


def source_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--catalog``, ``-f`` (optional here), ``-n`` and ``--no-builtin-catalog``, as one Session."""
    @click.option("--catalog", "catalogs", multiple=True, metavar="SOURCE",
                  help="A file, a directory (recursive), - or an http(s) URL (pin it with #sha256=<hex>); "
                       "repeatable.")
    @click.option("-f", "--filename", "filenames", multiple=True, metavar="SOURCE",
                  help="More sources, read as render reads -f (repeatable).")
    @click.option("-n", "--namespace", default="default", show_default=True,
                  help="Namespace of namespaced objects that do not name one.")
    @click.option("--no-builtin-catalog", "no_builtin", is_flag=True,
                  help="Leave out the built-in common-instancetypes catalog.")
    @functools.wraps(func)
    def wrapper(*args: Any, catalogs: tuple[str, ...], filenames: tuple[str, ...], namespace: str,
                no_builtin: bool, **kwargs: Any) -> Any:
        root = click.get_current_context().find_root()
        builtin = not (no_builtin or root.params.get("no_builtin_catalog"))
        inputs = InputOptions(filenames, True, namespace, DEFAULT_LIMITS)
        session = build_session(inputs, CatalogOptions(catalogs, builtin, None, None))
        return func(*args, session=session, builtin=builtin, namespace=namespace, **kwargs)

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
def list_command(session: Session, builtin: bool, namespace: str, selector: str, output: str | None) -> None:
    """List instancetypes and preferences: NAME, KIND, CPU, MEMORY, CLASS and SOURCE (file or built-in).

    A cluster-scoped object of a source replaces the built-in one of the same kind and name.

    \b
    Examples:
      kubectl instancetype catalog list -l instancetype.kubevirt.io/cpu=4
      kubectl instancetype catalog list -l 'instancetype.kubevirt.io/class in (general.purpose,overcommitted)' -o wide
      kubectl instancetype catalog list --catalog catalog/ -l '!instancetype.kubevirt.io/hugepages' -o name
    """
    try:
        items = selected(_objects(session, builtin), parse_selector(selector))
    except UsageError as exc:
        session.problems.append(exc)
        sys.exit(report(session.problems, session.warnings))
    status = report(session.problems, session.warnings)
    _print_list(items, output)
    sys.exit(status)


@catalog.command("show", context_settings=CONTEXT, epilog=EXIT_CODES_HELP)
@source_options
@click.argument("name", shell_complete=catalog_names)
@click.option("--kind", metavar="KIND",
              help="VirtualMachineClusterInstancetype, …, a resource or short name (vmcf, vmcp, vmf, vmp); "
                   "default: the cluster-scoped object, as a matcher without a kind takes it.")
@click.option("-o", "--output", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
def show_command(session: Session, builtin: bool, namespace: str, name: str, kind: str | None, output: str) -> None:
    """Print one instancetype or preference as the render uses it (v1alpha objects converted).

    \b
    Examples:
      kubectl instancetype catalog show u1.medium
      kubectl instancetype catalog show fedora --kind preference -o json
      kubectl instancetype catalog show my-size --catalog catalog/ --kind VirtualMachineInstancetype -n team-a
    """
    try:
        item = pick(_objects(session, builtin), name, resolve_kind(kind) if kind else None, namespace)
    except UsageError as exc:
        session.problems.append(exc)
        item = None
    if item is None and not session.problems:
        session.problems.append(_not_found(name, kind))
    status = report(session.problems, session.warnings)
    if item is not None:
        _print_objects([item.obj], output, single=True)
    sys.exit(status)


def _objects(session: Session, builtin: bool) -> list[Listed]:
    objects: Any = None
    if builtin:
        from ..catalog.builtin import objects
    return listed(session.catalog, objects)


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
        sys.stdout.write("".join(resource_name(i) + "\n" for i in items))
    else:
        sys.stdout.write(table(items, output == "wide"))


def _print_objects(objs: list[dict[str, Any]], output: str, single: bool) -> None:
    from ..yamlio.emit import dump_json, dump_yaml

    doc = objs[0] if single else {"apiVersion": "v1", "kind": "List", "items": objs,
                                  "metadata": {"resourceVersion": ""}}
    sys.stdout.write(dump_json(doc) if output == "json" else dump_yaml(doc))
