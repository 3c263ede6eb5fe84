"""The built-in catalog of every KubeVirt release: the common-instancetypes bundle its virt-operator deploys.

Each KubeVirt release carries the common-instancetypes cluster bundles pinned in its tree
(``hack/common-instancetypes/default.sh``, deployed by virt-operator from
``pkg/virt-operator/resource/generate/components/data/``); patch releases can change them (v1.5.0 deploys
v1.3.0, v1.5.1 v1.3.1). The ``main`` catalog of :mod:`.series` and :mod:`.guests` is the one generated from
our own table; every released bundle is shipped as a chain of deltas (``data/releases.json``, written by
``scripts/generate-catalog-releases``): the newest against ``main``, each older one against the next newer.
An object is built on first lookup by applying its patches down the chain, once per process.

A bundle serves its objects in both scopes, like the ``main`` catalog: the namespaced kinds are the cluster
objects under another kind (virt-operator deploys only the cluster kinds; a namespaced copy stands for the
common-instancetypes namespaced install).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
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
from ...packagedata import json_beside
from ...records import dataclass, field
from .tree import copy_tree

__all__ = ["API_VERSION", "BUNDLE_OF_RELEASE", "VERSION_LABEL", "Bundle", "bundle"]

#: Every kind a bundle answers for, in the order :meth:`Bundle.objects` lists them.
KINDS = (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE, INSTANCETYPE, PREFERENCE)
CLUSTER_KINDS = (CLUSTER_INSTANCETYPE, CLUSTER_PREFERENCE)
#: The label every object of a released bundle carries, last, with the bundle's version.
VERSION_LABEL = "instancetype.kubevirt.io/common-instancetypes-version"

#: The common-instancetypes version each KubeVirt release deploys (``hack/common-instancetypes/default.sh``
#: of each tag; ``main`` is kubevirt/kubevirt d923fdb8).
BUNDLE_OF_RELEASE: dict[str, str] = {
    "v1.5.0": "v1.3.0",
    **{f"v1.5.{patch}": "v1.3.1" for patch in (1, 2, 3)},
    **{f"v1.6.{patch}": "v1.4.0" for patch in (0, 1, 2)},
    **{f"v1.6.{patch}": "v1.4.1" for patch in (3, 4, 5, 6)},
    **{f"v1.7.{patch}": "v1.5.1" for patch in range(5)},
    **{f"v1.8.{patch}": "v1.6.0" for patch in range(5)},
    "v1.9.0": "v1.7.0",
    "main": "v1.7.0",
}

_DESCRIBE = re.compile(r"v(\d+)\.(\d+)\.(\d+)(?:-(\d+)-g[0-9a-f]+)?")


def version_key(version: str) -> tuple[int, ...]:
    """A bundle version (``v1.6.0``, or ``git describe``'s ``v1.6.0-90-g7c1e305b``) as a sortable tuple."""
    match = _DESCRIBE.fullmatch(version)
    if match is None:
        raise ValueError(f"not a common-instancetypes version: {version!r}")
    return tuple(int(part or 0) for part in match.groups())


def key_text(kind: str, name: str) -> str:
    """How the delta file names a cluster object: ``Instancetype/u1.large``, ``Preference/fedora``."""
    return f"{kind.removeprefix('VirtualMachineCluster')}/{name}"


def _key_of(text: str) -> tuple[str, str]:
    short, name = text.split("/", 1)
    return f"VirtualMachineCluster{short}", name


def bundle_order(keys: Any) -> list[tuple[str, str]]:
    """The order of a published bundle: cluster instancetypes, then cluster preferences, each by name."""
    return sorted(keys, key=lambda key: (CLUSTER_KINDS.index(key[0]), key[1]))


@dataclass(frozen=True)
class Bundle:
    """One common-instancetypes catalog: its version and its objects, built on first lookup.

    ``body`` gives the cached metadata and spec of a cluster object by (kind, name), ``keys`` every cluster
    object in bundle order; neither is handed out uncopied.
    """

    version: str
    body: Callable[[str, str], dict[str, Any] | None] = field(repr=False)
    keys: Callable[[], list[tuple[str, str]]] = field(repr=False)

    def find(self, kind: str, name: str) -> dict[str, Any] | None:
        """The object of exactly this ``kind`` (one of :data:`KINDS`) and ``name``, or None."""
        cluster = _cluster_kind(kind)
        body = None if cluster is None else self.body(cluster, name)
        return None if body is None else {"apiVersion": API_VERSION, "kind": kind, **copy_tree(body)}

    def names(self, kind: str) -> list[str]:
        """Every name of ``kind``, sorted; empty for a kind the catalog does not serve."""
        cluster = _cluster_kind(kind)
        return [name for key_kind, name in self.keys() if key_kind == cluster]

    def objects(self) -> list[dict[str, Any]]:
        """Every object: cluster instancetypes, cluster preferences (the published bundles' order), then the
        namespaced copies."""
        return [obj for kind in KINDS for name in self.names(kind) if (obj := self.find(kind, name)) is not None]


def _cluster_kind(kind: str) -> str | None:
    if kind in INSTANCETYPE_KINDS:
        return CLUSTER_INSTANCETYPE
    if kind in PREFERENCE_KINDS:
        return CLUSTER_PREFERENCE
    return None


@functools.cache
def _deltas() -> dict[str, Any]:
    result: dict[str, Any] = json_beside(__spec__, __file__, "data", "releases.json")
    return result


def _main() -> Bundle:
    from . import VERSION, _body, names

    def keys() -> list[tuple[str, str]]:
        return [(kind, name) for kind in CLUSTER_KINDS for name in names(kind)]

    return Bundle(VERSION, _body, keys)


def _chain(version: str) -> list[dict[str, Any]]:
    """The deltas from ``main`` down to ``version``, in the order they apply."""
    deltas = _deltas()
    steps = []
    while version in deltas:
        steps.append(deltas[version])
        version = deltas[version]["base"]
    return steps[::-1]


def apply(base: Any, patch: Any) -> Any:
    """``patch`` (a merge patch, ``{"$replace": value}`` for a value whose keys moved) applied to ``base``."""
    if not isinstance(patch, dict):
        return copy_tree(patch)
    if "$replace" in patch:
        return copy_tree(patch["$replace"])
    result = dict(base) if isinstance(base, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply(result.get(key), value)
    return result


def _released(version: str) -> Bundle:
    steps, main = _chain(version), _main()
    built: dict[tuple[str, str], dict[str, Any] | None] = {}

    def body(kind: str, name: str) -> dict[str, Any] | None:
        key = (kind, name)
        if key not in built:
            text, current = key_text(kind, name), main.body(kind, name)
            for step in steps:
                if text in step["removed"]:
                    current = None
                if text in step["patches"]:
                    current = apply(current, step["patches"][text])
            built[key] = None if current is None else _labelled(current, version)
        return built[key]

    @functools.cache
    def keys() -> list[tuple[str, str]]:
        current = set(main.keys())
        for step in steps:
            current -= {_key_of(text) for text in step["removed"]}
            current |= {_key_of(text) for text in step["patches"]}
        if "order" in steps[-1]:
            return [_key_of(text) for text in steps[-1]["order"]]
        return bundle_order(current)

    return Bundle(version, body, keys)


def _labelled(body: dict[str, Any], version: str) -> dict[str, Any]:
    meta = body["metadata"]
    return {**body, "metadata": {**meta, "labels": {**meta.get("labels", {}), VERSION_LABEL: version}}}


@functools.cache
def bundle(version: str) -> Bundle:
    """The catalog of one common-instancetypes version (one of :data:`VERSIONS`); KeyError for another."""
    from . import VERSION, VERSIONS

    if version == VERSION:
        return _main()
    if version not in _deltas():
        raise KeyError(f"no built-in common-instancetypes catalog {version!r}; known: {', '.join(VERSIONS)}")
    return _released(version)


def catalog_version(release: Any) -> str:
    """The common-instancetypes bundle ``release`` (a :class:`...api.releases.Release`) deploys with virt-operator."""
    return BUNDLE_OF_RELEASE[str(release)]
