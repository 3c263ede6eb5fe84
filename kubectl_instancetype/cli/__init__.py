"""The ``kubectl instancetype`` command line: a lazily loaded click group, one module per command.

Only ``cli`` reads argv and the environment, prints, and picks exit codes. Commands are imported on
demand so that ``render`` does not pay for the imports of ``diff`` or ``catalog``.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import Any

import click

from .. import __version__

# name -> "module:attribute" (relative to this package); the one registry of commands.
COMMANDS: dict[str, str] = {
    "__complete": "complete:complete_command",
    "capacity": "capacity:capacity",
    "catalog": "catalog:catalog",
    "revision": "revision:revision",
    "schema": "schemas:schema_command",
    "config": "config:config",
    "convert": "convert:convert",
    "krm": "krm:krm",
    "render": "render:render",
    "diff": "diff:diff",
    "drift": "drift:drift",
    "suggest": "suggest:suggest",
    "template": "template:template",
    "validate": "validate:validate",
}

def exit_codes_help(*findings: str) -> str:
    """The exit-status table every command's --help ends with: the same meanings for every command, with
    what else counts as a finding for this one (its own options only)."""
    also = "".join(f";\n     {finding}" for finding in findings)
    return ("\b\nExit status (the same for every command):\n"
            "  0  success (nothing to report, nothing to change)\n"
            "  1  the cluster would refuse an object: kubectl or the API server (--validate), or KubeVirt\n"
            "     (a VirtualMachine it rejects or fails to expand, a catalog object it refuses, a KubeVirt\n"
            f"     CR whose configuration it would not apply: the VMs render with its defaults){also}\n"
            "  2  usage error (also a KubeVirt version of a release line the tool does not know:\n"
            "     --kubevirt-version, or a KubeVirt CR's status.observedKubeVirtVersion)\n"
            "  3  input that cannot be processed (YAML syntax, unreadable files); a --jobs worker killed\n"
            "  4  a bug in kubectl-instancetype (an unexpected error; please report it)\n"
            "  141  standard output closed by its reader (| head): quiet, as kubectl\n"
            "Problems are printed on stderr as path:line:col: error: message; with GITHUB_ACTIONS=true\n"
            "also as ::error/::warning workflow annotations.")


EXIT_CODES_HELP = exit_codes_help()


RECURSION_LIMIT = 10_000


class LazyGroup(click.Group):
    """A click group that imports a command's module only when that command runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        module = importlib.import_module(f"{__name__}.{module_name}")
        command: click.Command = getattr(module, attr)
        if cmd_name != "__complete":
            from .common import add_common_options

            add_common_options(command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        from .crash import Interrupted, StreamBroken

        # Documents may nest 512 levels (Limits.max_depth); the recursive parts (ruamel.yaml's round-trip
        # composer and representer under --write, JSON encoding, the appliers' copies) take up to about
        # five frames a level, more than Python's default of 1000 allows.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:  # click would exit 1, the status of a finding
            raise StreamBroken(exc.strerror or str(exc)) from None
        except KeyboardInterrupt:  # likewise: an interrupted run is not a finding
            raise Interrupted() from None


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ..api.releases import DEFAULT
    from ..catalog.builtin.bundles import catalog_version

    click.echo(f"kubectl-instancetype {__version__} (KubeVirt {DEFAULT.name} by default, built-in "
               f"common-instancetypes catalog {catalog_version(DEFAULT)})")
    ctx.exit()


def _remember_config(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from .settings import remember

    return remember(ctx, param, value)


def _version_option(func: Any) -> Any:
    from .options import kubevirt_version_option

    return kubevirt_version_option(func)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=exit_codes_help("render --check: files would change; diff: a VM's expansion changes;\n"
                           "     capacity: a VM's launcher Pod would be refused by a ResourceQuota;\n"
                           "     suggest: a suggestion is approximate or no instancetype fits a VM\n"
                           "     (with --check: a VM would be rewritten)"),
)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the built-in catalog's revision, and exit.")
@click.option("--config", metavar="PATH", expose_value=False, is_eager=True, callback=_remember_config,
              help="Read settings from PATH instead of the .kubectl-instancetype.yaml (or pyproject.toml "
                   "[tool.kubectl-instancetype]) found from the working directory up; '' for none.")
@click.option("--no-builtin-catalog", "no_builtin_catalog", is_flag=True,
              help="For every command: do not fall back to the built-in common-instancetypes catalog.")
@_version_option
def main_group(no_builtin_catalog: bool, kubevirt_version: str | None) -> None:
    """Expand KubeVirt instancetypes and preferences offline, from files, exactly as KubeVirt does.

    \b
    Examples:
      kubectl instancetype render -f vm.yaml
      kubectl instancetype render -f vms/ -R --catalog instancetypes/ -o json
      kubectl instancetype suggest -f vms/ -R --write
    """


def main(argv: list[str] | None = None) -> Any:
    """Console-script entry point: usage lines read ``kubectl instancetype …``. Run as the program (no
    ``argv``), it ends the process itself, without the interpreter's teardown (:func:`.crash.end_process`)."""
    # A short-lived process building large acyclic trees: the cycle collector only costs time
    # (a third of a 10,000-VM render).
    gc.disable()
    if "_KUBECTL_INSTANCETYPE_COMPLETE" in os.environ:  # click's shell completion for this executable
        from .complete import run_shell_complete

        run_shell_complete(main_group)
    from .crash import end_process, guarded

    def run() -> Any:
        from .ci_log import release_stdout

        try:
            return main_group.main(args=argv, prog_name="kubectl instancetype", standalone_mode=True)
        finally:
            release_stdout()  # a run that ends without its report resumes the runner's commands too

    if argv is not None:
        return guarded(run)
    try:
        guarded(run)
    except SystemExit as exc:  # click's standalone mode always ends so
        end_process(exc.code)
    end_process(0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
