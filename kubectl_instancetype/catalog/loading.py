"""Turning checked documents into a :class:`Catalog`, with every problem and warning of every object.

Each instancetype and preference is checked against the served version (:mod:`.versions`), put through
KubeVirt's object webhook (:mod:`.admission`) and indexed; ControllerRevisions are checked for payloads KubeVirt
can no longer decode; an object that overrides a different built-in one earns a warning naming both sources.
With ``accept_removed``, objects and revisions in removed versions are converted (:mod:`.conversion`) first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..api.names import CONTROLLER_REVISION as REVISION
from ..api.releases import DEFAULT, Release
from ..api.versions import REMOVED_IN, removed_hint
from ..errors import InputError, KubeVirtError, ToolError
from ..records import dataclass, field
from ..yamlio import Document
from .admission import admit
from .conversion import holds_removed_object, served_object, upgraded_revision
from .index import BUILTIN_SOURCE, CATALOG_KINDS, CLUSTER_KINDS, INDEXED_KINDS, Catalog
from .versions import check_version

BuiltinFind = Callable[[str, str], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Builtin:
    """A built-in catalog as the catalog uses it: its lookup, the names it serves ("did you mean") and its
    version (named in warnings)."""

    find: BuiltinFind
    names: Callable[[str], Iterable[str]] | None = None
    version: str = ""
    per_release: bool = False  # the catalog stands for "whatever the cluster's release deploys"

    def at(self, release: Release) -> Builtin:
        """The catalog ``release`` deploys, for a built-in catalog that follows the release; else this one."""
        return builtin_of(release) if self.per_release else self


def builtin_of(release: Release) -> Builtin:
    """The built-in catalog of ``release``: the common-instancetypes bundle its virt-operator deploys."""
    from .builtin import bundle
    from .builtin.bundles import catalog_version

    deployed = bundle(catalog_version(release))
    return Builtin(deployed.find, deployed.names, deployed.version)


@dataclass
class Loaded:
    """A catalog and what loading it found: problems (exit 3 or 1) and warnings."""

    catalog: Catalog
    problems: list[ToolError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    blamed: list[Document] = field(default_factory=list)  # the document of each problem, in step

    def fail(self, problem: ToolError, doc: Document) -> None:
        self.problems.append(problem)
        self.blamed.append(doc)


def load_catalog(docs: Iterable[Document], namespace: str, builtin: Builtin | None,
                 accept_removed: bool = False, release: Release = DEFAULT) -> Loaded:
    """Index every catalog and support object of ``docs`` (checked documents, earlier ones first), admitted
    as ``release``'s webhook admits them; ``accept_removed``: take v1alpha1/v1alpha2 objects as a cluster
    older than KubeVirt v1.7 did."""
    find, names = (builtin.find, builtin.names) if builtin is not None else (None, None)
    loaded = Loaded(Catalog(default_namespace=namespace, builtin=find, builtin_names=names))
    for doc in docs:
        kind = doc.data.get("kind")
        if not isinstance(kind, str) or kind not in INDEXED_KINDS:  # the KRM function passes unchecked items
            continue
        try:
            _load(doc, loaded, accept_removed, release)
        except ToolError as exc:
            loaded.fail(exc, doc)
    if builtin is not None:
        loaded.warnings.extend(shadow_warnings(loaded.catalog, builtin.find, builtin.version))
    return loaded


def _load(doc: Document, loaded: Loaded, accept_removed: bool, release: Release) -> None:
    obj = doc.data
    if obj["kind"] in CATALOG_KINDS:
        warning = check_version(doc, accept_removed)
        if warning:
            loaded.warnings.append(warning)
            obj = served_object(obj)
        if not _admitted(obj, doc, loaded, release):
            return
    elif obj["kind"] == REVISION:
        if accept_removed and holds_removed_object(obj):
            obj = upgraded_revision(obj)  # as virt-controller decoded it until v1.6
        else:
            loaded.warnings.extend(revision_warnings(doc))
    loaded.catalog.add(obj, doc)


def _admitted(obj: dict[str, Any], doc: Document, loaded: Loaded, release: Release) -> bool:
    try:
        verdict = admit(obj, release)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{obj['kind']} {obj['metadata']['name']}: malformed spec ({exc})", doc.location) from None
    label = f"{obj['kind']} {obj['metadata']['name']}"
    for cause in verdict.causes:
        error = KubeVirtError(f"{label}: KubeVirt would refuse this object: {cause.message}", "admit", (cause.field,))
        loaded.fail(error.with_location(doc.locate(cause.path)), doc)
    loaded.warnings.extend(f"{doc.location}: {label}: {text}" for text in verdict.warnings)
    return not verdict.causes


def revision_warnings(doc: Document) -> list[str]:
    """Why KubeVirt could not use a ControllerRevision, said where it is defined (the render error is
    KubeVirt's own and points at the VM)."""
    label = f"{doc.location}: ControllerRevision {doc.data['metadata']['name']}"
    data = doc.data.get("data")
    if data is None:
        return [f"{label} has no data; KubeVirt fails to decode it"]
    if not isinstance(data, dict):
        return [f"{label}: data is not an object as `kubectl get controllerrevisions -o yaml` prints it; "
                "KubeVirt fails to decode it"]
    if holds_removed_object(doc.data):
        return [f"{label} holds an object of {data['apiVersion']}, which KubeVirt {REMOVED_IN} and later cannot decode "
                f"({removed_hint(data['apiVersion'])})"]
    return []


def shadow_warnings(catalog: Catalog, builtin: BuiltinFind, version: str) -> list[str]:
    """One warning per cluster-scoped object that replaces a built-in one with a different spec."""
    out: list[str] = []
    for (kind, _ns, name), entry in sorted(catalog.entries.items()):
        if kind not in CLUSTER_KINDS:
            continue
        original = builtin(kind, name)
        if original is not None and original.get("spec") != entry.obj.get("spec"):
            where = f"{BUILTIN_SOURCE} common-instancetypes {version}".rstrip()
            out.append(f"{entry.source}: {kind} {name} shadows the one of the {where} catalog")
    return out
