"""``kubectl instancetype schema``: the JSON Schema of each JSON output the commands print for tools."""

from __future__ import annotations

import json
import sys

import click

from ..schemas import API_VERSION, KINDS, schema
from . import EXIT_CODES_HELP


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("kind", required=False, type=click.Choice(sorted(KINDS)))
def schema_command(kind: str | None) -> None:
    """Print the JSON Schema of the JSON output of KIND; without KIND, list the kinds and what prints them.

    Every JSON output made for tools starts with apiVersion kubectl-instancetype.io/v1 and its kind:
    within that version fields are only added, never removed, renamed or given another type.

    \b
    Examples:
      kubectl instancetype schema
      kubectl instancetype schema RestartImpact > restart-impact.schema.json
      kubectl instancetype diff -o json | check-jsonschema --schemafile <(kubectl instancetype schema Diff) -
    """
    if kind is None:
        width = max(map(len, KINDS))
        lines = [f"{name:<{width}}  {API_VERSION}  {printed_by}" for name, (_, printed_by) in KINDS.items()]
        sys.stdout.write("\n".join(lines) + "\n")
        return
    sys.stdout.write(json.dumps(schema(kind), indent=2, ensure_ascii=False) + "\n")


schema_command.name = "schema"
