"""The built-in common-instancetypes catalog, so VMs naming ``u1.medium`` or ``fedora`` render with no set-up.

The module functions serve our ``main`` catalog (common-instancetypes after v1.6.0); :func:`bundle` serves the
catalog of any version the package ships (:data:`VERSIONS`), and :data:`BUNDLE_OF_RELEASE` says which one each
KubeVirt release deploys (:mod:`.bundles`).

A cluster running KubeVirt's common catalog serves every instancetype and preference in both scopes (cluster
and namespaced kinds); so does this module. The objects are generated from our own compact table of facts
(:mod:`.series` for instancetypes, :mod:`.guests` and :mod:`.traits` for preferences) rather than shipped as
a bundle, and are built lazily: looking up one object builds only that one, once per process.

Every function returns fresh objects the caller may change freely.
"""

from __future__ import annotations

from typing import Any

from ...api.names import (
    CLUSTER_INSTANCETYPE,
    CLUSTER_PREFERENCE,
    INSTANCETYPE,
    INSTANCETYPE_KINDS,
    PREFERENCE,
    PREFERENCE_KINDS,
)
from ...api.names import INSTANCETYPE_API_VERSION as API_VERSION
from . import preferences, series
from .tree import copy_tree

#: Every kind the catalog answers for: it ships each object in both scopes, differing only in its kind.
KINDS = (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE)

__all__ = [
    "BUNDLE_OF_RELEASE",
    "CLUSTER_INSTANCETYPE",
    "CLUSTER_PREFERENCE",
    "COMMIT",
    "INSTANCETYPE",
    "KINDS",
    "PREFERENCE",
    "VERSION",
    "VERSIONS",
    "Bundle",
    "bundle",
    "find",
    "names",
    "objects",
]

#: The kubevirt/common-instancetypes revision the table describes (``git describe``), and its commit.
VERSION = "v1.6.0-90-g7c1e305b"
COMMIT = "7c1e305b6d5ac7d80c45d993028dc22d257877c9"

from .bundles import BUNDLE_OF_RELEASE, Bundle, bundle, version_key  # noqa: E402 (bundles reads VERSION)

#: Every bundle version the package ships, oldest first: each release's, and our ``main`` catalog's.
VERSIONS: tuple[str, ...] = tuple(sorted({*BUNDLE_OF_RELEASE.values(), VERSION}, key=version_key))

# metadata + spec of each object built so far, by (is an instancetype, name); shared by both scopes.
_built: dict[tuple[bool, str], dict[str, Any]] = {}


def find(kind: str, name: str) -> dict[str, Any] | None:
    """The object of exactly this ``kind`` (one of :data:`KINDS`) and ``name``, or None if there is none."""
    body = _body(kind, name)
    if body is None:
        return None
    return {"apiVersion": API_VERSION, "kind": kind, **copy_tree(body)}


def names(kind: str) -> list[str]:
    """Every name of ``kind`` in the catalog, sorted; empty for a kind the catalog does not serve."""
    if kind in INSTANCETYPE_KINDS:
        return list(series.index())
    if kind in PREFERENCE_KINDS:
        return list(preferences.index())
    return []


def objects() -> list[dict[str, Any]]:
    """Every object of the catalog: cluster instancetypes, cluster preferences, then the namespaced copies
    (without a namespace), each kind sorted by name as in the published bundles."""
    return [obj for kind in KINDS for name in names(kind) if (obj := find(kind, name)) is not None]


def _body(kind: str, name: str) -> dict[str, Any] | None:
    """The cached metadata and spec of one object, built on first use; never hand it out uncopied."""
    is_instancetype = kind in INSTANCETYPE_KINDS
    if not is_instancetype and kind not in PREFERENCE_KINDS:
        return None
    body = _built.get((is_instancetype, name))
    if body is None:
        body = _build(is_instancetype, name)
        if body is not None:
            _built[(is_instancetype, name)] = body
    return body


def _build(is_instancetype: bool, name: str) -> dict[str, Any] | None:
    if is_instancetype:
        instancetype = series.index().get(name)
        return None if instancetype is None else series.instancetype(instancetype)
    preference = preferences.index().get(name)
    return None if preference is None else preferences.preference(preference)
