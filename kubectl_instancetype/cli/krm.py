"""``kubectl instancetype krm``: a KRM function (kustomize, kpt), a kustomize exec plugin, a Helm post-renderer."""

from __future__ import annotations

import copy
import sys

import click

from ..errors import InputError, Location, Notice, ToolError
from ..inputs import JUDGE_USED, Request, gather
from ..krm import Envelope, Finding, Settings, open_input, settings_from, transform
from ..records import replace
from ..reporters import RunResult
from ..reporters.krm import output
from ..validation import MODE_ALIASES
from ..yamlio import DEFAULT_LIMITS, Document, load_stream
from . import EXIT_CODES_HELP
from .inputs import FILES, STDIN, STDIN_NAME, Source, read_text
from .options import VALIDATE_HELP, CatalogOptions, builtin_catalog, catalog_options, namespace_option
from .report import finish


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("config_file", required=False, metavar="[CONFIG]", type=click.Path(dir_okay=False))
@catalog_options
@namespace_option(default=None)
@click.option("--vmi", is_flag=True, help="Replace each VirtualMachine by the VirtualMachineInstance a cluster "
                                          "would start.")
@click.option("--validate", type=click.Choice(sorted(MODE_ALIASES), case_sensitive=False), metavar="MODE",
              help=VALIDATE_HELP + " Default: the functionConfig's validate, else strict.")
def krm(config_file: str | None, catalogs: CatalogOptions, namespace: str | None, vmi: bool,
        validate: str | None) -> None:
    """Expand the VirtualMachines of a KRM ResourceList (or a plain stream) read on stdin.

    A ResourceList (config.kubernetes.io/v1) comes back with each VirtualMachine expanded in place and
    problems as results; its functionConfig (a ConfigMap, or a kubectl-instancetype/v1alpha1 Render with
    a spec) holds catalogs, builtinCatalog, vmi, namespace, kubevirtConfig, arch, acceptRemovedVersions,
    validate.
    CONFIG, a file holding that configuration, is what kustomize passes to an exec plugin. Any other stream
    (a Helm post-renderer's) comes back as a stream. Objects without a namespace keep none. Options add to the
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
        if validate is not None:
            settings = replace(settings, validate=MODE_ALIASES[validate.lower()])
    except InputError as exc:
        finish(RunResult((exc,)))
    request = Request(namespace=settings.namespace, catalogs=settings.catalogs, builtin=settings.builtin_catalog,
                      kubevirt_config=settings.kubevirt_config, arch=settings.arch, judge=JUDGE_USED,
                      accept_removed=settings.accept_removed_versions, validate=settings.validate,
                      kubevirt_version=settings.kubevirt_version,
                      templates="keep")  # items are written back in place: a template must stay a template
    loaded = gather(request, FILES, envelope.items, builtin_catalog(settings.builtin_catalog))
    outcome = transform(envelope, loaded, settings)
    from ..yamlio.emit import dump_yaml_all

    sys.stdout.write(dump_yaml_all(output(envelope, outcome)))
    findings = tuple(_located(f, rl_doc) for f in outcome.findings)
    finish(RunResult(findings, outcome.notices), provenance=loaded.provenance)


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
        accept_removed_versions=base.accept_removed_versions or catalogs.accept_removed,
        validate=base.validate,
        kubevirt_version=catalogs.kubevirt_version or base.kubevirt_version,
    )


def _load_one(path: str) -> Document | None:
    """The first document of ``path``; InputError when it cannot be read."""
    docs = load_stream(FILES.read(Source(path, path, path), DEFAULT_LIMITS.max_bytes).text, path, DEFAULT_LIMITS)
    return docs[0] if docs else None


def _located(finding: Finding, rl_doc: Document | None) -> ToolError:
    """The error of ``finding``; in a ResourceList, located at the item's field in the input."""
    if rl_doc is None or finding.item is None:
        return finding.error
    located = copy.copy(finding.error)
    located.location = rl_doc.locate(("items", finding.item, *finding.path))
    lookups = getattr(located, "lookups", ())
    if lookups:  # the notes of unresolved matchers, at their fields in the ResourceList too
        located.notes = tuple(Notice(message, rl_doc.locate(("items", finding.item, *keys)), "note")
                              for message, keys in lookups)
    return located
