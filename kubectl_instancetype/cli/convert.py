"""``kubectl instancetype convert``: rewrite v1alpha1/v1alpha2 instancetypes, preferences and the
ControllerRevisions holding them as v1beta1, printing the files or rewriting them in place."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import click

from ..errors import EXIT_OK, Notice, ToolError
from ..gitops.convert import converted_documents, converted_text
from ..gitops.plan import FileChange
from ..inputs.exclude import excluded
from ..reporters import RunResult
from . import EXIT_CODES_HELP, files
from .ci_log import guard_stdout
from .common import FILES_READ
from .inputs import Source, expand_paths, read_text
from .options import WriteOptions, exclude_option, write_options
from .report import finish, refuse_reports_over, report_files
from .write import settle, targets


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("-f", "--filename", "filenames", multiple=True, metavar="PATH",
              help="A file, a directory, or - for standard input (YAML or JSON; repeatable).")
@click.option("-R", "--recursive", is_flag=True, help="Process directories of -f recursively.")
@click.option("--follow-symlinks", is_flag=True,
              help="Also read (and with --write, rewrite) symbolic links in directories that lead out of them.")
@exclude_option
@write_options(output_dir=False)
def convert(paths: tuple[str, ...], filenames: tuple[str, ...], recursive: bool, follow_symlinks: bool,
            writing: WriteOptions, exclude: tuple[str, ...] = ()) -> None:
    """Rewrite instancetype.kubevirt.io/v1alpha1 and v1alpha2 objects as v1beta1.

    KubeVirt v1.7 removed those versions: kubectl refuses such instancetypes and preferences, and
    KubeVirt cannot decode ControllerRevisions holding them. Objects are converted as the API server
    served them while it still accepted them (apiVersion rewritten, every field kept); a
    ControllerRevision's object as KubeVirt's own conversion decoded it (the CPU fields model,
    dedicatedCPUPlacement and isolateEmulatorThread set, an empty preferredCPUTopology dropped), with its
    object-version label updated and its name kept.

    Every input file is printed, converted, with its comments and formatting; with --write the files are
    rewritten in place instead, and --check and --diff say what --write would do. PATH arguments are
    more -f inputs.

    \b
    Examples:
      kubectl instancetype convert -f instancetypes.yaml
      kubectl instancetype convert -f manifests/ -R --write
      kubectl instancetype convert -f manifests/ -R --check
    """
    names = filenames + paths
    if not names:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    if report_files():  # (convert reads its inputs itself, not through options.load)
        refuse_reports_over([source.path for source in expand_paths(names, recursive, follow_symlinks)])
    problems: list[ToolError] = []
    outdated: list[ToolError] = []
    guard_stdout()  # files' own text on standard output: no workflow command in a CI log
    if writing.active:
        sources = [source for source, _ in targets(names, recursive, None, follow_symlinks)
                   if not excluded(source, exclude)]
        status, notes = settle(_changes(sources, problems, writing.check and not writing.diff), writing, problems,
                               outdated)
    else:
        sources = [s for s in expand_paths(names, recursive, follow_symlinks) if not excluded(s, exclude)]
        _print(sources, problems)
        status, notes = EXIT_OK, []
    click.get_current_context().meta[FILES_READ] = len(sources)  # --summary: the files read (no VM is checked)
    finish(RunResult(tuple(problems), _template_hints(sources), changed=status != EXIT_OK, outdated=tuple(outdated)),
           notes=notes)


def _converted(source: Source, problems: list[ToolError]) -> tuple[str, str] | None:
    """The text of ``source`` and its conversion; None (and a problem) when it cannot be read or parsed."""
    try:
        text = read_text(source)
        return text, converted_text(text, source.display)
    except ToolError as exc:
        problems.append(exc)
        return None


def _template_hints(sources: list[Source]) -> tuple[Notice, ...]:
    """A note on each OpenShift Template among the inputs: this command converts instancetype API versions;
    ``template convert`` makes a VirtualMachineTemplate of one (issue N9: the file came back unchanged)."""
    from ..api.templatekinds import is_openshift
    from ..yamlio import load_stream

    notes: list[Notice] = []
    for source in sources:
        try:
            docs = load_stream(read_text(source), source.display)
        except ToolError:
            continue  # reported by the conversion
        notes.extend(Notice("an OpenShift Template, left as it is: `kubectl instancetype template convert -f "
                            f"{source.display}` converts it into a VirtualMachineTemplate", doc.location, "note")
                     for doc in docs if is_openshift(doc.data))
    return tuple(notes)


def _changes(sources: list[Source], problems: list[ToolError],
             verdict_only: bool) -> Iterator[tuple[FileChange, files.Place]]:
    """What --write would do to each file; with ``verdict_only`` (--check) only whether it changes, which
    is whether any document converts (the round-trip editor is not needed to know that)."""
    for source in sources:
        if verdict_only:
            try:
                verdict = bool(converted_documents(read_text(source), source.display))
            except ToolError as exc:
                problems.append(exc)
                continue
            yield FileChange(source.display, source.path, None, None, verdict), files.in_place(source.path)
            continue
        texts = _converted(source, problems)
        if texts is not None:
            yield FileChange(source.display, source.path, *texts), files.in_place(source.path)


def _print(sources: list[Source], problems: list[ToolError]) -> None:
    """Print every file converted, as one stream (``---`` between files)."""
    first = True
    for source in sources:
        texts = _converted(source, problems)
        if texts is None:
            continue
        text = texts[1]
        if not first and not text.lstrip().startswith("---"):
            sys.stdout.write("---\n")
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
        first = False
