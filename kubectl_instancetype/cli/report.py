"""The end of every command: a run's result through the reporters, and the exit status it decides.

Problems and notices go to standard error as text; under GitHub Actions (``GITHUB_ACTIONS=true``) each is
also a workflow annotation; ``--junit-xml FILE`` writes the JUnit report. The status comes from
:func:`~kubectl_instancetype.reporters.exit_status`, the one place it is decided.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import click

from ..errors import InputError, Location
from ..inputs import Provenances
from ..reporters import Checked, RunResult, exit_status
from ..reporters.github import workflow_commands
from ..reporters.text import lines


def report(result: RunResult, *, junit: str | None = None, suite: str = "", notes: Sequence[str] = (),
           provenance: Provenances | None = None) -> int:
    """Print ``result`` on stderr (``notes`` last), write the JUnit report if asked; the exit status.

    ``provenance`` names the files the objects of standard input came from (kustomize, kpt and Helm say so in
    annotations): problems in those objects are reported there instead of on ``<stdin>``.
    """
    if provenance is not None and provenance.entries:
        result = _relocated(result, provenance)
    if junit is not None:
        result = _write_junit(result, junit, suite)
    for line in lines(result):
        click.echo(line, err=True)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in workflow_commands(result):
            click.echo(line, err=True)
    for note in notes:
        click.echo(note, err=True)
    return exit_status(result)


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
