"""Bringing ``instancetype.kubevirt.io/v1alpha1`` and ``v1alpha2`` data to ``v1beta1``, as KubeVirt did while it
served those versions (spec §1.2, §1.6). There were two different conversions, and each kind of data got one:

* **Objects** (instancetypes and preferences a user applied) went through the API server. KubeVirt's CRDs use
  conversion strategy ``None`` (``pkg/virt-operator/resource/generate/components/crds.go``): the server only
  rewrote ``apiVersion``; every field stayed as written. :func:`served_object` does that.
* **ControllerRevisions** holding an old object were decoded by virt-controller, which ran KubeVirt's generated
  Go conversion (``staging/src/kubevirt.io/api/instancetype/v1alpha{1,2}/conversion*.go``, used by
  ``pkg/instancetype/compatibility/compatibility.go`` until v1.6), and v1.6's upgrade handler stored the result.
  :func:`revision_object` follows that conversion, whose visible effects are:

  - the instancetype CPU fields ``model``, ``dedicatedCPUPlacement`` and ``isolateEmulatorThread`` were plain
    values in v1alpha and become *set* pointers (``""``, ``false``, ``false`` when omitted), so a VM that sets
    ``cpu.model`` conflicts with such a revision, as it did on those clusters;
  - a preference's ``preferredCPUTopology`` of ``""`` becomes unset; any other spelling is copied verbatim;
  - everything else (``preferredUseEfi``, ``preferredUseSecureBoot`` included) keeps its JSON name and value.
"""

from __future__ import annotations

from typing import Any

from ..api.names import CATALOG_KINDS, CONTROLLER_REVISION, INSTANCETYPE_KINDS, INSTANCETYPE_VERSION
from ..api.names import INSTANCETYPE_API_VERSION as SERVED
from ..api.versions import REMOVED, VERSION_LABEL

# The v1alpha instancetype CPU fields that the generated conversion always sets, and the value when omitted.
_ALWAYS_SET_CPU = (("model", ""), ("dedicatedCPUPlacement", False), ("isolateEmulatorThread", False))


def is_removed_object(data: Any) -> bool:
    """Whether ``data`` is an instancetype or preference in a removed version."""
    return isinstance(data, dict) and data.get("kind") in CATALOG_KINDS and data.get("apiVersion") in REMOVED


def holds_removed_object(data: Any) -> bool:
    """Whether ``data`` is a ControllerRevision whose stored object is in a removed version."""
    return (isinstance(data, dict) and data.get("kind") == CONTROLLER_REVISION and data.get("apiVersion") == "apps/v1"
            and is_removed_object(data.get("data")))


def served_object(obj: dict[str, Any]) -> dict[str, Any]:
    """The v1beta1 object the API server served for an old one: ``apiVersion`` rewritten, nothing else."""
    return {**obj, "apiVersion": SERVED}


def revision_object(obj: dict[str, Any]) -> dict[str, Any]:
    """The v1beta1 copy KubeVirt's generated conversion made of an old object (``obj`` is left untouched)."""
    spec = dict(obj.get("spec") or {})
    if obj.get("kind") in INSTANCETYPE_KINDS:
        cpu = dict(spec.get("cpu") or {})
        for name, unset in _ALWAYS_SET_CPU:
            if cpu.get(name) is None:
                cpu[name] = unset
        spec["cpu"] = cpu
    elif isinstance(spec.get("cpu"), dict) and spec["cpu"].get("preferredCPUTopology") in ("", None):
        spec["cpu"] = {k: v for k, v in spec["cpu"].items() if k != "preferredCPUTopology"}
    return {**obj, "apiVersion": SERVED, "spec": spec}


def upgraded_revision(revision: dict[str, Any]) -> dict[str, Any]:
    """A ControllerRevision with its old object converted and its ``object-version`` label (if any) updated.

    The name is kept even when it spells the old version: VMs reference revisions by name
    (``revisionName``, ``status.*.controllerRevisionRef``), and renaming them is the cluster's job.
    """
    meta = dict(revision.get("metadata") or {})
    labels = meta.get("labels")
    if isinstance(labels, dict) and VERSION_LABEL in labels:
        meta["labels"] = {**labels, VERSION_LABEL: INSTANCETYPE_VERSION}
    return {**revision, "metadata": meta, "data": revision_object(revision["data"])}


def converted(data: Any) -> Any:
    """``data`` as ``kubectl instancetype convert`` writes it: old objects and revisions in v1beta1, the items of
    a ``List`` one by one; anything else is returned as is (the same object)."""
    if is_removed_object(data):
        return served_object(data)
    if holds_removed_object(data):
        return upgraded_revision(data)
    if isinstance(data, dict) and str(data.get("kind", "")).endswith("List") and isinstance(data.get("items"), list):
        items = [converted(item) for item in data["items"]]
        if any(new is not old for new, old in zip(items, data["items"], strict=True)):
            return {**data, "items": items}
    return data
