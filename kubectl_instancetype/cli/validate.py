"""``kubectl instancetype validate``: every VirtualMachine resolves and KubeVirt admits it; nothing is printed
and no file needs to be expanded (repositories that keep ``spec.instancetype`` references, KubeVirt's normal
way, check them with this; ``render --check`` also wants the files expanded)."""

from __future__ import annotations

from typing import Any

import click

from ..errors import ToolError
from ..inputs import Inputs
from ..parallel import how_many
from ..records import replace
from ..render import Item, Options, render_each
from . import exit_codes_help
from .options import (
    CatalogOptions,
    InputOptions,
    catalog_options,
    input_options,
    jobs_option,
    junit_option,
    load,
)
from .render import Seen, vm_renderer
from .repo import repo_catalog_option, with_repo_catalog, with_tracked_kubevirt_cr
from .report import finish


@click.command(epilog=exit_codes_help(), context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@repo_catalog_option
@click.option("--vmi", is_flag=True, help="Also check the VirtualMachineInstance each VM starts (the VMI webhooks).")
@click.option("--pod", is_flag=True,
              help="Also check that virt-controller can render each VM's virt-launcher Pod, reporting every claim, "
                   "NetworkAttachmentDefinition, network binding or StorageClass it lacks. Without --pod this is "
                   "checked only for what the inputs can decide: missing claims when they hold PVCs or "
                   "DataVolumes, missing NetworkAttachmentDefinitions when they hold some, unconfigured network "
                   "bindings with a KubeVirt CR, a missing StorageClass when they hold StorageClasses.")
@click.option("--param-sets", "param_sets", metavar="FILE|annotation",
              help="For each VirtualMachineTemplate: process every parameter set of FILE (a YAML or JSON list of "
                   "maps of parameter values), or with `annotation` every combination of the values its "
                   "kubectl-instancetype.io/parameter-values annotation declares (a map of parameter names to "
                   "lists of values), and print which sets KubeVirt admits, each refusal with KubeVirt's message "
                   "(a refused set is a finding).")
@junit_option
@jobs_option
def validate(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, repo_catalog: bool,
             vmi: bool, junit_xml: str | None, jobs: int = 1, param_sets: str | None = None, pod: bool = False
             ) -> None:
    """Check that every VirtualMachine resolves its instancetype and preference and that KubeVirt admits it.

    The problems go to standard error and decide the exit status; a --output-format other than text is
    printed on standard output (nothing else is).
    Files are not required to be expanded (see render --check for that). PATH arguments are more -f inputs
    (as pre-commit passes them).

    \b
    Examples:
      kubectl instancetype validate -f vms/ -R --catalog instancetypes/
      kubectl instancetype validate vms/web.yaml --repo-catalog
    """
    from .common import META

    click.get_current_context().meta.setdefault(META, {})["stdout_free"] = True  # reports may go to stdout
    inputs = replace(inputs, filenames=inputs.filenames + paths)
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    catalogs = with_repo_catalog(inputs, catalogs, repo_catalog)
    catalogs = with_tracked_kubevirt_cr(inputs, catalogs, repo_catalog)
    if param_sets is not None:
        inputs = replace(inputs, templates="keep")  # each template is processed once per set, below
    loaded = load(inputs, catalogs, jobs)
    seen = Seen(list(loaded.problems), inputs.namespace)
    options = Options(namespace=inputs.namespace, config=loaded.config)
    renderer = vm_renderer(vmi)
    if pod or _holds_cluster_objects(loaded):
        from .launcher import pod_validator

        renderer = pod_validator(loaded, renderer or vm_renderer_default(), pod, catalogs.kubevirt_config)
    processes = how_many(jobs, len(loaded.documents))
    if processes > 1:
        from .jobs import render_parallel

        for done in render_parallel(loaded.documents, loaded.catalog, options, renderer, inputs.namespace,
                                    _no_text, processes):
            seen.record(done)
    else:
        for _item in seen.watch(render_each(loaded.documents, loaded.catalog, options, renderer)):
            pass
    if param_sets is not None:
        seen.problems.extend(_param_sets(param_sets, loaded, inputs))
    finish(seen.result(loaded.notices, False), junit=junit_xml, suite="kubectl-instancetype validate")


def _param_sets(source: str, loaded: Inputs, inputs: InputOptions) -> list[ToolError]:
    """Each template's table of parameter sets on standard output; a finding for each refused set."""
    from ..api.templatekinds import is_template
    from ..errors import InputError, KubeVirtError
    from ..inputs.gather import validating
    from ..paramsets import sets_from_annotation, sets_from_file, table, verdicts
    from ..schema.server import Options as ValidateOptions
    from ..vmtemplate.stage import loaded_template, schema_problems
    from ..yamlio import load_stream
    from .inputs import Source, read_text

    problems: list[ToolError] = []
    given: list[dict[str, str]] | None = None
    try:
        if source != "annotation":
            docs = load_stream(read_text(Source(source, source, source)), source)
            given = sets_from_file(docs[0].data if docs else None, source)
    except ToolError as exc:
        return [exc]
    checking = validating(ValidateOptions(inputs.validate, inputs.namespace), loaded.config, False)
    for doc in loaded.documents:
        if not is_template(doc.data):
            continue
        refused = schema_problems(doc)
        if refused:
            problems.extend(refused)
            continue
        try:
            template = loaded_template(doc)
            sets = given if given is not None else sets_from_annotation(template)
        except ToolError as exc:
            problems.append(exc)
            continue
        if not sets:
            problems.append(InputError("no parameter sets: the template has no "
                                       "kubectl-instancetype.io/parameter-values annotation", doc.location))
            continue
        found = list(verdicts(template, sets, loaded.catalog, loaded.config, checking, inputs.namespace))
        kind = "Template" if template.template.openshift else "VirtualMachineTemplate"
        click.echo("\n".join(table(f"{doc.source}: {kind} {template.template.name}", found)))
        for verdict in found:
            if not verdict.admitted:
                values = " ".join(f"{k}={v}" for k, v in verdict.values.items())
                problems.append(KubeVirtError(f"{kind} {template.template.name} with {values}: {verdict.refusal}",
                                              stage=verdict.stage).with_location(doc.location))
    return problems


def _holds_cluster_objects(loaded: Inputs) -> bool:
    """Whether the inputs hold objects a launcher Pod's render reads (or a KubeVirt CR)."""
    kinds = {"PersistentVolumeClaim", "DataVolume", "NetworkAttachmentDefinition", "StorageClass", "KubeVirt"}
    return any(doc.data.get("kind") in kinds for doc in loaded.documents)


def vm_renderer_default() -> Any:
    from ..render import default_vm_renderer

    return default_vm_renderer


def _no_text(_item: Item) -> str:
    return ""  # validate prints no documents
