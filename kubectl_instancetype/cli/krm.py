"""``kubectl instancetype krm``: a KRM function (kustomize, kpt), a kustomize exec plugin, a Helm post-renderer."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import EXIT_OK, InputError, Location, ToolError
from ..krm import Envelope, Finding, Outcome, Settings, cluster_config, open_input, output, settings_from, transform
from ..yamlio import DEFAULT_LIMITS, Document, load_stream
from . import EXIT_CODES_HELP
from .inputs import STDIN, STDIN_NAME, Source, load_sources, read_text
from .options import CatalogOptions, catalog_options


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("config_file", required=False, metavar="[CONFIG]", type=click.Path(dir_okay=False))
@catalog_options
@click.option("-n", "--namespace", help="Namespace of objects that do not name one (default: default).")
@click.option("--vmi", is_flag=True, help="Replace each VirtualMachine by the VirtualMachineInstance a cluster "
                                          "would start.")
def krm(config_file: str | None, catalogs: CatalogOptions, namespace: str | None, vmi: bool) -> None:
    """Expand the VirtualMachines of a KRM ResourceList (or a plain stream) read on stdin.

    A ResourceList (config.kubernetes.io/v1) comes back with each VirtualMachine expanded in place and
    problems as results; its functionConfig (a ConfigMap, or a kubectl-instancetype/v1alpha1 Render with
    a spec) holds catalogs, builtinCatalog, vmi, namespace, kubevirtConfig, arch. CONFIG, a file holding
    that configuration, is what kustomize passes to an exec plugin. Any other stream (a Helm
    post-renderer's) comes back as a stream. Objects without a namespace keep none. Options add to the
    functionConfig; relative paths are relative to the working directory.

    \b
    Examples:
      kpt fn eval --exec "kubectl-instancetype krm" -- catalogs=catalog/
      helm template web chart/ --post-renderer plugins/helm/kubectl-instancetype-post-renderer
      kubectl kustomize --enable-alpha-plugins plugins/kustomize/render
    """
    try:
        envelope, rl_doc = _read_input()
        settings = _settings(config_file, envelope, rl_doc, catalogs, namespace, vmi)
        outcome = _run(envelope, settings)
    except InputError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(exc.exit_code)
    from ..yamlio.emit import dump_yaml_all

    sys.stdout.write(dump_yaml_all(output(envelope, outcome)))
    sys.exit(_report(outcome.findings, envelope, rl_doc))


def _read_input() -> tuple[Envelope, Document | None]:
    docs = load_stream(read_text(Source(STDIN, STDIN_NAME)), STDIN_NAME, DEFAULT_LIMITS)
    envelope = open_input(docs)
    return envelope, docs[0] if envelope.resource_list is not None else None


def _settings(config_file: str | None, envelope: Envelope, rl_doc: Document | None, catalogs: CatalogOptions,
              namespace: str | None, vmi: bool) -> Settings:
    """The functionConfig (of CONFIG, else of the ResourceList) with the command-line options added."""
    config, where = envelope.function_config, rl_doc.locate(("functionConfig",)) if rl_doc else Location(STDIN_NAME)
    if config_file is not None:
        named = _load_one(config_file)
        config, where = (named.data, named.location) if named else (None, Location(config_file))
    base = settings_from(config, where)
    return Settings(
        catalogs=base.catalogs + catalogs.catalogs,
        builtin_catalog=base.builtin_catalog and catalogs.builtin,
        vmi=base.vmi or vmi,
        namespace=namespace or base.namespace,
        kubevirt_config=catalogs.kubevirt_config or base.kubevirt_config,
        arch=catalogs.arch or base.arch,
    )


def _load_one(path: str) -> Document | None:
    """The first document of ``path``; InputError when it cannot be read."""
    problems: list[ToolError] = []
    docs = load_sources((path,), False, DEFAULT_LIMITS, problems)
    if problems:
        raise InputError(problems[0].message, problems[0].location)
    return docs[0] if docs else None


def _run(envelope: Envelope, settings: Settings) -> Outcome:
    problems: list[ToolError] = []
    catalog_docs = load_sources(settings.catalogs, True, DEFAULT_LIMITS, problems)
    named = _load_one(settings.kubevirt_config) if settings.kubevirt_config else None
    config = cluster_config(named, envelope.items, settings.arch)
    builtin: Any = None
    if settings.builtin_catalog:
        from ..catalog.builtin import find as builtin
    outcome = transform(envelope.items, catalog_docs, config, settings, builtin)
    outcome.findings[:0] = [Finding(p) for p in problems]
    return outcome


def _report(findings: list[Finding], envelope: Envelope, rl_doc: Document | None) -> int:
    """One line per finding on stderr; in a ResourceList, located at the item's field in the input."""
    for finding in findings:
        if rl_doc is not None and finding.item is not None:
            where = rl_doc.locate(("items", finding.item, *finding.path))
            click.echo(f"{where}: error: {finding.error.message}", err=True)
        else:
            click.echo(finding.error.render(), err=True)
    return max((f.error.exit_code for f in findings), default=EXIT_OK)
