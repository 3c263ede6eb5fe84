"""``kubectl instancetype suggest``: the instancetype and preference each hand-sized VirtualMachine could
name instead of its own sizing and device settings, the VM rewritten to name them, and the proof."""

from __future__ import annotations

import sys

import click

from ..errors import EXIT_OK, ToolError, files_in_error
from ..records import replace
from ..render import vm_label
from ..reporters import Checked, RunResult
from ..suggest import Outcome, Scope, outcomes
from ..suggest.report import notices
from ..suggest.text import file_texts
from . import exit_codes_help, files
from .ci_log import guard_stdout
from .inputs import STDIN
from .options import CatalogOptions, InputOptions, WriteOptions, catalog_options, input_options, load, write_options
from .report import finish

OUTPUTS = ("files", "json")


@click.command(
    epilog=exit_codes_help("suggest: a suggestion is approximate or no instancetype fits a VM;\n"
                           "     --check: a VM would be rewritten"),
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@write_options(output_dir=False)
@click.option("--accept-approximate", is_flag=True,
              help="Also rewrite the VMs whose suggestion is approximate (their differences are listed either way).")
@click.option("-o", "--output", type=click.Choice(OUTPUTS), default="files", show_default=True,
              help="files: every input file, rewritten; json: a report of the suggestions instead (a "
                   "SuggestionList: one entry per VirtualMachine with its verdict, choices and differences).")
def suggest(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, writing: WriteOptions,
            accept_approximate: bool, output: str) -> None:
    """Suggest an instancetype and a preference for VirtualMachines sized by hand.

    For each VirtualMachine that names neither, the instancetype whose expansion gives its vCPUs, memory
    and the other fields an instancetype owns (dedicated CPUs, huge pages, GPUs, host devices, IO
    threads ...) exactly, else the closest one that does not shrink it; then the preference whose
    expansion reproduces its device, firmware and CPU topology settings best, guided by the OS it says it
    runs (the vm.kubevirt.io/os label or annotation, os.template.kubevirt.io/* labels, the
    instancetype.kubevirt.io/default-preference label of its PVC, DataVolume or DataSource). Candidates
    are the instancetypes and preferences in scope: --catalog, the inputs and the built-in
    common-instancetypes catalog.

    \b
    Instancetypes are ranked by, in turn:
      the fewest differences (exact fits first; one that would shrink the VM is never suggested),
      the fewest instancetype fields left in the VM, the fewest vCPUs then memory beyond the VM's,
      cluster-scoped before namespaced, the general-purpose u1 series first, the smallest, the name.
    Preferences (or none) by:
      the VM's own architecture kept, an exact fit, the OS hints, the fewest differences in the spec,
      the most of the VM's settings provided,
      the fewest differences in the template's metadata, cluster-scoped first, the most generic
      (the fewest settings), the name.

    The VM is rewritten to name them, without the fields they now provide: those the instancetype owns
    (KubeVirt refuses a VM that sets them), and the preference's where the expansion puts back the same
    value (a setting it would change stays, and is listed). The proof renders the rewritten VM and
    compares it with the original expanded the same way: exact, or the differences, by JSON pointer.
    Approximate suggestions are rewritten only with --accept-approximate. VMs that already name an
    instancetype or a preference are left alone.

    Every input file is printed, rewritten, with its comments and formatting; with --write the files are
    rewritten in place instead, and --check and --diff say what --write would do. The report goes to
    standard error. PATH arguments are more -f inputs.

    \b
    Examples:
      kubectl instancetype suggest -f vm.yaml
      kubectl instancetype suggest -f manifests/ -R --diff
      kubectl instancetype suggest -f manifests/ -R --write
      kubectl instancetype suggest -f vms/ -R --catalog instancetypes/ --no-builtin-catalog --check
    """
    # a template's VM is suggested for as it is written: the rewrite keeps its placeholders
    inputs = replace(inputs, filenames=inputs.filenames + paths, templates="raw")
    _check_usage(inputs, writing, output)
    loaded = load(inputs, catalogs)
    guard_stdout()  # files' own text on standard output: no workflow command in a CI log
    found = list(outcomes(loaded.documents, Scope(inputs.namespace, loaded.catalog, loaded.config)))
    problems = [*loaded.problems, *(o.problem for o in found if o.problem is not None)]
    broken = files_in_error(problems)
    texts: dict[str, tuple[str, str]] = {}
    if output == "files":  # the report of -o json needs no file rewritten
        texts, unwritable = file_texts(loaded.documents, found, accept_approximate, broken)
        problems.extend(unwritable)
    notes: list[str] = []
    outdated: list[ToolError] = []
    if writing.active:
        status, notes = _write(texts, inputs, writing, problems, outdated)
    elif output == "files":
        status = _print(texts)
    else:
        status = _print_json(found, inputs.namespace, accept_approximate, inputs.templates == "raw")
    said = [n for outcome in found for n in notices(outcome, accept_approximate)]
    if inputs.templates == "raw":  # a template's VM was looked at with stand-ins for its placeholders
        from ..records import replace as with_field
        from ..vmtemplate.standin import restored_text

        said = [with_field(n, message=restored_text(n.message)) for n in said]
        for problem in problems:
            problem.message = restored_text(problem.message)
    attention = any(o.suggestion is not None and o.suggestion.attention for o in found)
    checked = tuple(Checked(vm_label(o.document.data, inputs.namespace), o.document.source, o.problem) for o in found)
    finish(RunResult(tuple(problems), (*loaded.notices, *said), status != EXIT_OK or attention, checked=checked,
                     outdated=tuple(outdated)), notes=notes)


def _check_usage(inputs: InputOptions, writing: WriteOptions, output: str) -> None:
    """UsageError for a command line that asks for nothing or for contradictions."""
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    if writing.active and output != "files":
        raise click.UsageError("--write, --check and --diff rewrite files: drop -o json")
    if writing.active and STDIN in inputs.filenames:
        raise click.UsageError("cannot rewrite standard input: name files or directories")


def _write(texts: dict[str, tuple[str, str]], inputs: InputOptions, writing: WriteOptions,
           problems: list[ToolError], outdated: list[ToolError]) -> tuple[int, list[str]]:
    """--write, --check or --diff over the files that change, through ``render --write``'s safe writer."""
    from ..gitops.plan import FileChange
    from .write import settle, targets  # only to write: printing needs none of it

    pairs = targets(inputs.filenames, inputs.recursive, None, inputs.follow_symlinks)
    wanted = [source for source, _ in pairs if source.display in texts]
    changes = ((FileChange(s.display, s.path, *texts[s.display]), files.in_place(s.path)) for s in wanted)
    return settle(changes, writing, problems, outdated)


def _print_json(found: list[Outcome], namespace: str, accept_approximate: bool, templates: bool) -> int:
    """The report of ``-o json`` (its reporter imported only then); with ``templates``, a template's VM is named
    by its placeholders, not by their stand-ins."""
    from ..suggest.jsonreport import report
    from ..yamlio import dump_json

    data = report(found, namespace, accept_approximate)
    if templates:
        from ..vmtemplate.standin import restored

        data = restored(data)
    sys.stdout.write(dump_json(data))
    return EXIT_OK


def _print(texts: dict[str, tuple[str, str]]) -> int:
    """Every file as rewritten, as one stream (``---`` between files), as ``convert`` prints them."""
    first = True
    for _, text in texts.values():
        if not first and not text.lstrip().startswith("---"):
            sys.stdout.write("---\n")
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
        first = False
    return EXIT_OK
