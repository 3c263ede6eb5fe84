"""KRM functions: a ``ResourceList`` (or a plain stream of objects) in, the same shape out, VMs expanded.

This is the contract of kustomize and kpt exec functions (``config.kubernetes.io/v1`` ``ResourceList``:
``items``, ``functionConfig``, ``results``), of kustomize's older exec plugins and of a Helm
post-renderer (a plain stream). Every item comes back in its place: a VirtualMachine replaced by its
expansion (or its VMI), everything else unchanged. Problems become ``results`` with a severity, a
resource reference and a field path. A function must not decide where objects land, so an item that
had no ``metadata.namespace`` gets none: kustomize, kpt, Helm or Argo CD set it later.
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalog
from .config import ARCHITECTURES, ClusterConfig
from .errors import InputError, KubeVirtError, Location, Notice, ToolError
from .inputs import Inputs
from .inputs.lists import flatten
from .records import dataclass, field
from .render import Options, VMRenderer, error_path, render_each
from .validation import MODE_ALIASES
from .yamlio import Document

RESOURCE_LIST_KIND = "ResourceList"
RESOURCE_LIST_API_VERSIONS = ("config.kubernetes.io/v1", "config.kubernetes.io/v1beta1")
CONFIG_API_VERSION = "kubectl-instancetype/v1alpha1"
CONFIG_KIND = "Render"

# Annotations kustomize and kpt use to track an item back to its file; a VMI that replaces a VM keeps them.
_TRACKING_PREFIXES = ("config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/",
                      "kustomize.config.k8s.io/")


@dataclass(frozen=True)
class Settings:
    """What the ``functionConfig`` asks for; the same keys as the ``render`` options."""

    catalogs: tuple[str, ...] = ()
    builtin_catalog: bool = True
    vmi: bool = False
    namespace: str = "default"
    kubevirt_config: str | None = None
    arch: str | None = None
    accept_removed_versions: bool = False
    validate: str = "strict"
    kubevirt_version: str | None = None  # the KubeVirt release (--kubevirt-version)


@dataclass(frozen=True)
class Envelope:
    """The input: its items, the function configuration, and the ResourceList (None for a plain stream)."""

    items: list[Document]
    function_config: Any = None
    resource_list: dict[str, Any] | None = None


@dataclass(frozen=True)
class Finding:
    """One problem, tied to the item it is about (None: the whole input) and a field path in that item."""

    error: ToolError
    item: int | None = None
    path: tuple[str | int, ...] = ()


@dataclass
class Outcome:
    """Output items in input order, every finding, and the warnings of loading the catalog."""

    items: list[Any] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notices: tuple[Notice, ...] = ()


def is_resource_list(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("kind") == RESOURCE_LIST_KIND
            and data.get("apiVersion") in RESOURCE_LIST_API_VERSIONS)


def open_input(docs: list[Document]) -> Envelope:
    """The items of a single ResourceList document, or else of the stream itself (``kind: List`` flattened)."""
    if len(docs) != 1 or not is_resource_list(docs[0].data):
        extra = next((doc for doc in docs if is_resource_list(doc.data)), None)
        if extra is not None:
            raise InputError("a ResourceList must be the only document of its input", extra.location)
        return Envelope(list(flatten(docs)))
    rl, where = docs[0].data, docs[0]
    items = [] if rl.get("items") is None else rl["items"]
    if not isinstance(items, list):
        raise InputError("ResourceList items must be a list", where.locate(("items",)))
    found = [_item(where, item, i) for i, item in enumerate(items)]
    return Envelope(found, rl.get("functionConfig"), rl)


def _item(rl: Document, item: Any, i: int) -> Document:
    """Item ``i`` of the ResourceList ``rl``, located where it starts in the input."""
    start = rl.locate(("items", i))
    return Document(item, rl.source, i, start.line, start.col)


def settings_from(config: Any, where: Location) -> Settings:
    """The settings of a ``ConfigMap`` (string values, ``catalogs`` comma-separated: what ``kpt fn eval
    -- key=value`` builds) or of a ``kubectl-instancetype/v1alpha1`` ``Render`` (its ``spec``)."""
    if config is None or config == {}:
        return Settings()
    kind = config.get("kind") if isinstance(config, dict) else None
    if kind == "ConfigMap":
        values, strings = config.get("data") or {}, True
    elif kind == CONFIG_KIND and config.get("apiVersion") == CONFIG_API_VERSION:
        values, strings = config.get("spec") or {}, False
    else:
        raise InputError(f"functionConfig must be a ConfigMap or a {CONFIG_API_VERSION} {CONFIG_KIND}", where)
    if not isinstance(values, dict):
        raise InputError(f"functionConfig {'data' if strings else 'spec'} must be a mapping", where)
    return Settings(**{_FIELDS[key]: _value(key, value, strings, where) for key, value in values.items()
                       if _known(key, where)})


_FIELDS = {"catalogs": "catalogs", "builtinCatalog": "builtin_catalog", "vmi": "vmi", "namespace": "namespace",
           "kubevirtConfig": "kubevirt_config", "arch": "arch", "acceptRemovedVersions": "accept_removed_versions",
           "validate": "validate", "kubevirtVersion": "kubevirt_version"}


def _known(key: str, where: Location) -> bool:
    if key not in _FIELDS:
        raise InputError(f"functionConfig: unknown setting {key!r} (known: {', '.join(_FIELDS)})", where)
    return True


def _value(key: str, value: Any, strings: bool, where: Location) -> Any:
    if key == "catalogs":
        if strings and isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise InputError("functionConfig: catalogs must be a list of paths", where)
    if key in ("builtinCatalog", "vmi", "acceptRemovedVersions"):
        if strings and value in ("true", "false"):
            return value == "true"
        if isinstance(value, bool):
            return value
        raise InputError(f"functionConfig: {key} must be true or false", where)
    if not isinstance(value, str) or not value:
        raise InputError(f"functionConfig: {key} must be a non-empty string", where)
    if key == "arch" and value not in ARCHITECTURES:
        raise InputError(f"functionConfig: arch must be one of {', '.join(ARCHITECTURES)}", where)
    if key == "kubevirtVersion":
        from .api.releases import UnknownRelease, lookup

        try:
            found = lookup(value, "functionConfig kubevirtVersion")
        except UnknownRelease as exc:
            raise InputError(exc.message, where) from None
        # a patch or build the tool does not know is kept as given: loading warns, naming the release used
        return value if found.warning else found.release.name
    if key == "validate":
        if value.lower() not in MODE_ALIASES:
            raise InputError(f"functionConfig: validate must be one of {', '.join(MODE_ALIASES)}", where)
        return MODE_ALIASES[value.lower()]
    return value


def _place(doc: Document) -> tuple[str, int, tuple[str | int, ...]]:
    return doc.source, doc.index, doc.prefix


def transform(envelope: Envelope, inputs: Inputs, settings: Settings) -> Outcome:
    """Every item rendered in place, from ``inputs`` gathered with the items as its ``given`` documents.

    Catalog objects are loaded as ``render`` loads them (conversion, KubeVirt's object webhooks); a
    problem with one of them is reported against its item.
    """
    outcome = Outcome([doc.data for doc in envelope.items], notices=inputs.notices)
    # By place, not identity: validation hands on an item pruned as the API server keeps it as a new document.
    position = {_place(doc): i for i, doc in enumerate(envelope.items)}
    outcome.findings.extend(Finding(p, position.get(_place(d)) if d is not None else None)
                            for p, d in zip(inputs.problems, inputs.blamed, strict=True))
    good = [doc for doc in inputs.documents if _place(doc) in position]
    _render_into(outcome, good, [position[_place(doc)] for doc in good], inputs.catalog, inputs.config, settings)
    return outcome


def _render_into(outcome: Outcome, docs: list[Document], indexes: list[int], catalog: Catalog,
                 config: ClusterConfig, settings: Settings) -> None:
    options = Options(namespace=settings.namespace, config=config)
    renderer: VMRenderer | None = None
    if settings.vmi:
        from .pipeline.stages import render_vmi

        renderer = render_vmi
    for i, item in zip(indexes, render_each(docs, catalog, options, renderer), strict=True):
        if item.problem is not None:
            path = error_path(item.problem) if isinstance(item.problem, KubeVirtError) else ()
            outcome.findings.append(Finding(item.problem, i, path))
        elif item.is_vm:
            outcome.items[i] = _keep_placement(item.document.data, item.rendered)


def _keep_placement(original: dict[str, Any], rendered: dict[str, Any]) -> dict[str, Any]:
    """``rendered`` without a namespace the original did not have, with the original's tracking annotations."""
    before = original.get("metadata") or {}
    meta = rendered.setdefault("metadata", {})
    if not before.get("namespace"):
        meta.pop("namespace", None)
    tracking = {k: v for k, v in (before.get("annotations") or {}).items() if k.startswith(_TRACKING_PREFIXES)}
    if tracking:
        meta["annotations"] = {**tracking, **(meta.get("annotations") or {})}
    return rendered
