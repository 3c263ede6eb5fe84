"""``kubectl instancetype capacity``: what a directory of VirtualMachines asks of the nodes and of the
namespaces' ResourceQuotas, from their launcher Pods; a VM whose Pod quota admission would refuse is a finding."""

from __future__ import annotations

import click

from ..capacity.model import Launcher
from ..errors import RefusedError
from ..records import replace
from ..reporters import RunResult
from . import exit_codes_help
from .options import CatalogOptions, InputOptions, catalog_options, input_options, load
from .report import finish

FORMATS = ("table", "json", "markdown")


@click.command(epilog=exit_codes_help("a VM whose launcher Pod the API server's ResourceQuota admission would "
                                      "refuse"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@click.option("-o", "--output", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table for people, json for platforms (kubectl instancetype schema CapacityReport), markdown "
                   "for a pull request.")
@click.option("--launcher-image", metavar="IMAGE",
              help="virt-controller's --launcher-image (as render --pod; it does not change what is counted).")
@click.option("--quota-status", "from_status", is_flag=True,
              help="Start each ResourceQuota from the status.used its manifest carries (kubectl get resourcequota "
                   "-o yaml of a live namespace) instead of from nothing: the VMs are added to what already runs.")
@click.option("--all", "all_vms", is_flag=True,
              help="Count every VM as started, also those whose run strategy leaves them stopped (Halted, Manual, "
                   "running: false).")
def capacity(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, fmt: str,
             launcher_image: str | None, all_vms: bool, from_status: bool) -> None:
    """Sum the launcher Pods' requests and limits per namespace and check them against the ResourceQuotas.

    Each VirtualMachine is rendered to the Pod virt-controller would create for it (the VMI, then the launcher
    Pod: the memory overhead, the CPU request after cpuAllocationRatio, hugepages, devices, the limits KubeVirt
    adds under a quota); Pods written in the files count as they are. The VMs are created in file order: each
    Pod goes through the API server's ResourceQuota admission (Kubernetes' rules: requests.*/limits.*, pods,
    count/pods, hugepages, extended resources as requests.<name>, scopes, "must specify" for cpu and memory)
    against the quotas of its namespace found in the files, starting with nothing used. Only the VMs and Pods
    in the files count: the quotas' current use in a cluster is not known offline (--quota-status starts from
    the status.used of quotas exported from a cluster).

    \b
    Examples:
      kubectl instancetype capacity -f vms/ -R
      kubectl instancetype capacity -f vms/ -R --kubevirt-config kubevirt.yaml -o json
      kubectl instancetype capacity vms/ quotas.yaml -o markdown > comment.md
    """
    from ..capacity import views
    from ..capacity.model import REFUSED, report
    from ..capacity.sources import counted
    from ..render import Options, render_each
    from .launcher import launcher_renderer

    inputs = replace(inputs, filenames=inputs.filenames + paths)
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    loaded = load(inputs, catalogs)
    options = Options(namespace=inputs.namespace, config=loaded.config)
    renderer = launcher_renderer(loaded, launcher_image)
    found = counted(render_each(loaded.documents, loaded.catalog, options, renderer), inputs.namespace)
    made = report(found.launchers, found.quotas, all_vms, from_status)
    click.echo({"json": views.as_json, "markdown": views.markdown}.get(fmt, views.text)(made), nl=False)
    refused = tuple(RefusedError(refusal(row.launcher, row.reason), row.launcher.location)
                    for row in made.rows() if row.status == REFUSED)
    finish(RunResult((*loaded.problems, *found.problems, *refused), (*loaded.notices, *found.notices)))


def refusal(launcher: Launcher, reason: str) -> str:
    """A refused Pod as the run reports it: the VM (or the Pod of the files) and the API server's words."""
    what = "it" if launcher.kind == "Pod" else "its launcher Pod"
    return f"{launcher.kind} {launcher.namespace}/{launcher.name}: the API server would refuse {what}: {reason}"
