"""``kubectl instancetype template process``: a VirtualMachineTemplate (or an OpenShift Template of one VM)
processed offline, as ``virtctl template process --file`` processes it."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..api.releases import DEFAULT, resolve
from ..errors import EXIT_OK, ToolError
from ..escape.terminal import lines, one_line
from ..inputs.sources import Source
from ..reporters import RunResult
from ..vmtemplate.generator import Entropy
from ..vmtemplate.processor import Processed, ProcessError, process
from ..vmtemplate.source import load_params, load_template, located
from ..yamlio.emit import dump_yaml
from . import exit_codes_help
from .ci_log import guard_stdout, release_stdout
from .inputs import read_text
from .options import SEED, version_of
from .report import finish


@click.group()
def template() -> None:
    """VirtualMachineTemplates (template.kubevirt.io) offline."""


def _pairs(values: tuple[str, ...]) -> dict[str, str]:
    """``-p K=V`` as cobra's StringToString reads it: ``K=V``, or several comma-separated pairs."""
    out: dict[str, str] = {}
    for value in values:
        for pair in value.split(","):
            key, sep, item = pair.partition("=")
            if not sep:
                raise click.BadParameter(f'"{value}" must be formatted as key=value', param_hint="'-p' / '--param'")
            out[key] = item
    return out


def _source(path: str) -> Source:
    return Source(path, "<stdin>" if path == "-" else path, path)


def _print(processed: Processed, output: str) -> None:
    for warning in processed.warnings:
        click.echo(f"Warning: {one_line(warning)}", err=True)
    if processed.message:  # the template's own text, its lines kept: terminal text all the same
        click.echo(lines(processed.message), err=True, nl=False)
    _emit(processed.vm, output)


def _emit(obj: Any, output: str) -> None:
    """``obj`` as virtctl prints it: ``json.MarshalIndent(obj, "", " ")`` (no newline at the end), or
    sigs.k8s.io/yaml's ``Marshal`` (``null`` for nothing)."""
    guard_stdout()  # the template's own text on standard output: no workflow command in a CI log
    if output == "json":
        text = json.dumps(obj, indent=1, ensure_ascii=False)
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        sys.stdout.write(text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    else:
        sys.stdout.write(dump_yaml(obj) if obj is not None else "null\n")
    release_stdout()
    sys.stdout.flush()


@template.command(epilog=exit_codes_help("template process: KubeVirt's template engine refuses the template"),
                  context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-f", "--file", "file", required=True, metavar="PATH",
              help="A file holding a VirtualMachineTemplate or an OpenShift Template (its first document; - for "
                   "standard input).")
@click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE",
              help="A parameter's value (repeatable; K1=V1,K2=V2 sets several).")
@click.option("--params-file", metavar="PATH", help="A YAML or JSON map of parameter values.")
@click.option("-o", "--output", "output", default="yaml", show_default=True, metavar="yaml|json",
              help="The VirtualMachine's format.")
@click.option("--seed", type=SEED, default=None, metavar="N",
              help='Draw generated values from the seeded stream SHA-256("kv-template:N:0") || '
                   'SHA-256("kv-template:N:1") || ... instead of the system\'s random source: the same seed gives '
                   "the same values (N: a whole number from -2^63 to 2^64-1).")
@click.option("--print-params", "print_params", is_flag=True,
              help="Only print the template's parameters (as virtctl does: name, displayName, description, "
                   "value, generate, from, required; null when it declares none), without processing it.")
def process_command(file: str, params: tuple[str, ...], params_file: str | None, output: str,
                    seed: int | None, print_params: bool = False) -> None:
    """Process a template into a VirtualMachine, as `virtctl template process --file` does.

    The VirtualMachine is printed on standard output, virtctl's warnings ("Warning: ...") and the
    template's message on standard error. The template is checked and processed by KubeVirt's template
    engine, with its words: parameters merged, references checked (an undefined one is an error, an
    unused parameter a warning), values generated (expression generator), the namespace stripped,
    ${X} and ${{X}} substituted, the result converted strictly into a kubevirt.io/v1 VirtualMachine.
    An OpenShift Template (template.openshift.io/v1) is converted first, as `virtctl template convert`.

    Generated values are random, as in KubeVirt; --seed N makes them reproducible. --print-params prints
    the parameters instead (the values given are not read, as virtctl does not read them).

    \b
    Examples:
      kubectl instancetype template process -f template.yaml -p NAME=vm1 -p INSTANCETYPE=u1.medium
      kubectl instancetype template process -f template.yaml --params-file params.json -o json
      kubectl instancetype template process -f template.yaml -p NAME=vm1 | kubectl instancetype render -f -
      kubectl instancetype template process -f template.yaml --print-params
    """
    if output not in ("yaml", "json"):
        raise click.UsageError(f"not supported output format: {output}")
    if params and params_file:
        raise click.UsageError("if any flags in the group [param params-file] are set none of the others can be; "
                               "[param params-file] were all set")
    passed = _pairs(params)
    problems: list[ToolError] = []
    if print_params:
        _print_params(file, output)
    try:
        loaded = load_template(read_text(_source(file)), _source(file).display)
        if params_file is not None:
            passed = load_params(read_text(_source(params_file)), _source(params_file).display)
        release = resolve(version_of(None) or DEFAULT.name).name
        try:
            processed = process(loaded.template, passed, Entropy(seed), release)
        except ProcessError as exc:
            for warning in exc.warnings:
                click.echo(f"Warning: {one_line(warning)}", err=True)
            raise located(exc, loaded) from None
        _print(processed, output)
    except ToolError as exc:
        problems.append(exc)
    if not problems:
        sys.exit(EXIT_OK)
    finish(RunResult(tuple(problems)))


process_command.name = "process"


def _print_params(file: str, output: str) -> None:
    """``--print-params``: the parameters, or virtctl's error (``error printing template parameters: ...``)."""
    from ..vmtemplate.printed import parameters

    try:
        # an OpenShift Template's parameters are printed whatever its objects (virtctl reads no Template here)
        loaded = load_template(read_text(_source(file)), _source(file).display, one_object=False)
    except ToolError as exc:
        finish(RunResult((_prefixed(exc, "error printing template parameters: "),)))
    _emit(parameters(loaded.template), output)
    sys.exit(EXIT_OK)


def _prefixed(error: ToolError, prefix: str) -> ToolError:
    """``error`` with virtctl's wrapping in front of its message (``fmt.Errorf("...: %w", err)``)."""
    import copy

    clone = copy.copy(error)
    clone.message = prefix + error.message
    clone.args = (clone.message,)
    return clone


@template.command(epilog=exit_codes_help("template convert: virtctl refuses the Template (not exactly one object)"),
                  context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-f", "--file", "file", required=True, metavar="PATH",
              help="A file holding an OpenShift Template (its first document; - for standard input).")
@click.option("-o", "--output", "output", default="yaml", show_default=True, metavar="yaml|json",
              help="The VirtualMachineTemplate's format.")
def convert(file: str, output: str) -> None:
    """Convert an OpenShift Template into a VirtualMachineTemplate, as `virtctl template convert --file` does.

    The Template must hold exactly one object (the VirtualMachine). Its name, namespace, labels, annotations,
    message and parameters are kept; the template's own `labels` (the labels `oc process` puts on the
    objects) are dropped, as virtctl drops them. The VirtualMachine is copied as it is, placeholders and all:
    `template process` processes the result.

    \b
    Examples:
      kubectl instancetype template convert -f fedora-server-small.yaml > fedora-server-small.vmt.yaml
      kubectl instancetype template convert -f template.yaml -o json \
        | kubectl instancetype template process -f - -p NAME=vm1
    """
    from ..vmtemplate.source import convert_template

    if output not in ("yaml", "json"):
        raise click.UsageError(f"not supported output format: {output}")
    try:
        converted = convert_template(read_text(_source(file)), _source(file).display)
    except ToolError as exc:
        finish(RunResult((exc,)))
    _emit(converted, output)
    sys.exit(EXIT_OK)


def _add_matrix() -> None:
    from .matrix import matrix_command

    template.add_command(matrix_command)


_add_matrix()


def _add_hygiene() -> None:
    from .hygiene import hygiene_command

    template.add_command(hygiene_command)


_add_hygiene()
