"""Shell completion: kubectl's plugin protocol (``kubectl_complete-instancetype``) and click's own.

kubectl (1.26 and later) completes ``kubectl instancetype …`` by running ``kubectl_complete-instancetype``
with the words after the plugin name, the last one being the word under the cursor (maybe empty); it
expects Cobra's answer: one candidate a line (``value<TAB>description``), then ``:<directive>``. The
hidden ``__complete`` command gives that answer from click's own completion of our commands, so both
protocols offer the same subcommands, flags and values. Instancetype and preference names come from the
catalogs in scope of the command line being completed: its ``-f`` and ``--catalog`` files and, unless
turned off there, the built-in catalog.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

import click
from click.shell_completion import CompletionItem, shell_complete

from ..records import dataclass

COMPLETE_VAR = "_KUBECTL_INSTANCETYPE_COMPLETE"
EXECUTABLE = "kubectl-instancetype"
PATH_METAVARS = ("PATH", "FILE", "SOURCE")
MANIFEST_EXTENSIONS = ("yaml", "yml", "json")

# Cobra's ShellCompDirective bits (github.com/spf13/cobra, completions.go).
DEFAULT, ERROR, NO_SPACE, NO_FILE_COMP, FILTER_FILE_EXT, FILTER_DIRS = 0, 1, 2, 4, 8, 16


@dataclass(frozen=True)
class Completion:
    """Candidates (value, description) and the Cobra directive that tells the shell what else to do."""

    candidates: tuple[tuple[str, str], ...]
    directive: int

    def cobra(self) -> str:
        """The text of Cobra's ``__complete`` answer."""
        lines = [f"{value}\t{help}" if help else value for value, help in self.candidates]
        return "".join(f"{line}\n" for line in lines) + f":{self.directive}\n"


def complete(cli: click.Command, words: list[str]) -> Completion:
    """Complete the last of ``words`` (the word under the cursor) after the others."""
    args, incomplete = words[:-1], words[-1] if words else ""
    from click.shell_completion import _resolve_context, _resolve_incomplete  # click's own parser

    try:
        ctx = _resolve_context(cli, {}, "kubectl instancetype", list(args))
        target, incomplete = _resolve_incomplete(ctx, list(args), incomplete)
        items = target.shell_complete(ctx, incomplete)
    except Exception:  # a completion answers or says it cannot; a traceback would land in the shell
        return Completion((), ERROR)
    if isinstance(target, click.Parameter) and _takes_manifests(target):
        return Completion(tuple((ext, "") for ext in MANIFEST_EXTENSIONS), FILTER_FILE_EXT)
    if any(item.type == "dir" for item in items):
        return Completion((), FILTER_DIRS)
    if any(item.type == "file" for item in items):
        return Completion((), DEFAULT)
    return Completion(tuple((item.value, " ".join((item.help or "").split())) for item in items), NO_FILE_COMP)


def _takes_manifests(param: click.Parameter) -> bool:
    """Whether a parameter names YAML/JSON files or directories (``-f PATH``, ``--kubevirt-config FILE``)."""
    return param.type is click.STRING and param.metavar in PATH_METAVARS


def names_in_scope(ctx: click.Context, kinds: Iterable[str]) -> list[str]:
    """Names of objects of ``kinds`` in the catalogs the command line being completed would use."""
    from ..catalog.builtin import names
    from ..inputs import JUDGE_NONE, Request, gather
    from .inputs import FILES

    wanted = set(kinds)
    files = _local(ctx.params.get("filenames"))
    docs = [*gather(Request(files, bool(ctx.params.get("recursive", True)), judge=JUDGE_NONE), FILES).documents,
            *gather(Request(_local(ctx.params.get("catalogs")), True, judge=JUDGE_NONE), FILES).documents]
    found = {_name(doc.data) for doc in docs if isinstance(doc.data, dict) and doc.data.get("kind") in wanted}
    if not (ctx.params.get("no_builtin") or ctx.find_root().params.get("no_builtin_catalog")):
        found.update(name for kind in wanted for name in names(kind))
    return sorted(found - {""})


def _local(sources: object) -> tuple[str, ...]:
    """The sources a completion may read: files and directories, not stdin (it is the terminal) nor URLs."""
    if not isinstance(sources, (tuple, list)):
        return ()
    return tuple(s for s in sources if isinstance(s, str) and s != "-" and "://" not in s)


def _name(data: dict[str, object]) -> str:
    meta = data.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else ""


def instancetype_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A click ``shell_complete`` callback for a parameter that takes an instancetype name."""
    from ..api.names import INSTANCETYPE_KINDS

    return [CompletionItem(n) for n in names_in_scope(ctx, INSTANCETYPE_KINDS) if n.startswith(incomplete)]


def preference_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A click ``shell_complete`` callback for a parameter that takes a preference name."""
    from ..api.names import PREFERENCE_KINDS

    return [CompletionItem(n) for n in names_in_scope(ctx, PREFERENCE_KINDS) if n.startswith(incomplete)]


def catalog_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A click ``shell_complete`` callback for a parameter that takes an instancetype or preference name."""
    from ..catalog.builtin import KINDS

    return [CompletionItem(n) for n in names_in_scope(ctx, KINDS) if n.startswith(incomplete)]


def run_shell_complete(cli: click.Command) -> None:
    """Answer click's shell completion (``_KUBECTL_INSTANCETYPE_COMPLETE=bash_source kubectl-instancetype``
    prints the script to source) and exit, when that variable is set; return otherwise.

    click derives the variable and the script's command name from the program name, which for us reads
    ``kubectl instancetype``: completion must be driven with the executable's own name instead.
    """
    instruction = os.environ.get(COMPLETE_VAR)
    if instruction:
        sys.exit(shell_complete(cli, {}, EXECUTABLE, COMPLETE_VAR, instruction))


@click.command("__complete", hidden=True, add_help_option=False,
               context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
def complete_command(words: tuple[str, ...]) -> None:
    """Cobra's completion answer for ``kubectl instancetype WORDS…`` (used by kubectl_complete-instancetype)."""
    from . import main_group

    click.echo(complete(main_group, list(words)).cobra(), nl=False)




def kubectl_complete() -> None:
    """Entry point for a ``kubectl_complete-instancetype`` console script: the words are its arguments."""
    from . import main_group

    sys.stdout.write(complete(main_group, sys.argv[1:]).cobra())
