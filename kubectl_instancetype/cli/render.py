"""``kubectl instancetype render``: print VirtualMachines expanded as KubeVirt would expand them,
or write the expansion back into the files (``--write``, ``--output-dir``, ``--check``, ``--diff``)."""

from __future__ import annotations

import dataclasses
import sys
from collections import deque
from collections.abc import Iterator
from typing import Any

import click

from ..errors import ToolError
from ..render import Item, Options, render_each
from ..render import render as render_documents
from ..yamlio import Document
from . import EXIT_CODES_HELP
from .options import CatalogOptions, InputOptions, catalog_options, input_options, report
from .output import print_stream
from .session import build_session
from .write import WriteOptions, write_options

OUTPUT_FORMATS = ("yaml", "json", "patch")


@click.command(
    epilog=EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)  # positional PATHs may stand in for -f
@catalog_options
@click.option("-o", "--output", "output", type=click.Choice(OUTPUT_FORMATS), default="yaml", show_default=True,
              help="yaml or json manifests, or the kustomize patches (RFC 6902) from each VM to its expansion.")
@click.option("--vmi", is_flag=True,
              help="Print the VirtualMachineInstance a cluster would start instead of the expanded VM. "
                   "Firmware UUID: the stable one KubeVirt derives from the VM name when the template "
                   "sets none (a cluster assigns a random one).")
@write_options
def render(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, output: str, vmi: bool,
           writing: WriteOptions) -> None:
    """Expand VirtualMachines that reference instancetypes and preferences.

    Every input document is printed in order; each VirtualMachine is replaced by its expansion (with
    --vmi: by its VirtualMachineInstance); other documents pass through unchanged. Instancetypes,
    preferences, ControllerRevisions and storage objects found among the inputs are used for
    resolution, as are those of --catalog and the built-in common-instancetypes catalog. PATH
    arguments are more -f inputs (as pre-commit passes them).

    With --write, --output-dir, --check or --diff nothing is printed: the files are rewritten (or
    written under DIR) with their VMs expanded and everything else kept byte for byte; metadata.namespace
    is not added. --check and --diff alone compare against the input files themselves.

    \b
    Examples:
      kubectl instancetype render -f vm.yaml
      kubectl instancetype render -f vms/ -R --catalog instancetypes/ -o json
      kubectl get vm myvm -o yaml | kubectl instancetype render -f -
      kubectl instancetype render -f vm.yaml --vmi --kubevirt-config kubevirt.yaml
      kubectl instancetype render -f vms/ -R --catalog catalog/ --write
      kubectl instancetype render -f vms/ -R --output-dir rendered/ --check
    """
    inputs = dataclasses.replace(inputs, filenames=inputs.filenames + paths)
    pairs = _targets(inputs, writing, output, vmi)
    session = build_session(inputs, catalogs)
    options = Options(namespace=inputs.namespace, config=session.config)
    problems = session.problems
    renderer = session.vm_renderer(vmi)
    if output == "patch":
        from .patches import print_patches

        result = render_documents(session.documents, session.catalog, options, renderer)
        print_patches(result.items)
        sys.exit(report(problems + result.problems, session.warnings))
    # Everything else streams: each VM is rendered, used and dropped, so memory stays flat.
    single = len(session.documents) == 1
    present = {doc.source for doc in session.documents}
    documents, session.documents = deque(session.documents), []
    items = render_each(_draining(documents), session.catalog, options, renderer)
    if pairs is None:
        print_stream(items, output, single, problems)
        sys.exit(report(problems, session.warnings))
    from .write import apply

    status, notes = apply(pairs, _collecting(items, problems), present, writing, problems)
    status = max(report(problems, session.warnings), status)
    for note in notes:
        click.echo(note, err=True)
    sys.exit(status)


def _collecting(items: Iterator[Item], problems: list[ToolError]) -> Iterator[Item]:
    """The items, with their problems added to ``problems`` as they pass."""
    for item in items:
        if item.problem is not None:
            problems.append(item.problem)
        yield item


def _draining(documents: deque[Document]) -> Iterator[Document]:
    """The documents in order, each released as soon as it is handed out."""
    while documents:
        yield documents.popleft()


def _targets(inputs: InputOptions, writing: WriteOptions, output: str, vmi: bool) -> Any:
    """The (source, target) pairs to write, None when printing; UsageError for contradictory options."""
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    if not writing.active:
        return None
    if writing.write and writing.output_dir is not None:
        raise click.UsageError("--write and --output-dir exclude each other")
    if vmi or output != "yaml":
        raise click.UsageError("--write, --output-dir, --check and --diff write VMs as YAML files: drop -o/--vmi")
    from .write import targets

    return targets(inputs.filenames, inputs.recursive, writing.output_dir, inputs.follow_symlinks)


