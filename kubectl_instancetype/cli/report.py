"""The end of every command: a run's result through the reporters, and the exit status it decides.

Problems and notices go to standard error as text; under GitHub Actions (``GITHUB_ACTIONS=true``) each is
also a workflow annotation; ``--junit-xml FILE`` writes the JUnit report. The status comes from
:func:`~kubectl_instancetype.reporters.exit_status`, the one place it is decided.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

import click

from ..errors import InputError, Location
from ..inputs import Provenances
from ..reporters import Checked, RunResult, exit_status
from ..reporters.github import workflow_commands
from ..reporters.text import lines

STDOUT = "-"


def report(result: RunResult, *, junit: str | None = None, suite: str = "", notes: Sequence[str] = (),
           provenance: Provenances | None = None) -> int:
    """Print ``result`` on stderr (``notes`` last), write the JUnit report if asked; the exit status.

    ``provenance`` names the files the objects of standard input came from (kustomize, kpt and Helm say so in
    annotations): problems in those objects are reported there instead of on ``<stdin>``.
    """
    from ..reporters.hints import hinted
    from .common import report_settings

    settings = report_settings()
    result = hinted(result)
    if provenance is not None and provenance.entries:
        result = _relocated(result, provenance)
    if settings.get("quiet"):
        result = _quiet(result)
    fmt, target = settings.get("format") or "text", settings.get("file")
    if junit == STDOUT:  # "-" is standard output, as -f - is standard input (never a file named "-")
        click.echo(formatted(result, "junit", suite), nl=False)
    elif junit is not None:
        result = _write_junit(result, junit, suite)
    if target == STDOUT:
        click.echo(formatted(result, fmt, suite), nl=False)
    elif target is not None:
        result = _write_report(result, fmt, target, suite)
    if fmt == "text" or target is not None:
        for line in lines(result):
            click.echo(line, err=True)
        if os.environ.get("GITHUB_ACTIONS") == "true" and fmt != "github":
            for line in workflow_commands(result):
                click.echo(line, err=True)
    else:  # on standard output when the command prints nothing else there (validate), as ruff and kubectl-validate
        click.echo(formatted(result, fmt, suite), err=not settings.get("stdout_free"), nl=False)
    for note in notes:
        click.echo(note, err=True)
    if settings.get("summary"):
        click.echo(summary(result), err=True)
    return exit_status(result)


def formatted(result: RunResult, fmt: str, suite: str) -> str:
    """The report of ``result`` in ``fmt`` (json, sarif, junit, github or text), ending with a newline."""
    if fmt == "json":
        from ..reporters.json import status_report

        return status_report(result)
    if fmt == "sarif":
        from ..reporters.sarif import sarif_log

        return sarif_log(result, _sarif_root())
    if fmt == "junit":
        from ..reporters.junit import junit_xml

        return junit_xml(result, suite or "kubectl-instancetype")
    if fmt == "github":
        return "".join(f"{line}\n" for line in workflow_commands(result))
    return "".join(f"{line}\n" for line in lines(result))


if TYPE_CHECKING:
    from ..reporters.sarif import Root


def _sarif_root() -> Root:
    """The repository the tool runs in (the nearest directory up holding ``.git``) and the working directory,
    for SARIF's repository-relative paths; no repository: paths as given."""
    from ..reporters.sarif import Root

    cwd = os.getcwd().replace(os.sep, "/")
    here = os.getcwd()
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return Root(here.replace(os.sep, "/"), cwd)
        parent = os.path.dirname(here)
        if parent == here:
            return Root()
        here = parent


def summary(result: RunResult) -> str:
    """``N VMs in M files: K rendered, J refused, W warnings[, E files in error]`` (M: the files read, VMs or
    not, parsed or not; E: those that could not be read or parsed, whose VMs nobody knows)."""
    from ..errors import files_in_error
    from .options import FILES_READ

    ctx = click.get_current_context(silent=True)
    read = ctx.meta.get(FILES_READ) if ctx is not None else None
    looked = len(result.checked)
    pools = sum(c.name.startswith(POOL) for c in result.checked)  # a pool is no VM: it makes them
    broken = files_in_error(result.problems)
    files = read if isinstance(read, int) else len({c.file for c in result.checked} | broken)
    refused = sum(c.problem is not None for c in result.checked)
    warnings = sum(n.severity == "warning" for n in result.notices)
    objects = _count(looked - pools, "VM") + (f", {_count(pools, 'pool')}" if pools else "")
    line = (f"{objects} in {_count(files, 'file')}: {looked - refused} rendered, {refused} refused, "
            f"{_count(warnings, 'warning')}")
    return f"{line}, {_count(len(broken), 'file')} in error" if broken else line


POOL = "VirtualMachinePool "  # how a pool's Checked name starts (render.vm_label)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _quiet(result: RunResult) -> RunResult:
    """``result`` without the notes about files skipped as no Kubernetes objects (Helm values, CI workflows,
    kustomize configuration): errors, warnings and the notes that are findings stay."""
    from ..inputs.gather import NOT_AN_OBJECT, TOOL_CONFIGURATION

    skipped = (NOT_AN_OBJECT, TOOL_CONFIGURATION)
    notices = tuple(n for n in result.notices if not (n.severity == "note" and n.message in skipped))
    return RunResult(result.problems, notices, result.changed, result.shown, result.checked)


def _write_report(result: RunResult, fmt: str, path: str, suite: str) -> RunResult:
    """Write the ``fmt`` report to ``path``; a result with one more problem when it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(formatted(result, fmt, suite))
    except OSError as exc:
        problem = InputError(f"cannot write the report: {exc.strerror or exc}", Location(path))
        return RunResult((*result.problems, problem), result.notices, result.changed, result.shown, result.checked)
    return result


def finish(result: RunResult, *, junit: str | None = None, suite: str = "", notes: Sequence[str] = (),
           provenance: Provenances | None = None) -> NoReturn:
    """:func:`report`, then exit with its status."""
    sys.exit(report(result, junit=junit, suite=suite, notes=notes, provenance=provenance))


def _relocated(result: RunResult, provenance: Provenances) -> RunResult:
    checked = tuple(Checked(c.name, c.file, provenance.problem(c.problem) if c.problem else None)
                    for c in result.checked)
    problems = tuple(provenance.problem(p) for p in result.problems)
    notices = tuple(provenance.notice(n) for n in result.notices)
    return RunResult(problems, notices, result.changed, tuple(provenance.problem(p) for p in result.shown), checked)


def _write_junit(result: RunResult, path: str, suite: str) -> RunResult:
    """Write the JUnit report; a result with one more problem when the file cannot be written."""
    from ..reporters.junit import junit_xml

    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(junit_xml(result, suite))
    except OSError as exc:
        problem = InputError(f"cannot write the JUnit report: {exc.strerror or exc}", Location(path))
        return RunResult((*result.problems, problem), result.notices, result.changed, result.shown, result.checked)
    return result
