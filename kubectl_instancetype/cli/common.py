"""Options every command takes, added when the command is loaded: the config file, the report's format and
file, the summary line, quiet, and the version.

They configure the end of the run (:mod:`.report`), not the command: their values are kept in the context's
``meta`` instead of being handed to each command's function.
"""

from __future__ import annotations

from typing import Any

import click

from .settings import config_option

FORMATS = ("text", "json", "sarif", "junit", "github")
META = "kubectl_instancetype.report"
FILES_READ = "kubectl_instancetype.files_read"  # --summary: how many files the command read, when it counts them


def _keep(key: str) -> Any:
    def callback(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        ctx.meta.setdefault(META, {})[key] = value
        return value

    return callback


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from . import _print_version

        _print_version(ctx, _param, value)


# Commands whose standard output is the report and nothing else: their -o/--output is --output-format (every
# other command that prints has an -o of its own, for what it prints).
REPORT_ON_STDOUT = frozenset(("validate",))


def common_options(report_on_stdout: bool = False) -> list[click.Parameter]:
    spellings = ["-o", "--output", "--output-format"] if report_on_stdout else ["--output-format"]
    return [
        config_option(),
        click.Option([*spellings, "output_format"], type=click.Choice(FORMATS), default="text",
                     show_default=True, expose_value=False, callback=_keep("format"),
                     help="How problems and warnings are reported: text lines (path:line:col: error: message), "
                          "json (a kubectl-validate style metav1.Status per object, by file), sarif (SARIF 2.1.0 for "
                          "code scanning), junit (JUnit XML) or github (workflow annotations). In --output-file, "
                          "else on standard error (standard output for validate, which prints nothing else; there "
                          "-o/--output is the same option)."),
        click.Option(["--output-file", "output_file"], metavar="FILE", type=click.Path(dir_okay=False),
                     expose_value=False, callback=_keep("file"),
                     help="Write the --output-format report to FILE, - for standard output (the text lines stay on "
                          "standard error): atomically, never through a symbolic link (exit 3), never over an input "
                          "file (exit 2)."),
        click.Option(["--summary"], is_flag=True, expose_value=False, callback=_keep("summary"),
                     help="End with a line: N VMs (, P pools) in M files: K rendered, J refused, W warnings (M: the "
                          "files read, VMs or not)."),
        click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_keep("quiet"),
                     help="Leave out the notes about files skipped as no Kubernetes objects (Helm values, CI "
                          "workflows, kustomize configuration), the progress lines of long runs and the 'wrote FILE' "
                          "lines of a rewrite; every other message stays."),
        click.Option(["--version"], is_flag=True, expose_value=False, is_eager=True, callback=_version,
                     help="Show the version and the built-in catalog's revision, and exit."),
    ]


def add_common_options(command: click.Command) -> None:
    """Add the common options to ``command`` (each subcommand of a group), once."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_common_options(sub)
        return
    names = {name for param in command.params for name in param.opts}
    for option in common_options(command.name in REPORT_ON_STDOUT):
        if not names & set(option.opts):
            command.params.append(option)


def report_on_stderr() -> bool:
    """Whether the ``--output-format`` report is written on standard error (a machine format, no
    ``--output-file``, a command that prints on standard output): nothing else may be written there then,
    or the report cannot be read."""
    settings = report_settings()
    return (settings.get("format") or "text") != "text" and settings.get("file") is None \
        and not settings.get("stdout_free")


def report_settings() -> dict[str, Any]:
    """The common options of the running command (empty outside a command)."""
    ctx = click.get_current_context(silent=True)
    return dict(ctx.meta.get(META, {})) if ctx is not None else {}
