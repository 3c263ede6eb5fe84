"""The library API: what the commands answer, for objects in memory (``from kubectl_instancetype import library``).

A platform that resizes VMs, an inventory that needs a VM's effective resources, a client that processes
templates: each can ask here instead of shelling out. Every function takes plain JSON-like objects (dicts as
``json.loads`` or a Kubernetes client's ``to_dict()`` gives them), never reads a file, the environment or
the network, never prints, and gives the answer the command line gives for the same objects:

* :func:`render` is ``render -f FILE -o json`` (``mode="vmi"``: ``--vmi``; ``mode="stored"``: ``--stored``),
  :func:`render_vm` the same for one VirtualMachine, raising KubeVirt's refusal;
* :func:`restart_impact` is ``diff --restart-impact --base BASE HEAD -o json``;
* :func:`process_template` is ``template process -f T -p K=V -o json``.

Results are frozen dataclasses; errors are the tool's own exceptions (:mod:`kubectl_instancetype.errors`):
:class:`~kubectl_instancetype.errors.KubeVirtError` for what KubeVirt or the API server refuses,
:class:`~kubectl_instancetype.errors.InputError` for what cannot be processed at all. The objects given are
never changed. See docs/library.md for the guide and the compatibility promise.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from .api.golang import clone_json
from .catalog.loading import Builtin
from .errors import InputError, Notice, ToolError
from .inputs import Inputs, Request, Source, Text, gather
from .pipeline.restart import VMIFacts
from .records import dataclass, field
from .render import Item, Options, VMRenderer, render_each
from .vmtemplate.source import TemplateError
from .yamlio import Document

__all__ = ["ProcessedTemplate", "Rendered", "Rendering", "RestartImpact", "Settings", "TemplateRefused",
           "process_template", "render", "render_vm", "restart_impact"]

#: What :func:`render` makes of each VirtualMachine. The launcher Pod (``render --pod``) joins this list when
#: the pipeline has its stage: a mode named after it, its renderer in :func:`_renderer`.
Mode = Literal["vm", "vmi", "stored"]

_CATALOG, _CONFIG = "<catalog>", "<kubevirt-config>"


@dataclass(frozen=True)
class Settings:
    """The cluster the objects meet: the options ``render`` and ``diff`` share, as values.

    ``catalog`` holds instancetypes, preferences, ControllerRevisions and storage objects that are only looked
    up (``--catalog``); ``kubevirt_config`` is a KubeVirt CR or its ``spec.configuration`` (``--kubevirt-config``).
    """

    namespace: str = "default"
    catalog: tuple[Mapping[str, Any], ...] = ()
    builtin_catalog: bool = True
    kubevirt_config: Mapping[str, Any] | None = None
    kubevirt_version: str | None = None
    arch: str | None = None
    validate: str = "strict"  # kubectl's --validate: strict, warn or ignore
    accept_removed_versions: bool = False


@dataclass(frozen=True)
class Rendered:
    """One object of the input (a ``kind: List`` counts by its items): what it became, or why it did not.

    ``output`` is the expanded VM (or VMI, or stored VM) for a VirtualMachine or VirtualMachinePool, the object
    itself for any other kind, None when KubeVirt refuses it (``error``). ``source`` names it: ``objects[i]``.
    """

    source: str
    output: dict[str, Any] | None
    is_vm: bool
    error: ToolError | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rendering:
    """Every object rendered, in input order, and every problem: objects the API server refuses (they are not
    in ``objects``), catalog problems, KubeVirt's refusals; with the notices (warnings) of the run."""

    objects: tuple[Rendered, ...]
    problems: tuple[ToolError, ...]
    warnings: tuple[str, ...] = ()

    @property
    def outputs(self) -> tuple[dict[str, Any], ...]:
        """The documents ``render -o json`` prints, in order (refused VMs left out)."""
        return tuple(o.output for o in self.objects if o.output is not None)

    def check(self) -> Rendering:
        """This rendering; raises its first problem when it has one."""
        if self.problems:
            raise self.problems[0]
        return self


@dataclass(frozen=True)
class RestartImpact:
    """What applying ``head`` does to each running VM of ``base``: one row per VM the change touches (see
    :class:`~kubectl_instancetype.gitops.restart_impact.VMImpact`), and the problems of reading either side
    (BASE's prefixed with ``base: ``)."""

    vms: tuple[Any, ...]  # gitops.restart_impact.VMImpact, in diff's order
    problems: tuple[ToolError, ...] = ()

    @property
    def outcome(self) -> str:
        """The worst outcome: ``error``, ``restart-required``, ``live-update`` or ``no-change``."""
        from .gitops.restart_impact import summary

        return summary(self.vms).worst

    def as_json(self, base: str = "base") -> dict[str, Any]:
        """The object ``diff --restart-impact -o json`` prints (``base``: the label of the base revision)."""
        from .gitops.restart_report import as_json

        loaded: dict[str, Any] = json.loads(as_json(list(self.vms), base))
        return loaded


@dataclass(frozen=True)
class ProcessedTemplate:
    """A VirtualMachineTemplate processed as ``virtctl template process`` does: the VM, the template's message,
    virtctl's warnings, every parameter's value and the names of the generated ones."""

    vm: dict[str, Any]
    message: str = ""
    warnings: tuple[str, ...] = ()
    values: Mapping[str, str] = field(default_factory=dict)
    generated: frozenset[str] = frozenset()


class TemplateRefused(TemplateError):
    """KubeVirt's template engine refuses the template; ``warnings`` are those virtctl printed first."""

    warnings: tuple[str, ...] = ()


def render(objects: Iterable[Mapping[str, Any]], settings: Settings | None = None, mode: Mode = "vm") -> Rendering:
    """Every object rendered as ``render`` renders the same objects read from a file (VirtualMachineTemplates
    processed with their parameters' defaults, instancetypes and preferences among them used for lookups)."""
    settings = settings or Settings()
    loaded = _gather(objects, settings, "objects")
    options = Options(namespace=settings.namespace, config=loaded.config,
                      pools="stored" if mode == "stored" else "expanded")
    items = list(render_each(loaded.documents, loaded.catalog, options, _renderer(mode)))
    out = tuple(_rendered(item) for item in items)
    problems = (*loaded.problems, *(item.problem for item in items if item.problem is not None))
    warnings = (*loaded.notices, *(w for item in items for w in item.warnings))
    return Rendering(out, problems, tuple(_said(n) for n in warnings))


def render_vm(vm: Mapping[str, Any], settings: Settings | None = None, mode: Mode = "vm") -> dict[str, Any]:
    """One VirtualMachine rendered; the first problem raised (KubeVirtError: KubeVirt refuses it)."""
    found = render((vm,), settings, mode).check()
    rendered = next((o.output for o in found.objects if o.is_vm and o.output is not None), None)
    if rendered is None:
        raise InputError("no VirtualMachine among the objects")
    return rendered


def restart_impact(base: Iterable[Mapping[str, Any]], head: Iterable[Mapping[str, Any]],
                   settings: Settings | None = None, migratable: bool = True, arch: str | None = None
                   ) -> RestartImpact:
    """What applying ``head`` over ``base`` (both as objects: VMs and what they reference) does to the running
    VMs, as ``diff --restart-impact`` decides it (``migratable``, ``arch``: ``--vmi-not-migratable``,
    ``--vmi-arch``)."""
    from .gitops.restart_impact import impacts
    from .gitops.vmdiff import compare

    settings = settings or Settings()
    before, after = _side(base, settings, "base"), _side(head, settings, "head")
    changes = compare(before[0], after[0], "base")
    touched = {(c.namespace, c.name): c.status != "unchanged" for c in changes}
    rows = impacts(before[1], after[1], settings.namespace, VMIFacts(migratable, arch or ""), touched)
    problems = tuple(_at_base(p) for p in before[2]) + after[2]
    return RestartImpact(tuple(rows), problems)


def process_template(template: Mapping[str, Any], parameters: Mapping[str, str] | None = None,
                     seed: int | None = None, kubevirt_version: str | None = None) -> ProcessedTemplate:
    """A VirtualMachineTemplate (or an OpenShift Template of one VM) processed with ``parameters``; generated
    values from the seeded stream of ``template process --seed`` when ``seed`` is given, else random.
    Raises :class:`TemplateRefused` as virtctl refuses, TemplateInputError when it cannot be decoded."""
    from .api.releases import DEFAULT, resolve
    from .vmtemplate.document import ConvertError, DecodeError, read_template
    from .vmtemplate.generator import Entropy
    from .vmtemplate.processor import ProcessError, process
    from .vmtemplate.source import OPENSHIFT_DECODE, TEMPLATE_DECODE, LoadedTemplate, TemplateInputError, located

    doc = Document(clone_json(dict(template)), "template", 0, 1, 1)
    try:
        decoded = read_template(doc.data, True)  # decoded as `template process` decodes a file
    except DecodeError as exc:
        prefix = OPENSHIFT_DECODE if doc.data.get("kind") == "Template" else TEMPLATE_DECODE
        raise TemplateInputError(prefix + str(exc), doc.locate(exc.path)) from None
    except ConvertError as exc:
        raise TemplateError(str(exc), stage="convert").with_location(doc.location) from None
    release = resolve(kubevirt_version or DEFAULT.name).name
    try:
        done = process(decoded, dict(parameters or {}), Entropy(seed), release)
    except ProcessError as exc:
        refused = located(exc, LoadedTemplate(doc, decoded))
        error = TemplateRefused(refused.message, stage=exc.stage, field=exc.path)
        error.location, error.notes, error.warnings = refused.location, refused.notes, exc.warnings
        raise error from None
    return ProcessedTemplate(done.vm, done.message, done.warnings, dict(done.values), done.generated)


def _renderer(mode: Mode) -> VMRenderer | None:
    if mode == "vmi":
        from .pipeline.stages import render_vmi

        return render_vmi
    if mode == "stored":
        from .pipeline.stages import render_stored

        return render_stored
    return None  # the expanded VM


def _rendered(item: Item) -> Rendered:
    output = item.rendered if isinstance(item.rendered, dict) else None
    return Rendered(item.document.source, output, item.is_vm, item.problem, tuple(_said(w) for w in item.warnings))


def _said(notice: Notice) -> str:
    return notice.message


@dataclass(frozen=True)
class _Memory:
    """The reader the inputs layer is handed: the settings' catalog and configuration, as JSON texts by name."""

    texts: Mapping[str, str]

    def sources(self, paths: tuple[str, ...], recursive: bool, follow_symlinks: bool) -> Iterator[Source]:
        return (Source(path, path, path) for path in paths if path in self.texts)

    def read(self, source: Source, max_bytes: int) -> Text:
        if source.path not in self.texts:
            raise InputError("not among the objects given", None)
        return Text(self.texts[source.path])


def _gather(objects: Iterable[Mapping[str, Any]], settings: Settings, name: str, seed: str | None = None
            ) -> Inputs:
    """The inputs of ``objects`` (each a document named ``name[i]``) as a command gathers those of its files."""
    given = [Document(clone_json(dict(obj)), f"{name}[{i}]", 0, 1, 1) for i, obj in enumerate(objects)]
    texts: dict[str, str] = {}
    if settings.catalog:
        items = [clone_json(dict(obj)) for obj in settings.catalog]
        texts[_CATALOG] = json.dumps({"apiVersion": "v1", "kind": "List", "items": items})
    if settings.kubevirt_config is not None:
        texts[_CONFIG] = json.dumps(clone_json(dict(settings.kubevirt_config)))
    request = Request(namespace=settings.namespace, catalogs=(_CATALOG,) if settings.catalog else (),
                      builtin=settings.builtin_catalog,
                      kubevirt_config=_CONFIG if settings.kubevirt_config is not None else None,
                      arch=settings.arch, accept_removed=settings.accept_removed_versions, validate=settings.validate,
                      kubevirt_version=settings.kubevirt_version, seed=seed)
    builtin = Builtin(_no_release, per_release=True) if settings.builtin_catalog else None
    return gather(request, _Memory(texts), given, builtin)


def _no_release(kind: str, name: str) -> None:
    raise AssertionError("the built-in catalog is looked up before the cluster's release is known")


def _side(objects: Iterable[Mapping[str, Any]], settings: Settings, name: str) -> tuple[Any, Any,
                                                                                          tuple[ToolError, ...]]:
    """One revision as ``diff`` reads it: its VMs' states by key, the restart stage's revision, its problems."""
    from .gitops.drift import differences
    from .gitops.restart_impact import Revision
    from .gitops.vmdiff import vm_states
    from .pipeline.stages import render_stored
    from .render import render as render_documents

    # generated template values from one stream per parameter, as diff draws them: the same on both sides
    loaded = _gather(objects, settings, name, seed="diff")
    options = Options(settings.namespace, loaded.config)
    result = render_documents(loaded.documents, loaded.catalog, Options(settings.namespace, loaded.config,
                                                                        explain=True))
    stored: dict[tuple[str, str], Any] = {}
    written: dict[tuple[str, str], tuple[str, ...]] = {}
    for item in render_each(loaded.documents, loaded.catalog, options, render_stored):
        if item.is_vm and item.rendered is not None and item.document.data.get("kind") == "VirtualMachine":
            meta = item.document.data.get("metadata") or {}
            key = (str(meta.get("namespace") or settings.namespace), str(meta.get("name")))
            written[key] = tuple(d.pointer for d in differences(item.document.data, item.rendered))
            stored[key] = item.rendered
    states = vm_states(result.items, result.problems, settings.namespace, written)
    revision = Revision(tuple(loaded.documents), loaded.catalog, loaded.config, stored,
                        {key: not state.error for key, state in states.items()})
    return states, revision, (*loaded.problems, *result.problems)


def _at_base(problem: ToolError) -> ToolError:
    """A problem of the base revision, its message prefixed with ``base: ``."""
    clone = type(problem).__new__(type(problem))
    clone.__dict__.update(problem.__dict__)
    clone.args = (f"base: {problem.message}",)
    clone.message = f"base: {problem.message}"
    return clone

