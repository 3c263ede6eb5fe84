"""Documents in, rendered documents out: every VirtualMachine replaced by its expansion (or its VMI).

A ``pool.kubevirt.io`` VirtualMachinePool is rendered as the VMs it creates: the pool with its VM template
expanded (or, for VMI output, the VMI of its first VM, ``<pool>-0``). Other documents pass through unchanged.
Problems are values: a VM KubeVirt would refuse becomes a located
:class:`~kubectl_instancetype.errors.KubeVirtError` and the other VMs still render. With ``Options.explain``
each rendered VM comes with the origin of every value its rendering set (a pool's, under its template).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from .api.encoding import encode_vm
from .api.golang import clone_json
from .api.names import VIRTUAL_MACHINE as VM_KIND
from .api.names import shown_name
from .api.origin import NAMESPACE, NO_TRACE, Origin, Origins, Path, Trace
from .catalog import Catalog
from .config import ClusterConfig
from .errors import InputError, KubeVirtError, Notice, ToolError
from .pipeline.restart_defaults import committed_defaults
from .pipeline.stages import render_vm
from .pipeline.vm_pool_admitter import STAGE as POOL_STAGE
from .pipeline.vm_pool_admitter import admit_pool
from .pipeline.vm_pool_controller import TEMPLATE, is_pool, pool_vm, stored_pool, template_of, with_template
from .records import dataclass, field
from .yamlio import Document


class VMRenderer(Protocol):
    """Renders one VM; records the origins of what it sets in ``book`` when given one."""

    def __call__(self, vm: dict[str, Any], namespace: str, catalog: Catalog, cfg: ClusterConfig,
                 book: Origins | None = None, warnings: list[str] | None = None) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Options:
    """How to render: the default namespace and the cluster configuration (VMI output is a ``VMRenderer``)."""

    namespace: str = "default"
    config: ClusterConfig = field(default_factory=ClusterConfig)
    explain: bool = False  # record where each value comes from (Item.origins)
    # What a VirtualMachinePool becomes: its template expanded ("expanded"), the pool as the cluster stores it
    # ("stored", render --stored) or as written ("written", --pin): no VM webhook mutates a pool's template
    pools: str = "expanded"


@dataclass(frozen=True)
class Item:
    """One output document and the input document it comes from (``rendered`` is None on failure);
    with ``Options.explain``, the origin of each value the rendering set, by path in ``rendered``."""

    document: Document
    rendered: Any
    is_vm: bool
    problem: ToolError | None = None
    origins: Mapping[Path, Origin] | None = None
    warnings: tuple[Notice, ...] = ()  # what KubeVirt's webhooks answer with what they admit


@dataclass
class Result:
    """Rendered items in input order, and every problem found."""

    items: list[Item] = field(default_factory=list)
    problems: list[ToolError] = field(default_factory=list)


def vm_label(vm: dict[str, Any], namespace: str) -> str:
    """``VirtualMachine ns/name`` (``VirtualMachinePool ns/name`` for a pool: it is no VM, it makes them)."""
    meta = vm.get("metadata") or {}
    kind = "VirtualMachinePool" if is_pool(vm) else "VirtualMachine"
    return f"{kind} {meta.get('namespace') or namespace}/{shown_name(meta)}"


def error_path(exc: KubeVirtError) -> tuple[str | int, ...]:
    """The field of the VM an error is about, as the stage that raised it recorded it (else ``spec``)."""
    return exc.field or ("spec",)


def default_vm_renderer(vm: dict[str, Any], namespace: str, catalog: Catalog, cfg: ClusterConfig,
                        book: Origins | None = None, warnings: list[str] | None = None) -> dict[str, Any]:
    rendered = render_vm(vm, namespace, catalog, cfg, book, warnings)
    if rendered is vm:
        rendered = clone_json(vm)
    trace = NO_TRACE if book is None else Trace(book)
    meta = rendered.setdefault("metadata", {})
    if "namespace" not in meta:
        meta["namespace"] = namespace
        trace.set(("metadata", "namespace"), NAMESPACE)
    encode_vm(rendered, trace)
    return rendered


def render_each(
    docs: Iterable[Document], catalog: Catalog, options: Options, vm_renderer: VMRenderer | None = None
) -> Iterator[Item]:
    """Render ``docs`` (flattened and checked) one by one, so a caller can stream the output."""
    renderer = vm_renderer or default_vm_renderer
    for doc in docs:
        if doc.data.get("kind") == VM_KIND:
            yield _render_vm(doc, renderer, catalog, options)
        elif is_pool(doc.data):
            yield _render_vm(doc, _pool_renderer(renderer, options.pools), catalog, options, "VirtualMachinePool",
                             TEMPLATE)
        else:
            yield Item(doc, doc.data, False)


def _pool_renderer(renderer: VMRenderer, pools: str = "expanded") -> VMRenderer:
    """``renderer`` applied to the VMs a pool creates: the pool with its template expanded, or (when
    ``renderer`` makes VMIs) the VMI of the pool's first VM; with ``pools`` "stored" or "written", the pool as
    the cluster stores it or as written once its VMs are known to be admitted (``Options.pools``)."""

    def render_pool(vm: dict[str, Any], namespace: str, catalog: Catalog, cfg: ClusterConfig,
                    book: Origins | None = None, warnings: list[str] | None = None) -> dict[str, Any]:
        # ``vm`` is the pool. The VM's origins are recorded by VM path: its spec's go under the template's.
        if not template_of(vm):
            raise InputError("spec.virtualMachineTemplate is required")
        admit_pool(vm, cfg, warnings)
        vm_book = None if book is None else Origins()
        rendered = renderer(pool_vm(vm, namespace, None), namespace, catalog, cfg, vm_book, warnings)
        if rendered.get("kind") != VM_KIND:  # a VMI: the one of VM <pool>-0, its names indexed
            return renderer(pool_vm(vm, namespace, 0), namespace, catalog, cfg, book)
        if pools == "stored":
            return stored_pool(vm, namespace, cfg.release.pool_controller_adds_finalizer, book)
        if pools == "written":  # a pin: what each VM gets (its firmware identity above all) is the VM's own
            return clone_json(vm)
        out = with_template(vm, rendered)
        meta = out.setdefault("metadata", {})
        if "namespace" not in meta:
            meta["namespace"] = namespace
            if book is not None:
                book.record(("metadata", "namespace"), NAMESPACE)
        if book is not None and vm_book is not None:
            for path, origin in vm_book.items():
                if path[:1] == ("spec",):  # only the VM's spec goes back into the pool
                    book.record((*TEMPLATE, *path), origin)
        return out

    return render_pool


def kubevirt_problem(exc: KubeVirtError, doc: Document, label: str, root: tuple[str, ...] = ()) -> ToolError:
    """KubeVirt's refusal of the VM of ``doc`` (at ``root`` in it) as the run reports it: ``label`` in front,
    located at its field, each of several causes at its own field, and a note at each matcher whose lookup
    failed (what was not found, and where it may be)."""
    causes = tuple((message, (*root, *keys) if keys else ()) for message, keys in exc.causes)
    located = KubeVirtError(f"{label}: {exc.message}{exc.hint}", exc.stage, exc.paths, exc.field, causes)
    located.lookups = tuple((message, (*root, *keys)) for message, keys in exc.lookups)
    notes = tuple(Notice(message, doc.locate(keys), "note") for message, keys in located.lookups)
    if doc.prefix:  # a template's VM: name the parameters the value at fault came from
        from .vmtemplate.origins import parameter_notes

        notes += parameter_notes(doc, (*root, *error_path(exc)))
    problem = located.with_location(doc.locate((*root, *error_path(exc)))).with_notes(notes)
    if len(causes) > 1 and problem.location is not None:
        where = problem.location
        problem.located_causes = tuple((f"{label}: {message}", doc.locate(keys) if keys else where)
                                       for message, keys in causes)
    return problem


def _render_vm(
    doc: Document, renderer: VMRenderer, catalog: Catalog, options: Options, kind: str = VM_KIND,
    root: tuple[str, ...] = (),
) -> Item:
    """One VM (or a ``kind`` object holding one at ``root``, a pool) rendered, or its located problem."""
    data = doc.data
    namespace = (data.get("metadata") or {}).get("namespace") or options.namespace
    label = f"{kind} {namespace}/{shown_name(data.get('metadata') or {})}"
    said: list[str] = []

    def warnings() -> tuple[Notice, ...]:
        said_here = tuple(Notice(f"{label}: {text}", doc.location) for text in dict.fromkeys(said))
        pinned = tuple(Notice(f"{label}: {text}", doc.locate((*root, *path)))
                       for path, text in committed_defaults(_vm_of(data, root), options.config))
        return said_here + pinned

    try:
        if not options.explain:
            return Item(doc, renderer(data, namespace, catalog, options.config, None, said), True,
                        warnings=warnings())
        book = Origins()
        rendered = renderer(data, namespace, catalog, options.config, book, said)
        book.keep_present(rendered)
        return Item(doc, rendered, True, origins=book.as_mapping(), warnings=warnings())
    except KubeVirtError as exc:
        if exc.stage == POOL_STAGE:  # the pool's own webhook names the pool's fields
            root = ()
        return Item(doc, None, True, kubevirt_problem(exc, doc, label, root), warnings=warnings())
    except InputError as exc:
        return Item(doc, None, True, InputError(f"{label}: {exc.message}", exc.location or doc.location))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # Input no check above anticipated: refuse this VM, never crash the run.
        message = f"{label}: cannot be processed ({type(exc).__name__}: {exc})"
        return Item(doc, None, True, InputError(message, doc.location))


def _vm_of(data: Any, root: tuple[str, ...]) -> Any:
    """The VM at ``root`` in ``data`` (a pool's template), or ``data``."""
    for key in root:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def render(
    docs: Iterable[Document], catalog: Catalog, options: Options, vm_renderer: VMRenderer | None = None
) -> Result:
    """Render every document of ``docs`` (already flattened and checked), keeping all items."""
    result = Result()
    for item in render_each(docs, catalog, options, vm_renderer):
        result.items.append(item)
        if item.problem is not None:
            result.problems.append(item.problem)
    return result
