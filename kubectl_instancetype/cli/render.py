"""``kubectl instancetype render``: print VirtualMachines expanded as KubeVirt would expand them."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..render import Options, Result
from ..render import render as render_documents
from . import EXIT_CODES_HELP
from .options import CatalogOptions, InputOptions, catalog_options, input_options, report
from .session import build_session

OUTPUT_FORMATS = ("yaml", "json", "patch")


@click.command(
    epilog=EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@input_options
@catalog_options
@click.option("-o", "--output", "output", type=click.Choice(OUTPUT_FORMATS), default="yaml", show_default=True,
              help="yaml or json manifests, or per VM the RFC 6902 JSON patch from the VM to its expansion.")
@click.option("--vmi", is_flag=True,
              help="Print the VirtualMachineInstance a cluster would start instead of the expanded VM. "
                   "Firmware UUID: the stable one KubeVirt derives from the VM name when the template "
                   "sets none (a cluster assigns a random one).")
def render(inputs: InputOptions, catalogs: CatalogOptions, output: str, vmi: bool) -> None:
    """Expand VirtualMachines that reference instancetypes and preferences.

    Every input document is printed in order; each VirtualMachine is replaced by its expansion (with
    --vmi: by its VirtualMachineInstance); other documents pass through unchanged. Instancetypes,
    preferences, ControllerRevisions and storage objects found among the inputs are used for
    resolution, as are those of --catalog and the built-in common-instancetypes catalog.

    \b
    Examples:
      kubectl instancetype render -f vm.yaml
      kubectl instancetype render -f vms/ -R --catalog instancetypes/ -o json
      kubectl get vm myvm -o yaml | kubectl instancetype render -f -
      kubectl instancetype render -f vm.yaml --vmi --kubevirt-config kubevirt.yaml
    """
    session = build_session(inputs, catalogs)
    options = Options(namespace=inputs.namespace, config=session.config, vmi=vmi)
    result = render_documents(session.documents, session.catalog, options, session.vm_renderer(vmi))
    result.problems[:0] = session.problems
    _print(result, output)
    sys.exit(report(result.problems, session.warnings))


def _print(result: Result, output: str) -> None:
    if output == "patch":
        from .patches import print_patches

        print_patches(result.items)
        return
    docs = [item.rendered for item in result.items if item.rendered is not None]
    if not docs:
        return
    from ..yamlio.emit import dump_json, dump_yaml_all

    if output == "json":
        sys.stdout.write(dump_json(docs[0] if len(docs) == 1 else _list(docs)))
    else:
        sys.stdout.write(dump_yaml_all(docs))


def _list(docs: list[Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "List", "items": docs, "metadata": {"resourceVersion": ""}}
