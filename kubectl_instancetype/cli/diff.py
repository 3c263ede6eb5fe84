"""``kubectl instancetype diff``: how each VirtualMachine's expansion changes between a git revision and the
working tree, for reviewing pull requests.

Both sides are rendered the same way, each from its own files: the VMs and the catalogs as of REV are
written to a temporary tree (``git ls-tree``/``git cat-file``) and rendered from there, so a VM whose file
did not change still shows up when the instancetype or preference it references did.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator

import click

from ..errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, ToolError
from ..gitops import report as views
from ..gitops.relevance import relevant
from ..gitops.vmdiff import VMChange, VMState, compare, vm_states
from ..render import Options
from ..render import render as render_documents
from ..yamlio import DEFAULT_LIMITS
from . import EXIT_CODES_HELP
from .inputs import expand_paths, read_text
from .options import CatalogOptions, InputOptions, catalog_options
from .session import build_session

DEFAULT_BRANCHES = ("origin/HEAD", "origin/main", "origin/master", "upstream/main", "main", "master")


def git(*args: str, stdin: str | None = None) -> str:
    """The output of a git command; UsageError with git's own message when it fails."""
    try:
        proc = subprocess.run(["git", *args], input=stdin, capture_output=True, text=True, encoding="utf-8")
    except FileNotFoundError:
        raise click.UsageError("git is not installed") from None
    if proc.returncode:
        raise click.UsageError(f"git {args[0]}: {proc.stderr.strip()}")
    return proc.stdout


def base_revision(base: str | None) -> str:
    """--base as a commit, or the merge base of HEAD with the upstream default branch."""
    if base is not None:
        git("rev-parse", "--verify", "--quiet", f"{base}^{{commit}}")
        return base
    for branch in DEFAULT_BRANCHES:
        if subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}"],
                          capture_output=True).returncode == 0:
            return git("merge-base", "HEAD", branch).strip()
    raise click.UsageError("no upstream default branch (origin/HEAD, main, master): give --base REV")


def _files_at(rev: str, paths: tuple[str, ...]) -> dict[str, str]:
    """Repository path -> text of each regular file under ``paths`` (relative to the current directory)."""
    top = os.path.realpath(git("rev-parse", "--show-toplevel").strip())
    paths = tuple(p for p in paths if os.path.realpath(p) == top or os.path.realpath(p).startswith(top + os.sep))
    if not paths:  # files outside the repository are read from where they are, for both sides
        return {}
    names = [n for n in git("ls-tree", "-r", "-z", "--full-name", "--name-only", rev, "--", *paths).split("\0") if n]
    if not names:
        return {}
    request = "".join(f"{rev}:{name}\n" for name in names).encode("utf-8")
    batch = subprocess.run(["git", "cat-file", "--batch"], input=request, capture_output=True, check=True).stdout
    out: dict[str, str] = {}
    position = 0
    for name in names:  # each object: "<oid> <type> <size>\n<content>\n"
        header_end = batch.index(b"\n", position)
        size = int(batch[position:header_end].split()[2])
        out[name] = batch[header_end + 1:header_end + 1 + size].decode("utf-8", errors="replace")
        position = header_end + 1 + size + 1
    return out


@contextlib.contextmanager
def checked_out(rev: str, paths: tuple[str, ...]) -> Iterator[None]:
    """The files under ``paths`` as of ``rev`` in a temporary tree, as the current directory."""
    prefix = git("rev-parse", "--show-prefix").strip()
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="kubectl-instancetype-diff-") as tmp:
        for name, text in _files_at(rev, paths).items():
            target = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        os.makedirs(os.path.join(tmp, prefix), exist_ok=True)
        os.chdir(os.path.join(tmp, prefix))
        try:
            yield
        finally:
            os.chdir(here)


def _inputs(paths: tuple[str, ...], namespace: str) -> InputOptions:
    """The files of ``paths`` that hold Kubernetes objects the render uses (named files always count)."""
    files: list[str] = []
    for path in paths:
        if not os.path.exists(path):
            continue
        for source in expand_paths((path,), True):
            with contextlib.suppress(ToolError):
                if not os.path.isdir(path) or relevant(read_text(source)):
                    files.append(source.path)
    return InputOptions(tuple(files), False, namespace, DEFAULT_LIMITS)


def _side(paths: tuple[str, ...], namespace: str, catalogs: CatalogOptions,
          problems: list[ToolError]) -> dict[tuple[str, str], VMState]:
    """Every VM under ``paths`` in the current directory, rendered; problems are collected."""
    inputs = _inputs(paths, namespace)
    present = CatalogOptions(tuple(c for c in catalogs.catalogs if os.path.exists(c)), catalogs.builtin,
                             catalogs.kubevirt_config if catalogs.kubevirt_config and
                             os.path.exists(catalogs.kubevirt_config) else None, catalogs.arch)
    session = build_session(inputs, present)
    result = render_documents(session.documents, session.catalog, Options(namespace, session.config))
    problems.extend(session.problems + result.problems)
    return vm_states(result.items, result.problems, namespace)


FORMATS = {"text": views.text, "markdown": views.markdown, "json": views.as_json}


@click.command(epilog=EXIT_CODES_HELP.replace("with --check: files would change", "a VM's expansion changes"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--base", metavar="REV", help="The git revision to compare with (default: the merge base of HEAD "
                                            "with the upstream default branch).")
@click.option("-n", "--namespace", default="default", show_default=True,
              help="Namespace of objects that do not name one.")
@catalog_options
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default="text", show_default=True,
              help="text for a terminal, markdown for a pull-request comment, json for tools.")
def diff(paths: tuple[str, ...], base: str | None, namespace: str, catalogs: CatalogOptions, fmt: str) -> None:
    """Show how each VirtualMachine's expansion changes between REV and the working tree.

    PATHs (default: the current directory) are files and directories, searched recursively for
    manifests; --catalog paths are read at each revision too. A VM whose file did not change is shown
    when what it references did (a catalog bump). Exit 0: no VM changes; 1: some do; 3: errors.

    \b
    Examples:
      kubectl instancetype diff vms/ --catalog catalog/
      kubectl instancetype diff --base origin/main --format markdown vms/ --catalog catalog/ > comment.md
    """
    paths = paths or (".",)
    rev = base_revision(base)
    label = base or git("rev-parse", "--short", rev).strip()
    base_problems: list[ToolError] = []
    with checked_out(rev, paths + catalogs.catalogs + ((catalogs.kubevirt_config,) if catalogs.kubevirt_config
                                                       else ())):
        before = _side(paths, namespace, catalogs, base_problems)
    problems: list[ToolError] = []
    after = _side(paths, namespace, catalogs, problems)
    changes = compare(before, after, label)
    sys.stdout.write(FORMATS[fmt](changes, label))
    sys.exit(_status(changes, base_problems, problems, label))


def _status(changes: list[VMChange], base_problems: list[ToolError], problems: list[ToolError], label: str) -> int:
    """Problems of the working tree are errors; those of the base only warnings, unless it could not be read."""
    for problem in base_problems:
        click.echo(f"{label}:{problem.render()}", err=True)
    for problem in problems:
        click.echo(problem.render(), err=True)
    if problems or any(p.exit_code == EXIT_INPUT for p in base_problems):
        return EXIT_INPUT
    return EXIT_FINDINGS if any(c.status != "unchanged" for c in changes) else EXIT_OK
