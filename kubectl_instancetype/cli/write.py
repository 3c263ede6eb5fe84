"""``render --write``, ``--output-dir``, ``--check`` and ``--diff``: expanded files written, listed or diffed.

Sources become targets (the file itself, or its mirror under ``--output-dir``), :mod:`..gitops.plan` computes
each target's new text from the text each source was read as (once), and only targets whose text changes
are touched: written by :mod:`.files` (atomically, keeping mode, owner and links, never through a link
under ``--output-dir``), listed (``--check``) or diffed (``--diff``). Nothing here is imported unless one of
these options is given.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

from ..errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, InputError, Location, OutOfDate, ToolError, files_in_error
from ..escape.terminal import one_line
from ..yamlio import DEFAULT_LIMITS
from . import files
from .inputs import STDIN, Source, expand_paths, read_text
from .options import WriteOptions, outside_of

if TYPE_CHECKING:
    from ..gitops.plan import FileChange
    from ..render import Item



def targets(paths: tuple[str, ...], recursive: bool, output_dir: str | None,
            follow_symlinks: bool = False) -> list[tuple[Source, str]]:
    """Each input file and the file its expansion goes to; UsageError for inputs that cannot be written.

    Files inside ``output_dir`` are not inputs (an output directory inside the -f tree would otherwise
    nest its output on every run); two sources that are the same file (a symbolic link to another input)
    are written once, through the first.
    """
    pairs: list[tuple[Source, str]] = []
    same_file: set[str] = set()
    for argument in paths:
        for source in expand_paths((argument,), recursive, follow_symlinks, outside_of(output_dir)):
            if source.path == STDIN or "://" in source.path:
                raise click.UsageError(
                    f"cannot write the expansion of {source.display}: name files or directories")
            if output_dir is None:
                real = os.path.realpath(source.path)
                if real in same_file:
                    continue
                same_file.add(real)
            pairs.append((source, _target(argument, source, output_dir)))
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


def place_of(target: str, source: Source, output_dir: str | None) -> files.Place:
    """Where ``target`` is written: in place (through in-tree links), or confined to ``output_dir``."""
    if output_dir is None:
        return files.in_place(source.path)
    return files.under(output_dir, os.path.relpath(target, output_dir))


def _by_file(
    pairs: list[tuple[Source, str]], items: Iterable[Item], present: set[str]
) -> Iterator[tuple[Source, str, list[Item]]]:
    """Each (source, target) with the rendered items of its file, pulled lazily.

    Items come in file order, so a file's items are complete once an item of another file shows up;
    ``present`` names the files that have documents at all, so a file without any waits for nothing.
    """
    stream = iter(items)
    buffered: dict[str, list[Item]] = {}
    complete: set[str] = set()
    last: str | None = None
    for source, target in pairs:
        name = source.display
        while name in present and name not in complete:
            item = next(stream, None)
            if item is None:
                complete.update(present)
                break
            if last is not None and item.document.source != last:
                complete.add(last)
            last = item.document.source
            buffered.setdefault(last, []).append(item)
        yield source, target, buffered.pop(name, [])


def plan_changes(pairs: list[tuple[Source, str]], items: Iterable[Item], present: set[str],
                 problems: list[ToolError], output_dir: str | None = None,
                 verdict_only: bool = False, planned: dict[str, Any] | None = None,
                 ) -> Iterator[tuple[FileChange, files.Place]]:
    """The new text of every target whose source could be processed, file by file, as items arrive,
    with the place it goes to.

    Each source is read once, when it is loaded: its text comes with its documents, so a FIFO is not
    read twice and a file that changes meanwhile cannot be mixed up. Files with input errors (found while
    loading, or in one of their VMs) are skipped. With ``verdict_only`` (``--check`` in place) only the
    verdict is kept: the new text is made only for a file that changes, so that a file ``--write`` could
    not rewrite is refused by ``--check`` too. ``planned`` holds, by file, the new texts (verdicts)
    ``--jobs`` workers made as this would (:func:`.jobs.write_parallel`).
    """
    from ..gitops.plan import FileChange, rendered_text, writable_change

    loaded_broken = files_in_error(problems)
    for source, target, file_items in _by_file(pairs, items, present):
        if source.display in loaded_broken or any(
            i.problem is not None and i.problem.exit_code == EXIT_INPUT for i in file_items
        ):
            continue
        try:
            place = place_of(target, source, output_dir)
            if verdict_only and output_dir is None:
                if planned is None or not file_items:
                    verdict = writable_change(file_items, source.display)
                else:
                    verdict = bool(_made(planned[source.display]))
                yield FileChange(source.display, target, None, None, verdict), place
                continue
            text = file_items[0].document.stream_text if file_items else _without_documents(source, output_dir)
            if text is None:
                continue
            if planned is None or not file_items:  # (a file without documents: none of a worker's)
                after = rendered_text(text, source.display, _handed_over(file_items))
            else:
                after = _made(planned[source.display])
            before = text if output_dir is None else files.read(place, DEFAULT_LIMITS.max_bytes)
        except InputError as exc:
            problems.append(exc)
            continue
        yield FileChange(source.display, target, before, after), place


def _made(planned: Any) -> Any:
    """A new text (or verdict) a ``--jobs`` worker made (the InputError it met raised here, where it is
    reported)."""
    if isinstance(planned, InputError):
        raise planned
    return planned


def _handed_over(items: list[Item]) -> Iterator[Item]:
    """``items`` in order, the list emptied as they go: once the new text's data is built from them nothing
    holds the VMs and their expansions, and a file of 10,000 VMs is checked and written in less memory."""
    items.reverse()
    while items:
        yield items.pop()


def _without_documents(source: Source, output_dir: str | None) -> str | None:
    """The text of a source without documents: only its copy under ``--output-dir`` needs it."""
    if output_dir is None:
        return None
    try:
        if not stat.S_ISREG(os.stat(source.path).st_mode):
            return None
    except OSError:
        return None
    return read_text(source)


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


def _print_diff(change: FileChange, color: str) -> None:
    from ..gitops.udiff import unified

    text = unified(change.before, change.after or "", change.target, change.target)
    sys.stdout.write(colorize(text) if use_color(color) else text)


def _write(change: FileChange, place: files.Place, problems: list[ToolError]) -> bool:
    """Write one change; False (and a problem) when it cannot be written."""
    if change.after is None:  # never planned for writing
        return False
    try:
        # in place it is a read-modify-write: the file must still hold what it was read as
        files.write(place, change.after, change.before if place.confined_to is None else None)
    except InputError as exc:
        problems.append(exc)
        return False
    return True


def apply(
    pairs: list[tuple[Source, str]], items: Iterable[Item], present: set[str], options: WriteOptions,
    problems: list[ToolError], planned: dict[str, Any] | None = None, outdated: list[ToolError] | None = None,
) -> tuple[int, list[str]]:
    """Write, list or diff the targets that change, file by file as ``items`` are rendered: the status
    this adds, and the notes for stderr.

    ``problems`` holds the problems met so far (files that failed to load are skipped); new ones (files
    that cannot be rewritten or written) are appended; the caller reports them before the notes, so that
    a summary is the last line. ``outdated`` collects the files ``--check``/``--diff`` find out of date.
    """
    from ..yamlio import roundtrip
    from .common import report_on_stderr, report_settings
    from .progress import Progress

    verdict_only = options.check and not options.diff
    progress = Progress(quiet=bool(report_settings().get("quiet")) or report_on_stderr())
    roundtrip.AFTER_DOCUMENT.append(progress.document)
    try:
        return settle(plan_changes(pairs, progress.counting(items), present, problems, options.output_dir,
                                   verdict_only, planned), options, problems, outdated)
    finally:
        roundtrip.AFTER_DOCUMENT.remove(progress.document)
        progress.done()


def settle(changes: Iterable[tuple[FileChange, files.Place]], options: WriteOptions,
           problems: list[ToolError], outdated: list[ToolError] | None = None) -> tuple[int, list[str]]:
    """Write, list or diff each change that changes its file, at its place: the status this adds, and the
    notes for stderr (files that cannot be written are added to ``problems``; with ``--check`` or ``--diff``
    the files that would change, to ``outdated``: the machine reports' results)."""
    from .common import report_settings

    changed, notes, quiet = 0, [], bool(report_settings().get("quiet"))
    for change, place in changes:
        if not change.changed:
            continue
        changed += 1
        if options.dry and outdated is not None:
            outdated.append(_out_of_date(change.target, options))
        if options.diff:
            _print_diff(change, options.color)
        elif options.check:
            sys.stdout.write(f"{one_line(change.target)}\n")
        elif _write(change, place, problems) and not quiet:  # -q: the rewrite is the answer, said by the status
            notes.append(f"wrote {change.target}")
    if options.dry:
        verb = "written" if options.output_dir is not None else "rewritten"
        notes = [f"{_count(changed)} would be {verb}"] if changed else []
        return (EXIT_FINDINGS if changed else EXIT_OK), notes  # as black, ruff and git diff --exit-code
    return EXIT_OK, notes


def _out_of_date(target: str, options: WriteOptions) -> OutOfDate:
    ctx = click.get_current_context(silent=True)
    command = ctx.command_path if ctx is not None else "kubectl instancetype"
    if options.output_dir is not None:
        return OutOfDate(f"not up to date: {command} --output-dir would write this file", Location(target))
    return OutOfDate(f"not up to date: {command} --write would rewrite this file", Location(target))


def _count(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"
