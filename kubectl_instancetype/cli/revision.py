"""``kubectl instancetype revision``: the ControllerRevisions KubeVirt would store for VirtualMachines."""

from __future__ import annotations

import sys

import click

from ..errors import KubeVirtError, Notice
from ..pipeline.vm_controller import reference_policy, stored_revisions, stores_revisions
from ..records import replace
from ..render import Options, vm_label
from ..render import render as render_documents
from ..reporters import Checked, RunResult
from . import EXIT_CODES_HELP
from .options import CatalogOptions, InputOptions, catalog_options, input_options, load
from .report import report


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)  # positional PATHs may stand in for -f, as for render
@catalog_options
@click.option("-o", "--output", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True,
              help="yaml: one document per revision; json: one object, or a v1 List for several.")
def revision(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, output: str) -> None:
    """Print the ControllerRevisions virt-controller would store for each VirtualMachine.

    Named and encoded as KubeVirt does: <vm>-<object>-v1beta1-<uid>-<generation>, labels
    instancetype.kubevirt.io/object-*, the object as served in data. An object read from a file has no uid:
    a UUID derived from its kind, namespace, name and spec stands in (generation 1), so the names are
    stable and change when the spec does. Matchers that already name a revisionName get none, as in
    KubeVirt; matchers that infer from a volume are resolved first, as render does. A VM KubeVirt would
    refuse gets none and is reported (exit status 1). Under instancetype.referencePolicy expand or
    expandAll virt-controller stores none: nothing is printed, with a warning. PATH arguments are more -f
    inputs.

    \b
    Examples:
      kubectl instancetype revision -f vm.yaml > revisions.yaml
      kubectl instancetype render -f vm.yaml -f revisions.yaml
    """
    inputs = replace(inputs, filenames=inputs.filenames + paths)
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    loaded = load(inputs, catalogs)
    vms = [d for d in loaded.documents if d.data.get("kind") == "VirtualMachine"]
    result = render_documents(vms, loaded.catalog, Options(namespace=inputs.namespace, config=loaded.config))
    problems = list(loaded.problems) + result.problems
    notices = list(loaded.notices)
    policy = reference_policy(loaded.config)
    if not stores_revisions(policy):
        notices.append(Notice(f"instancetype.referencePolicy is {policy}: virt-controller expands the VMs "
                              "instead of storing ControllerRevisions, so there are none to pin"))
    out = []
    for item in result.items:
        if item.rendered is None:
            continue
        namespace = (item.document.data.get("metadata") or {}).get("namespace") or inputs.namespace
        try:
            out.extend(stored_revisions(item.document.data, namespace, loaded.catalog, policy,
                                        loaded.config.release))
        except KubeVirtError as exc:
            problems.append(KubeVirtError(f"{vm_label(item.document.data, namespace)}: {exc.message}")
                            .with_location(item.document.location))
    checked = tuple(Checked(vm_label(i.document.data, inputs.namespace), i.document.source, i.problem)
                    for i in result.items if i.is_vm)
    status = report(RunResult(tuple(problems), tuple(notices), checked=checked), provenance=loaded.provenance)
    _print(out, output)
    sys.exit(status)


def _print(objs: list[dict[str, object]], output: str) -> None:
    if not objs:
        return
    from ..yamlio.emit import dump_json, dump_yaml_all

    if output == "yaml":
        sys.stdout.write(dump_yaml_all(objs))
        return
    doc = objs[0] if len(objs) == 1 else {"apiVersion": "v1", "kind": "List", "items": objs,
                                          "metadata": {"resourceVersion": ""}}
    sys.stdout.write(dump_json(doc))
