"""``render --write``, ``--output-dir``, ``--check`` and ``--diff``: expanded files written, listed or diffed.

Sources become targets (the file itself, or its mirror under ``--output-dir``), :mod:`..gitops.plan` computes
each target's new text, and only targets whose text changes are touched: written atomically (a temporary
file in the same directory renamed over the target, permissions kept), listed (``--check``) or diffed
(``--diff``). Nothing here is imported unless one of these options is given.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ..errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, InputError, Location, ToolError
from .inputs import STDIN, Source, expand_paths, read_text

if TYPE_CHECKING:
    from ..gitops.plan import FileChange
    from ..render import Result


@dataclass(frozen=True)
class WriteOptions:
    """What ``--write``/``--output-dir``/``--check``/``--diff``/``--color`` say."""

    write: bool = False
    output_dir: str | None = None
    check: bool = False
    diff: bool = False
    color: str = "auto"

    @property
    def active(self) -> bool:
        return self.write or self.output_dir is not None or self.check or self.diff

    @property
    def dry(self) -> bool:
        """Whether to leave every file alone (``--check``, ``--diff``)."""
        return self.check or self.diff


def write_options(func: Callable[..., Any]) -> Callable[..., Any]:
    @click.option("-w", "--write", is_flag=True,
                  help="Rewrite each input file in place with its VMs expanded, keeping comments and formatting.")
    @click.option("--output-dir", metavar="DIR",
                  help="Write the expanded files under DIR instead, mirroring the -f directories.")
    @click.option("--check", is_flag=True,
                  help="Write nothing; list the files --write (or --output-dir) would change and exit 1 if any.")
    @click.option("--diff", "show_diff", is_flag=True,
                  help="Write nothing; print the unified diff --write (or --output-dir) would apply.")
    @click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
                  help="Colour the --diff output (auto: when standard output is a terminal and NO_COLOR is unset).")
    @functools.wraps(func)
    def wrapper(*args: Any, write: bool, output_dir: str | None, check: bool, show_diff: bool, color: str,
                **kwargs: Any) -> Any:
        return func(*args, writing=WriteOptions(write, output_dir, check, show_diff, color), **kwargs)

    return wrapper


def targets(paths: tuple[str, ...], recursive: bool, output_dir: str | None) -> list[tuple[Source, str]]:
    """Each input file and the file its expansion goes to; UsageError for inputs that cannot be written."""
    pairs: list[tuple[Source, str]] = []
    for path in paths:
        for source in expand_paths((path,), recursive):
            if source.path == STDIN or "://" in source.path:
                raise click.UsageError(f"cannot write the expansion of {source.display}: name files or directories")
            pairs.append((source, _target(path, source, output_dir)))
    seen: dict[str, str] = {}
    for source, target in pairs:
        other = seen.setdefault(os.path.normpath(target), source.display)
        if other != source.display:
            raise click.UsageError(f"{other} and {source.display} would both be written to {target}")
    return pairs


def _target(argument: str, source: Source, output_dir: str | None) -> str:
    """The mirror of ``source`` under ``output_dir``: its path inside the -f directory, or its file name."""
    if output_dir is None:
        return source.path
    inside = os.path.relpath(source.path, argument) if os.path.isdir(argument) else os.path.basename(source.path)
    return os.path.join(output_dir, inside)


def _existing(path: str) -> str | None:
    """The current text of a target; None when it is missing or unreadable (so it is written again)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def plan_changes(pairs: list[tuple[Source, str]], result: Result, problems: list[ToolError],
                 verdict_only: bool = False) -> list[FileChange]:
    """The new text of every target whose source could be processed; files with input errors are skipped.

    With ``verdict_only`` (``--check`` in place) the new text is not computed, only whether there is one.
    """
    from ..gitops.plan import FileChange, items_by_source, rendered_text, would_change

    broken = {p.location.path for p in result.problems if p.exit_code == EXIT_INPUT and p.location}
    grouped = items_by_source(result.items)
    changes: list[FileChange] = []
    for source, target in pairs:
        if source.display in broken:
            continue
        try:
            text = read_text(source)
            items = grouped.get(source.display, [])
            if verdict_only and target == source.path:
                after: str | None = None if would_change(text, source.display, items) else text
            else:
                after = rendered_text(text, source.display, items)
        except InputError as exc:
            problems.append(exc)
            continue
        before = text if target == source.path else _existing(target)
        changes.append(FileChange(source.display, target, before, after))
    return changes


def write_atomically(path: str, text: str) -> None:
    """Replace ``path`` (through a symlink, its target) by ``text`` in one rename, keeping its permissions."""
    import tempfile

    real = os.path.realpath(path)
    directory = os.path.dirname(real)
    os.makedirs(directory, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(real)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def colorize(diff: str) -> str:
    """A unified diff with git's colours: file headers bold, hunk headers cyan, removals red, additions green."""
    return "".join(_coloured_line(line) for line in diff.splitlines(keepends=True))


def _coloured_line(line: str) -> str:
    body, end = (line[:-1], "\n") if line.endswith("\n") else (line, "")
    if body.startswith(("+++ ", "--- ")):
        return click.style(body, bold=True) + end
    if body.startswith("@@"):
        return click.style(body, fg="cyan") + end
    if body.startswith(("+", "-")):
        return click.style(body, fg="green" if body[0] == "+" else "red") + end
    return line


def use_color(color: str) -> bool:
    """``--color``: always, never, or auto (a terminal, and ``NO_COLOR`` unset)."""
    if color == "auto":
        return sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    return color == "always"


def _print_diffs(changes: list[FileChange], color: str) -> None:
    from ..gitops.udiff import unified

    text = "".join(unified(c.before, c.after or "", c.target, c.target) for c in changes)
    sys.stdout.write(colorize(text) if use_color(color) else text)


def _write(changes: list[FileChange], problems: list[ToolError]) -> Iterator[str]:
    """Write each change; the targets written (failures become problems)."""
    for change in changes:
        if change.after is None:  # never planned for writing
            continue
        try:
            write_atomically(change.target, change.after)
        except OSError as exc:
            problems.append(InputError(f"cannot write: {exc.strerror or exc}", Location(change.target)))
            continue
        yield change.target


def apply(
    pairs: list[tuple[Source, str]], result: Result, options: WriteOptions, problems: list[ToolError]
) -> tuple[int, list[str]]:
    """Write, list or diff the targets that change: the status this adds, and the notes for stderr.

    New problems (files that cannot be rewritten or written) are appended to ``problems``; the caller
    reports them before the notes, so that a summary is the last line.
    """
    verdict_only = options.check and not options.diff
    changed = [c for c in plan_changes(pairs, result, problems, verdict_only) if c.changed]
    if options.diff:
        _print_diffs(changed, options.color)
    elif options.check:
        sys.stdout.writelines(f"{change.target}\n" for change in changed)
    if options.dry:
        verb = "written" if options.output_dir is not None else "rewritten"
        notes = [f"{_count(len(changed))} would be {verb}"] if changed else []
        return (EXIT_FINDINGS if options.check and changed else EXIT_OK), notes
    return EXIT_OK, [f"wrote {target}" for target in _write(changed, problems)]


def _count(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"
