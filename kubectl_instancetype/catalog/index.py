"""The objects a render can look up, indexed the way a cluster's API server would find them.

A :class:`Catalog` holds instancetypes and preferences of both scopes, ControllerRevisions and the
storage objects that ``inferFromVolume`` reads (PersistentVolumeClaims, DataVolumes, DataSources,
VolumeSnapshots). Objects come from ``--catalog`` sources and from the ``-f`` inputs; the built-in common
catalog answers for cluster-scoped instancetypes and preferences that no source defines, as the objects
virt-operator deploys on a cluster would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..api.names import (
    CATALOG_KINDS,
    CLUSTER_INSTANCETYPE,
    CLUSTER_KINDS,
    CLUSTER_PREFERENCE,
    INDEXED_KINDS,
    INSTANCETYPE,
    PREFERENCE,
)
from ..errors import InputError
from ..records import dataclass, field
from ..yamlio import Document

__all__ = [
    "BUILTIN_SOURCE",
    "CATALOG_KINDS",
    "CLUSTER_INSTANCETYPE",
    "CLUSTER_KINDS",
    "CLUSTER_PREFERENCE",
    "INDEXED_KINDS",
    "INSTANCETYPE",
    "PREFERENCE",
    "Catalog",
    "Entry",
]

BUILTIN_SOURCE = "built-in"


@dataclass(frozen=True)
class Entry:
    """One object and where it was defined (a document, or the built-in catalog)."""

    obj: dict[str, Any]
    document: Document | None = None

    @property
    def source(self) -> str:
        return str(self.document.location) if self.document else BUILTIN_SOURCE


Key = tuple[str, str, str]  # (kind, namespace or "", name)


@dataclass
class Catalog:
    """An index of objects by kind, namespace and name, with the built-in catalog as a fallback."""

    default_namespace: str = "default"
    builtin: Callable[[str, str], dict[str, Any] | None] | None = None
    builtin_names: Callable[[str], Iterable[str]] | None = None
    entries: dict[Key, Entry] = field(default_factory=dict)
    _builtin_cache: dict[tuple[str, str], Entry | None] = field(default_factory=dict, repr=False)

    def key(self, obj: dict[str, Any]) -> Key:
        kind = obj["kind"]
        meta = obj.get("metadata") or {}
        namespaced = kind not in CLUSTER_KINDS
        namespace = (meta.get("namespace") or self.default_namespace) if namespaced else ""
        return (kind, namespace, meta.get("name") or "")

    def add(self, obj: dict[str, Any], document: Document | None = None) -> None:
        """Index ``obj``; the same object twice is fine, two different ones are an error naming both."""
        key = self.key(obj)
        old = self.entries.get(key)
        if old is not None and old.obj != obj:
            where = document.location if document else None
            raise InputError(
                f"{key[0]} {_display(key)} is defined twice with different content (also at {old.source})",
                where,
            )
        if old is None:
            self.entries[key] = Entry(obj, document)

    def add_all(self, docs: Iterable[Document]) -> None:
        for doc in docs:
            if doc.data.get("kind") in INDEXED_KINDS:
                self.add(doc.data, doc)

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
        """The object of ``kind`` named ``name`` (``namespace`` is ignored for cluster kinds)."""
        entry = self.entry(kind, namespace, name)
        return entry.obj if entry else None

    def entry(self, kind: str, namespace: str, name: str) -> Entry | None:
        key = (kind, "" if kind in CLUSTER_KINDS else namespace, name)
        found = self.entries.get(key)
        if found is None and self.builtin is not None and kind in CLUSTER_KINDS:
            # Built-in objects are built once per catalog: expansion never changes what it looks up.
            if (kind, name) not in self._builtin_cache:
                obj = self.builtin(kind, name)
                self._builtin_cache[(kind, name)] = Entry(obj) if obj is not None else None
            found = self._builtin_cache[(kind, name)]
        return found


    def names(self, kind: str, namespace: str) -> list[str]:
        """Every name of ``kind`` a lookup in ``namespace`` can find, the built-in catalog's included."""
        scope = "" if kind in CLUSTER_KINDS else namespace
        found = {name for (k, ns, name) in self.entries if k == kind and ns == scope}
        if self.builtin is not None and self.builtin_names is not None and kind in CLUSTER_KINDS:
            found.update(self.builtin_names(kind))
        return sorted(found)


def _display(key: Key) -> str:
    return f"{key[1]}/{key[2]}" if key[1] else key[2]
