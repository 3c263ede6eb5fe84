"""``kubectl instancetype render``: print VirtualMachines expanded as KubeVirt would expand them,
or write the expansion back into the files (``--write``, ``--output-dir``, ``--check``, ``--diff``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from ..errors import EXIT_OK, Notice, ToolError
from ..parallel import how_many
from ..records import dataclass, field, replace
from ..render import Item, Options, VMRenderer, render_each, vm_label
from ..reporters import Checked, RunResult
from ..yamlio import Document
from . import exit_codes_help
from .options import (
    CatalogOptions,
    InputOptions,
    WriteOptions,
    catalog_options,
    input_options,
    jobs_option,
    junit_option,
    load,
    outside_of,
    write_options,
)
from .output import print_stream
from .repo import repo_catalog_option, with_repo_catalog, with_tracked_kubevirt_cr
from .report import finish

if TYPE_CHECKING:
    from .jobs import Done

OUTPUT_FORMATS = ("yaml", "json", "patch")


@click.command(
    epilog=exit_codes_help("with --check: files would change"),
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)  # positional PATHs may stand in for -f
@catalog_options
@click.option("-o", "--output", "output", type=click.Choice(OUTPUT_FORMATS), default="yaml", show_default=True,
              help="yaml or json manifests, or the kustomize patches (RFC 6902) from each VM to its expansion.")
@click.option("--vmi", is_flag=True,
              help="Print the VirtualMachineInstance a cluster would start instead of the expanded VM. "
                   "Firmware UUID: the stable one KubeVirt derives from the VM name when the template "
                   "sets none (a cluster assigns a random one).")
@click.option("--pod", is_flag=True,
              help="Print the virt-launcher Pod virt-controller creates to run the VM: requests with KubeVirt's "
                   "memory overhead, limits, node selectors, affinity, volumes, init containers. PVCs, DataVolumes, "
                   "NetworkAttachmentDefinitions, StorageClasses, ResourceQuotas, Namespaces and Nodes among the "
                   "inputs are the cluster's; a Pod virt-controller cannot render is an error at the VM.")
@click.option("--launcher-image", metavar="IMAGE",
              help="virt-controller's --launcher-image for --pod (default: what virt-operator passes, "
                   "<registry>/virt-launcher:<release>, the registry from the KubeVirt CR, else quay.io/kubevirt).")
@click.option("--explain", is_flag=True,
              help="Say where every value the expansion set comes from (instancetype, preference, default): "
                   "a trailing comment in YAML; with -o json, the object and its origins by JSON pointer.")
@click.option("--stored", is_flag=True,
              help="Print each VM as the cluster stores it: what kubectl get vm -o yaml shows after kubectl apply and "
                   "virt-controller's first reconcile. Values the cluster draws at random are shown as "
                   "'<assigned by the cluster>'. See also: kubectl instancetype drift.")
@click.option("--pin", is_flag=True,
              help="Instead of expanding, add to each VM the stable values the cluster would write (architecture, "
                   "machine type, PCI topology annotation, storage class, …) and remove what it removes "
                   "(inferFromVolume once inferred, …) so that the live VM equals the file; with --write, --check "
                   "or --diff, in the files. A VirtualMachinePool is stored as written: nothing is pinned into it.")
@click.option("--pin-firmware", is_flag=True,
              help="With --pin: also a firmware UUID and serial derived from the VM's namespace and name (the "
                   "cluster would draw random ones).")
@write_options(write_help="Rewrite each input file in place with its VMs expanded, keeping comments and "
                          "formatting.")
@junit_option
@repo_catalog_option
@jobs_option
def render(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, output: str, vmi: bool,
           pod: bool, launcher_image: str | None, explain: bool, stored: bool, pin: bool, pin_firmware: bool,
           writing: WriteOptions,
           junit_xml: str | None, repo_catalog: bool = False, jobs: int = 1) -> None:
    """Expand VirtualMachines that reference instancetypes and preferences.

    Every input document is printed in order; each VirtualMachine is replaced by its expansion (with
    --vmi: by its VirtualMachineInstance); each VirtualMachinePool by the pool with its VM template
    expanded (with --vmi: the VMI of its first VM, <pool>-0); other documents pass through unchanged. Instancetypes,
    preferences, ControllerRevisions and storage objects found among the inputs are used for
    resolution, as are those of --catalog and the built-in common-instancetypes catalog. PATH
    arguments are more -f inputs (as pre-commit passes them).

    With --write, --output-dir, --check or --diff nothing is printed: the files are rewritten (or
    written under DIR) with their VMs expanded and everything else kept byte for byte; metadata.namespace
    is not added. --check and --diff alone compare against the input files themselves. With
    --follow-symlinks, --write also rewrites the files that links in the -f directories lead to.

    \b
    Examples:
      kubectl instancetype render -f vm.yaml
      kubectl instancetype render -f vms/ -R --catalog instancetypes/ -o json
      kubectl get vm myvm -o yaml | kubectl instancetype render -f -
      kubectl instancetype render -f vm.yaml --vmi --kubevirt-config kubevirt.yaml
      kubectl instancetype render -f vm.yaml --explain
      kubectl instancetype render -f vms/ -R --catalog catalog/ --write
      kubectl instancetype render -f vms/ -R --output-dir rendered/ --check
      kubectl instancetype render -f vm.yaml --stored
      kubectl instancetype render -f vms/ -R --write --pin --pin-firmware
    """
    _check_modes(vmi or pod, stored, pin, pin_firmware, explain, writing.active, output)
    if vmi and pod:
        raise click.UsageError("--vmi and --pod exclude each other")
    if pod and output == "patch":
        raise click.UsageError("--pod prints the launcher Pods as yaml or json: a patch turns a VM into a VM")
    # --write never puts a processed VM into a template file: templates are kept as they are
    inputs = replace(inputs, filenames=inputs.filenames + paths, outside=outside_of(writing.output_dir),
                     templates="keep" if writing.active else "process")
    pairs = _targets(inputs, writing, output, vmi or pod)
    if explain and (pairs is not None or output == "patch"):
        raise click.UsageError("--explain prints yaml or json: drop --write/--output-dir/--check/--diff and -o patch")
    if repo_catalog:
        catalogs = with_tracked_kubevirt_cr(inputs, with_repo_catalog(inputs, catalogs, True), True)
    loaded = load(inputs, catalogs, jobs)
    pools = "stored" if stored else "written" if pin else "expanded"
    options = Options(namespace=inputs.namespace, config=loaded.config, explain=explain, pools=pools)
    seen = Seen(list(loaded.problems), inputs.namespace)
    renderer = vm_renderer(vmi, stored, pin, pin_firmware)
    if pod:
        from .launcher import launcher_renderer

        renderer = launcher_renderer(loaded, launcher_image)
        jobs = 1  # the Pods alone are printed (only_pods): one process
    # Everything streams: each VM is rendered, used and dropped, so memory stays flat.
    single, present = len(loaded.documents) == 1, {doc.source for doc in loaded.documents}
    documents, catalog, notices, read = deque(loaded.documents), loaded.catalog, loaded.notices, set(loaded.files)
    provenance = loaded.provenance
    processes = how_many(jobs, len(documents)) if output != "patch" else 1
    items = seen.watch(render_each(_draining(documents), catalog, options, renderer))
    if pod:
        from .launcher import is_vm_document, only_pods

        single = sum(1 for doc in documents if is_vm_document(doc.data)) == 1
        items = only_pods(items, single)
    del loaded
    changed, notes, outdated = False, list[str](), list[ToolError]()
    if processes > 1 and pairs is not None:
        from .jobs import write_parallel
        from .write import apply

        wanted = [pair for pair in pairs if pair[0].display in read]  # not those --exclude left out
        planned: dict[str, Any] = {}
        items = seen.watch(write_parallel(list(documents), catalog, options, renderer, inputs.namespace,
                                          seen.problems, writing.check and not writing.diff
                                          and writing.output_dir is None, processes, planned))
        status, notes = apply(wanted, items, present, writing, seen.problems, planned, outdated)
        changed = status != EXIT_OK
    elif processes > 1:
        from .jobs import render_parallel
        from .output import item_text, print_texts

        done = render_parallel(list(documents), catalog, options, renderer, inputs.namespace,
                               item_text(output, single, explain), processes)
        print_texts((seen.record(one) for one in done), output, single)
    elif output == "patch":
        from .patches import print_patches

        seen.problems.extend(print_patches(list(items), inputs.namespace))
    elif pairs is None:
        print_stream(items, output, single, explain=explain)
    else:
        from .write import apply

        wanted = [pair for pair in pairs if pair[0].display in read]  # not those --exclude left out
        status, notes = apply(wanted, items, present, writing, seen.problems, outdated=outdated)
        changed = status != EXIT_OK
    finish(seen.result(notices, changed, tuple(outdated)), junit=junit_xml, suite="kubectl-instancetype render",
           notes=notes, provenance=provenance)


@dataclass
class Seen:
    """The problems of a render and the VMs it rendered, gathered as the items stream past."""

    problems: list[ToolError]
    namespace: str
    checked: list[Checked] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)

    def watch(self, items: Iterator[Item]) -> Iterator[Item]:
        for item in items:
            self.warnings.extend(item.warnings)
            if item.problem is not None:
                self.problems.append(item.problem)
            if item.is_vm:
                label = vm_label(item.document.data, self.namespace)
                self.checked.append(Checked(label, item.document.source, item.problem))
            yield item

    def record(self, done: Done) -> str | None:
        """What ``--jobs`` sends back for one document, seen as :meth:`watch` sees an item; its text."""
        self.warnings.extend(done.warnings)
        if done.problem is not None:
            self.problems.append(done.problem)
        if done.label is not None:
            self.checked.append(Checked(done.label, done.source, done.problem))
        return done.text

    def result(self, notices: tuple[Notice, ...], changed: bool, outdated: tuple[ToolError, ...] = ()) -> RunResult:
        return RunResult(tuple(self.problems), (*notices, *self.warnings), changed, checked=tuple(self.checked),
                         outdated=outdated)


def vm_renderer(vmi: bool, stored: bool = False, pin: bool = False, pin_firmware: bool = False) -> VMRenderer | None:
    """The VMI, stored or pinned renderer (imported only then), else the default VM renderer."""
    if pin:
        from ..gitops.pin import pinned_renderer

        renderer: VMRenderer = pinned_renderer(pin_firmware)
        return renderer
    if stored:
        from ..pipeline.stages import render_stored

        return render_stored
    if not vmi:
        return None
    from ..pipeline.stages import render_vmi

    return render_vmi


def _check_modes(vmi: bool, stored: bool, pin: bool, pin_firmware: bool, explain: bool, writing: bool,
                 output: str = "yaml") -> None:
    """UsageError for render modes that exclude each other."""
    if pin_firmware and not pin:
        raise click.UsageError("--pin-firmware adds to --pin: give --pin too")
    chosen = [flag for flag, on in (("--vmi", vmi), ("--stored", stored), ("--pin", pin)) if on]
    if len(chosen) > 1:
        raise click.UsageError(f"{' and '.join(chosen)} exclude each other")
    if stored and (writing or output == "patch"):  # a patch applied by kustomize writes it into the manifests
        raise click.UsageError("--stored prints what the cluster stores (with values it assigns): it cannot be "
                               f"{'a patch' if output == 'patch' else 'written into files'}; use --pin")
    if explain and pin:
        raise click.UsageError("--explain explains an expansion: drop --pin")


def _draining(documents: deque[Document]) -> Iterator[Document]:
    """The documents in order, each released as soon as it is handed out."""
    while documents:
        yield documents.popleft()


def _targets(inputs: InputOptions, writing: WriteOptions, output: str, vmi: bool) -> Any:
    """The (source, target) pairs to write, None when printing; UsageError for contradictory options."""
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    if not writing.active:
        return None
    if writing.write and writing.output_dir is not None:
        raise click.UsageError("--write and --output-dir exclude each other")
    if vmi or output != "yaml":
        raise click.UsageError("--write, --output-dir, --check and --diff write VMs as YAML files: drop -o/--vmi")
    from .write import targets

    return targets(inputs.filenames, inputs.recursive, writing.output_dir, inputs.follow_symlinks)


