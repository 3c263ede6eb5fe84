"""``kubectl instancetype config``: the effective KubeVirt configuration a render would assume."""

from __future__ import annotations

import sys

import click

from ..config import ARCHITECTURES, ClusterConfig, effective_configuration, is_kubevirt_cr, load_config
from ..errors import InputError, ToolError
from ..yamlio import DEFAULT_LIMITS
from . import EXIT_CODES_HELP
from .inputs import load_sources
from .options import report


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--kubevirt-config",
    metavar="FILE",
    help="A KubeVirt CR, or a bare spec.configuration, to merge over KubeVirt's defaults.",
)
@click.option(
    "-f",
    "--filename",
    "filenames",
    multiple=True,
    metavar="PATH",
    help="Inputs to search for a KubeVirt CR when --kubevirt-config is not given (repeatable).",
)
@click.option("-R", "--recursive", is_flag=True, help="Process directories of -f recursively.")
@click.option("--arch", type=click.Choice(ARCHITECTURES), help="The cluster's default architecture.")
@click.option("-o", "--output", type=click.Choice(("yaml", "json")), default="yaml", show_default=True)
def config(
    kubevirt_config: str | None, filenames: tuple[str, ...], recursive: bool, arch: str | None, output: str
) -> None:
    """Print the effective cluster configuration: KubeVirt's defaults merged with the file.

    The configuration is the one render uses for the same options: --kubevirt-config, else the first
    KubeVirt CR among the -f inputs, else KubeVirt's defaults; --arch then sets the default
    architecture.

    \b
    Examples:
      kubectl instancetype config
      kubectl instancetype config --kubevirt-config kubevirt.yaml -o json
      kubectl get kubevirt -n kubevirt kubevirt -o yaml | kubectl instancetype config --kubevirt-config -
    """
    problems: list[ToolError] = []
    cfg = _load(kubevirt_config, filenames, recursive, arch, problems)
    if cfg is not None:
        from ..yamlio.emit import dump_json, dump_yaml

        effective = effective_configuration(cfg)
        sys.stdout.write(dump_json(effective) if output == "json" else dump_yaml(effective))
    sys.exit(report(problems, []))


def _load(
    kubevirt_config: str | None,
    filenames: tuple[str, ...],
    recursive: bool,
    arch: str | None,
    problems: list[ToolError],
) -> ClusterConfig | None:
    if kubevirt_config:
        docs = load_sources((kubevirt_config,), False, DEFAULT_LIMITS, problems)[:1]
    else:
        docs = [d for d in load_sources(filenames, recursive, DEFAULT_LIMITS, problems) if is_kubevirt_cr(d.data)]
    if problems:
        return None
    try:
        if docs:
            return load_config(docs[0].data, docs[0].location, arch)
        return load_config({}, "<defaults>", arch)
    except InputError as exc:
        problems.append(exc)
        return None
