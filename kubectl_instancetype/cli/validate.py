"""``kubectl instancetype validate``: every VirtualMachine resolves and KubeVirt admits it; nothing is printed
and no file needs to be expanded (repositories that keep ``spec.instancetype`` references, KubeVirt's normal
way, check them with this; ``render --check`` also wants the files expanded)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import click

from ..errors import InputError, ToolError
from ..inputs import Inputs
from ..parallel import how_many
from ..records import replace
from ..render import Item, Options, render_each
from ..reporters import Checked
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
                   "lists of values; at most 10000 combinations), and print which sets KubeVirt admits, each "
                   "refusal with KubeVirt's message (a refused set is a finding). Each set overrides the values "
                   "render and validate use for the template: its params file (NAME.params.yaml) or its "
                   "--template-values entry. The table goes to standard output, or to standard error when a "
                   "--output-format report is printed there; --summary counts each set as a VM.")
@junit_option
@jobs_option
def validate(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, repo_catalog: bool,
             vmi: bool, junit_xml: str | None, jobs: int = 1, param_sets: str | None = None, pod: bool = False
             ) -> None:
    """Check that every VirtualMachine resolves its instancetype and preference and that KubeVirt admits it.

    The problems go to standard error and decide the exit status; a --output-format other than text is
    printed on standard output (nothing else is).
    Files are not required to be expanded (see render --check for that). PATH arguments are more -f inputs
    (as pre-commit passes them). The answer is that of kubectl create: an object named only by
    metadata.generateName is admitted (the API server names it), with a warning that kubectl apply refuses it.

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
        from ..render import default_vm_renderer
        from .launcher import pod_validator

        renderer = pod_validator(loaded, renderer or default_vm_renderer, pod, catalogs.kubevirt_config)
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
        found, checked = _param_sets(param_sets, loaded, inputs)
        seen.problems.extend(found)
        seen.checked.extend(checked)
    finish(seen.result(loaded.notices, False), junit=junit_xml, suite="kubectl-instancetype validate")


def _param_sets(source: str, loaded: Inputs, inputs: InputOptions) -> tuple[list[ToolError], list[Checked]]:
    """Each template's table of parameter sets (on standard output, unless a report goes there: then on
    standard error); a finding for each refused set, and each set as a VM checked (the summary counts them)."""
    from ..errors import KubeVirtError
    from ..inputs.gather import validating
    from ..paramsets import sets_from_annotation, sets_from_file, table, verdicts
    from ..schema.server import Options as ValidateOptions
    from ..yamlio import load_stream
    from .inputs import Source, read_text

    problems: list[ToolError] = []
    checked: list[Checked] = []
    given: list[dict[str, str]] | None = None
    try:
        if source != "annotation":
            docs = load_stream(read_text(Source(source, source, source)), source)
            given = sets_from_file(docs[0] if docs else None, source)
        values_of = template_base_values(inputs)
    except ToolError as exc:
        return [exc], []
    checking = validating(ValidateOptions(inputs.validate, inputs.namespace), loaded.config, False)
    for doc, template in admitted_templates(loaded, problems):
        try:
            sets = given if given is not None else sets_from_annotation(template)
            base, base_source = values_of(doc.source, template.template.name)
        except ToolError as exc:
            problems.append(exc)
            continue
        if not sets:
            problems.append(InputError("no parameter sets: the template has no "
                                       "kubectl-instancetype.io/parameter-values annotation", doc.location))
            continue
        found = list(verdicts(template, sets, loaded.catalog, loaded.config, checking, inputs.namespace, base))
        kind = "Template" if template.template.openshift else "VirtualMachineTemplate"
        over = f" (over the values of {base_source})" if base_source else ""
        _show(table(f"{doc.source}: {kind} {template.template.name}{over}", found))
        for verdict in found:
            values = " ".join(f"{k}={v}" for k, v in verdict.values.items())
            label = f"{kind} {template.template.name} with {values or '(defaults)'}"
            problem = None
            if not verdict.admitted:
                problem = KubeVirtError(f"{label}: {verdict.refusal}",
                                        stage=verdict.stage).with_location(doc.location)
                problems.append(problem)
            checked.append(Checked(label, doc.source, problem))
    return problems, checked


def admitted_templates(loaded: Inputs, problems: list[ToolError]) -> Iterator[tuple[Any, Any]]:
    """Each template document of the inputs the API server admits, with the template read from it; the refusals
    and the templates that cannot be read are added to ``problems``."""
    from ..api.templatekinds import is_template
    from ..vmtemplate.stage import loaded_template, schema_problems

    for doc in loaded.documents:
        if not is_template(doc.data):
            continue
        refused = schema_problems(doc)
        if refused:
            problems.extend(refused)
            continue
        try:
            template = loaded_template(doc)
        except ToolError as exc:
            problems.append(exc)
            continue
        yield doc, template


def _show(lines: list[str]) -> None:
    """A table of parameter sets: on standard output, or on standard error when a report is printed there."""
    from .common import report_settings

    settings = report_settings()
    report_on_stdout = (settings.get("format") or "text") != "text" and settings.get("file") is None
    click.echo("\n".join(lines), err=report_on_stdout or _junit_on_stdout())


def _junit_on_stdout() -> bool:
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.params.get("junit_xml") == "-"


def template_base_values(inputs: InputOptions) -> Callable[[str, str], tuple[dict[str, str], str]]:
    """Where each template's values come from, as render and validate take them: the params file beside it
    (NAME.params.yaml), else its entry in --template-values (also from the configuration file); the values and
    the file named, or none."""
    import os

    from ..inputs.gather import template_values
    from ..paramsets import base_values
    from ..vmtemplate.stage import params_paths
    from ..yamlio import load_stream
    from .inputs import Source, read_text

    listed: dict[str, tuple[str, str]] = {}
    if inputs.template_values is not None:
        where = inputs.template_values
        docs = load_stream(read_text(Source(where, where, where)), where)
        listed = template_values(docs[0].data if docs else {}, where)

    def values_of(path: str, name: str) -> tuple[dict[str, str], str]:
        if path != "-" and "://" not in path and not path.startswith("<"):
            for candidate in params_paths(path):
                if os.path.isfile(candidate):
                    return base_values(read_text(Source(candidate, candidate, candidate)), candidate), candidate
        entry = listed.get(os.path.normpath(os.path.abspath(path))) or listed.get(name)
        return (base_values(*entry), entry[1]) if entry is not None else ({}, "")

    return values_of


def _holds_cluster_objects(loaded: Inputs) -> bool:
    """Whether the inputs hold objects a launcher Pod's render reads (or a KubeVirt CR)."""
    kinds = {"PersistentVolumeClaim", "DataVolume", "NetworkAttachmentDefinition", "StorageClass", "KubeVirt"}
    return any(doc.data.get("kind") in kinds for doc in loaded.documents)


def _no_text(_item: Item) -> str:
    return ""  # validate prints no documents
