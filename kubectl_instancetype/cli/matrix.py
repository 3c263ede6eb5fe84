"""``kubectl instancetype template matrix``: every instancetype × preference a template can name, processed
and admitted or refused with KubeVirt's messages (see :mod:`kubectl_instancetype.matrix`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..errors import ToolError
from ..inputs import Inputs
from ..records import replace
from ..reporters import RunResult
from . import exit_codes_help
from .options import CatalogOptions, InputOptions, catalog_options, input_options, load
from .report import finish

if TYPE_CHECKING:
    from ..catalog.selector import Selector
    from ..matrix import Matrix


@click.command("matrix", epilog=exit_codes_help("a preference that no instancetype of the matrix satisfies"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@click.option("--instancetypes", "instancetypes", metavar="SELECTOR",
              help="The instancetypes to try: those of the catalog whose labels match this label selector "
                   "(kubectl's syntax, e.g. instancetype.kubevirt.io/class=general.purpose).")
@click.option("--preferences", "preferences", metavar="SELECTOR",
              help="The preferences to try, as --instancetypes (e.g. 'preference.kubevirt.io/os_type=windows').")
@click.option("-o", "--output", "output", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="text: a grid; json: every cell; markdown: a section for a PR comment.")
def matrix_command(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions,
                   instancetypes: str | None, preferences: str | None, output: str) -> None:
    """Process a template with every instancetype × preference it can name, and say which KubeVirt admits.

    The template's VM names them with parameters (spec.instancetype.name: ${INSTANCETYPE}). Each side takes
    the catalog objects the --instancetypes / --preferences selector picks, else the values the template's
    kubectl-instancetype.io/parameter-values annotation declares for that parameter, else every object of the
    kind in the catalog (the built-in common-instancetypes included). The template's own values (its
    NAME.params.yaml, --template-values) fill the other parameters. A refusal is KubeVirt's message; a
    preference no instancetype satisfies is a finding (exit 1).

    \b
    Examples:
      kubectl instancetype template matrix templates/web.yaml
      kubectl instancetype template matrix templates/ -R --preferences 'preference.kubevirt.io/os_type=windows'
      kubectl instancetype template matrix web.yaml -o markdown \
        --instancetypes 'instancetype.kubevirt.io/class in (general.purpose)'
    """
    from ..catalog.selector import parse_selector
    from ..errors import UsageError

    inputs = replace(inputs, filenames=inputs.filenames + paths, templates="keep")
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    try:
        selectors = tuple(parse_selector(s) if s is not None else None for s in (instancetypes, preferences))
    except UsageError as exc:
        raise click.UsageError(exc.message) from None
    loaded = load(inputs, catalogs)
    problems, matrices = _matrices(loaded, inputs, selectors)
    from .. import matrix_report

    if output == "json":
        click.echo(matrix_report.as_json(matrices), nl=False)
    elif output == "markdown":
        click.echo(matrix_report.markdown(matrices), nl=False)
    else:
        for m in matrices:
            click.echo("\n".join(matrix_report.text(m)))
    finish(RunResult((*loaded.problems, *problems), loaded.notices))


def _matrices(loaded: Inputs, inputs: InputOptions,
              selectors: tuple[Selector | None, ...]) -> tuple[list[ToolError], list[Matrix]]:
    """Each template's matrix, and the problems: templates that cannot be read, uncovered preferences."""
    from ..errors import KubeVirtError
    from ..inputs.gather import validating
    from ..matrix import Matrix, axis, parameter_sets
    from ..paramsets import verdicts
    from ..schema.server import Options as ValidateOptions
    from .validate import admitted_templates, template_base_values

    problems: list[ToolError] = []
    matrices: list[Matrix] = []
    try:
        values_of = template_base_values(inputs)
    except ToolError as exc:
        return [exc], []
    checking = validating(ValidateOptions(inputs.validate, inputs.namespace), loaded.config, False)
    for doc, template in admitted_templates(loaded, problems):
        try:
            its = axis(template, "instancetype", loaded.catalog, inputs.namespace, selectors[0])
            prefs = axis(template, "preference", loaded.catalog, inputs.namespace, selectors[1])
            sets = parameter_sets(its, prefs, template)
            base, _ = values_of(doc.source, template.template.name)
        except ToolError as exc:
            problems.append(exc)
            continue
        cells = tuple(verdicts(template, sets, loaded.catalog, loaded.config, checking, inputs.namespace, base))
        kind = "Template" if template.template.openshift else "VirtualMachineTemplate"
        found = Matrix(f"{doc.source}: {kind} {template.template.name}", its, prefs, cells)
        matrices.append(found)
        for preference in found.uncovered():
            problems.append(KubeVirtError(f"{kind} {template.template.name}: preference {preference}: no "
                                          "instancetype of the matrix satisfies it", stage="admit")
                            .with_location(doc.location))
    return problems, matrices
