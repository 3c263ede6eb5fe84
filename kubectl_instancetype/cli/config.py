"""``kubectl instancetype config``: the effective KubeVirt configuration a render would assume."""

from __future__ import annotations

import sys

import click

from ..config import ClusterConfig, effective_configuration
from ..errors import EXIT_FINDINGS
from ..inputs import JUDGE_NONE, Request, gather
from ..reporters import RunResult
from . import EXIT_CODES_HELP
from .inputs import FILES
from .options import (
    arch_option,
    exclude_option,
    filename_option,
    kubevirt_config_option,
    kubevirt_version_option,
    recursive_option,
    version_of,
)
from .report import report


def release_comment(cfg: ClusterConfig) -> str:
    """The YAML comment naming the release a render assumes and the catalog that comes with it."""
    from ..catalog.builtin.bundles import catalog_version

    release = cfg.release
    return (f"# KubeVirt {release.name} (kubevirt/kubevirt {release.commit}); built-in catalog: common-instancetypes "
            f"{catalog_version(release)}\n")


@click.command(epilog=EXIT_CODES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@kubevirt_config_option(help="A KubeVirt CR, or a bare spec.configuration, to merge over KubeVirt's defaults.")
@filename_option(help="Inputs to search for a KubeVirt CR when --kubevirt-config is not given (repeatable).")
@recursive_option
@exclude_option
@arch_option
@kubevirt_version_option
@click.option("-o", "--output", type=click.Choice(("yaml", "json")), default="yaml", show_default=True)
def config(kubevirt_config: str | None, filenames: tuple[str, ...], recursive: bool, exclude: tuple[str, ...],
           arch: str | None, kubevirt_version: str | None, output: str) -> None:
    """Print the effective cluster configuration: KubeVirt's defaults merged with the file.

    The configuration is the one render uses for the same options: --kubevirt-config, else the first
    KubeVirt CR among the -f inputs, else KubeVirt's defaults; --arch then sets the default
    architecture. A configuration KubeVirt rejects (its validateConfig: image pull policy, memory
    overcommit, CPU allocation ratio, PVC size tolerance, default network interface) is an error at the
    offending field (exit 1) and KubeVirt's defaults, which it then keeps, are printed. The YAML output
    starts with a comment naming the KubeVirt release assumed (--kubevirt-version, else the CR's
    status.observedKubeVirtVersion, else the newest release) and the built-in catalog it deploys.

    \b
    Examples:
      kubectl instancetype config
      kubectl instancetype config --kubevirt-config kubevirt.yaml -o json
      kubectl get kubevirt -n kubevirt kubevirt -o yaml | kubectl instancetype config --kubevirt-config -
    """
    named = (kubevirt_config,) if kubevirt_config else ()
    request = Request(filenames if not named else (), recursive, exclude=exclude, builtin=False,
                      kubevirt_config=kubevirt_config, arch=arch, judge=JUDGE_NONE,
                      kubevirt_version=version_of(kubevirt_version))
    loaded = gather(request, FILES)
    status = report(RunResult(loaded.problems, loaded.notices))
    # a configuration KubeVirt rejects (exit 1) leaves its defaults in force: those are printed
    if all(p.exit_code == EXIT_FINDINGS for p in loaded.problems):
        from ..yamlio.emit import dump_json, dump_yaml

        effective = effective_configuration(loaded.config)
        text = dump_json(effective) if output == "json" else release_comment(loaded.config) + dump_yaml(effective)
        sys.stdout.write(text)
    sys.exit(status)
