"""Pinning: write into a VirtualMachine the values the cluster would otherwise add, so that the live object
equals the file (``render --write --pin``).

Pinned are the stable values of the spec the cluster stores (:func:`..pipeline.stages.render_stored`): the
architecture and machine type, the ``kubevirt.io/pci-topology-version`` annotation, the storage class of
``preferredStorageClassName``, the matcher kinds where the release writes them, and what KubeVirt's encoding
adds. The firmware UUID and serial are random on a cluster: with ``pin_firmware`` a UUID and a serial derived
from the VM's namespace and name are written (KubeVirt keeps values that are set), else they are left to the
cluster. virt-controller's annotations, finalizer and status are the cluster's bookkeeping: never pinned.
"""

from __future__ import annotations

import uuid
from typing import Any

from ..api.golang import clone_json
from ..api.origin import Origins
from ..catalog import Catalog
from ..config import ClusterConfig
from ..pipeline.stored import ASSIGNED
from ..yamlio.keyorder import InPlace, sorts_before
from .drift import MISSING, differences

# uuid5(NAMESPACE_URL, "https://github.com/kubevirt/kubevirt#kubectl-instancetype/firmware"), written out.
FIRMWARE_NAMESPACE = uuid.UUID("7f581fd9-87f7-5df0-9880-26bea10175b1")
_FIRMWARE = ("spec", "template", "spec", "domain", "firmware")


def firmware_identity(namespace: str, name: str) -> tuple[str, str]:
    """The firmware UUID and serial pinned for the VM ``namespace/name``: stable, distinct per VM."""
    return (str(uuid.uuid5(FIRMWARE_NAMESPACE, f"{namespace}/{name}")),
            str(uuid.uuid5(FIRMWARE_NAMESPACE, f"serial:{namespace}/{name}")))


def _keys(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _set(doc: Any, keys: list[str], value: Any) -> None:
    node, parent, step = doc, None, ""
    for key in keys[:-1]:
        if isinstance(node, list):
            node, parent, step = node[int(key)], node, key
            continue
        if key not in node:
            node = _insert(node, key, {}, parent, step)
        node, parent, step = node[key], node, key
    if isinstance(node, list):
        node[int(keys[-1])] = value
    elif keys[-1] in node:
        node[keys[-1]] = value
    else:
        _insert(node, keys[-1], value, parent, step)


def _insert(mapping: dict[str, Any], key: str, value: Any, parent: Any, step: str) -> dict[str, Any]:
    """``mapping`` with a new ``key``, placed where ``kubectl get -o yaml`` shows it: the API server's JSON
    goes through a map on its way to YAML (sigs.k8s.io/yaml), so its keys come sorted (go-yaml's order). The
    key goes before the first key that sorts after it (``template.metadata`` before ``spec``, ``architecture``
    before ``domain``), at the end when none does; the keys already there keep their order. The mapping
    becomes an :class:`InPlace` one, put in its ``parent`` at ``step``, so that ``--write`` places the key
    there too (what a render adds goes after the keys already there)."""
    items = list(mapping.items())
    at = next((i for i, (k, _) in enumerate(items) if sorts_before(key, k)), len(items))
    placed = InPlace([*items[:at], (key, value), *items[at:]])
    if parent is None:  # the document itself: its keys are replaced in place
        mapping.clear()
        mapping.update(placed)
        return mapping
    parent[int(step) if isinstance(parent, list) else step] = placed
    return placed


def _delete(doc: Any, keys: list[str]) -> None:
    """Remove the mapping key at ``keys`` (drift names a removed field by its key in a mapping: lists that
    differ in length are one value)."""
    node = doc
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    del node[keys[-1]]


def pinned(vm: dict[str, Any], stored: dict[str, Any], namespace: str, pin_firmware: bool) -> dict[str, Any]:
    """``vm`` with the spec values of ``stored`` (its stored form) that the cluster would add or change."""
    out = clone_json(vm)
    meta = vm.get("metadata") or {}
    identity = firmware_identity(str(meta.get("namespace") or namespace), str(meta.get("name") or ""))
    for drift in differences(vm, stored):
        keys = _keys(drift.pointer)
        if keys[0] != "spec":
            continue
        if drift.after is MISSING:  # the cluster drops it (inference, referencePolicy: expand, encoding)
            _delete(out, keys)
            continue
        value = drift.after
        if value == ASSIGNED:
            if not pin_firmware or tuple(keys[:-1]) != _FIRMWARE:
                continue
            value = identity[0] if keys[-1] == "uuid" else identity[1]
        _set(out, keys, clone_json(value))
    return out


def pinned_renderer(pin_firmware: bool) -> Any:
    """A VM renderer printing each VM pinned (see :mod:`..render`'s ``VMRenderer``)."""
    from ..pipeline.stages import render_stored

    def render_pinned(vm: dict[str, Any], namespace: str, catalog: Catalog, cfg: ClusterConfig,
                      book: Origins | None = None, warnings: list[str] | None = None) -> dict[str, Any]:
        stored = render_stored(vm, namespace, catalog, cfg, None, warnings)
        meta = vm.get("metadata") or {}
        if pin_firmware and not meta.get("name") and meta.get("generateName") and warnings is not None:
            # every VM kubectl create makes from the file would get the one identity pinned
            warnings.append("named only by metadata.generateName: no firmware UUID and serial pinned (each VM "
                            "created from this file gets a name of its own; one pinned identity would be shared)")
            return pinned(vm, stored, namespace, False)
        return pinned(vm, stored, namespace, pin_firmware and bool(meta.get("name") or not meta.get("generateName")))

    return render_pinned
