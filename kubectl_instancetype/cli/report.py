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
from ..escape.terminal import one_line
from ..inputs import Provenances
from ..records import replace
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
    from .ci_log import release_stdout
    from .common import report_settings

    release_stdout()  # the annotations below are commands the runner must read
    settings = report_settings()
    result = hinted(result)
    if provenance is not None and provenance.entries:
        result = _relocated(result, provenance)
    if settings.get("quiet"):
        result = _quiet(result)
    # the machine reports (not the text lines) hold the out-of-date files as results: _with_outdated
    fmt, target = settings.get("format") or "text", settings.get("file")
    if junit == STDOUT:  # "-" is standard output, as -f - is standard input (never a file named "-")
        click.echo(formatted(_with_outdated(result), "junit", suite), nl=False)
    elif junit is not None:
        result = _adding(result, _write_junit(_with_outdated(result), junit, suite))
    if target == STDOUT:
        click.echo(formatted(_with_outdated(result), fmt, suite), nl=False)
    elif target is not None:
        result = _adding(result, _write_report(_with_outdated(result), fmt, target, suite))
    if fmt == "text" or target is not None:
        for line in lines(result):
            click.echo(line, err=True)
        if os.environ.get("GITHUB_ACTIONS") == "true" and fmt != "github":
            for line in workflow_commands(result):
                click.echo(line, err=True)
    else:  # on standard output when the command prints nothing else there (validate), as ruff and kubectl-validate
        click.echo(formatted(_with_outdated(result), fmt, suite), err=not settings.get("stdout_free"), nl=False)
        if not settings.get("stdout_free"):  # the report alone on standard error: the notes are in it
            return exit_status(result)
    for note in notes:
        click.echo(one_line(note), err=True)
    if settings.get("summary"):
        click.echo(summary(result), err=True)
    return exit_status(result)


def _with_outdated(result: RunResult) -> RunResult:
    """``result`` with the files found out of date among its problems, as the machine reports show them."""
    return replace(result, problems=(*result.problems, *result.outdated)) if result.outdated else result


def _adding(result: RunResult, problem: InputError | None) -> RunResult:
    """``result`` with the problem met writing a report, if any."""
    return result if problem is None else replace(result, problems=(*result.problems, problem))


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
    from .common import FILES_READ

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
    return replace(result, notices=notices)


def _write_report(result: RunResult, fmt: str, path: str, suite: str) -> InputError | None:
    """Write the ``fmt`` report to ``path``; the problem when it cannot be written."""
    try:
        _write_file(path, formatted(result, fmt, suite))
    except OSError as exc:
        return InputError(f"cannot write the report: {exc.strerror or exc}", Location(path))
    except InputError as exc:
        return exc
    return None


def finish(result: RunResult, *, junit: str | None = None, suite: str = "", notes: Sequence[str] = (),
           provenance: Provenances | None = None) -> NoReturn:
    """:func:`report`, then exit with its status."""
    sys.exit(report(result, junit=junit, suite=suite, notes=notes, provenance=provenance))


def _relocated(result: RunResult, provenance: Provenances) -> RunResult:
    checked = tuple(Checked(c.name, c.file, provenance.problem(c.problem) if c.problem else None)
                    for c in result.checked)
    problems = tuple(provenance.problem(p) for p in result.problems)
    notices = tuple(provenance.notice(n) for n in result.notices)
    return replace(result, problems=problems, notices=notices, shown=tuple(provenance.problem(p) for p in result.shown),
                   checked=checked)


def _write_junit(result: RunResult, path: str, suite: str) -> InputError | None:
    """Write the JUnit report; the problem when the file cannot be written."""
    from ..reporters.junit import junit_xml

    try:
        _write_file(path, junit_xml(result, suite))
    except OSError as exc:
        return InputError(f"cannot write the JUnit report: {exc.strerror or exc}", Location(path))
    except InputError as exc:
        return exc
    return None


def _write_file(path: str, text: str) -> None:
    """Write a report file as ``--output-dir`` writes its files: atomically, never through a link."""
    import errno

    from . import files

    if not os.path.isdir(os.path.dirname(path) or "."):  # no directories made for a report
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    files.write(files.report(path), text)


def report_files() -> list[tuple[str, str]]:
    """The report files of the running command: (option, path) of ``--output-file`` and ``--junit-xml`` (``-``,
    standard output, is no file)."""
    from .common import report_settings

    ctx = click.get_current_context(silent=True)
    named = [("--output-file", report_settings().get("file")),
             ("--junit-xml", ctx.params.get("junit_xml") if ctx is not None else None)]
    return [(option, path) for option, path in named if isinstance(path, str) and path != STDOUT]


def refuse_reports_over(inputs: Sequence[str]) -> None:
    """UsageError when a report file is one of the ``inputs``: the report would replace it (as two inputs
    that one ``--output-dir`` file would hold are refused)."""
    reports = report_files()
    if not reports:
        return
    identities: dict[tuple[int, int], str] = {}
    for path in inputs:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        identities.setdefault((info.st_dev, info.st_ino), path)
    for option, path in reports:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        same = identities.get((info.st_dev, info.st_ino))
        if same is not None:
            raise click.UsageError(f"{option} {path} is the input {same}: the report would replace it")
