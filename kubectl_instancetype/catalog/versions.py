"""API versions of catalog objects: what KubeVirt serves, and the old versions it converted.

KubeVirt serves ``instancetype.kubevirt.io/v1beta1`` only (spec §1.2). ``v1alpha1`` and ``v1alpha2`` were
served, deprecated, until v1.6; objects written in them are converted here as KubeVirt's generated
conversion functions did (spec §1.6, ``staging/src/kubevirt.io/api/instancetype/v1alpha2/conversion*.go``):

* the instancetype CPU fields ``model``, ``dedicatedCPUPlacement`` and ``isolateEmulatorThread`` were plain
  values in v1alpha and become *set* pointers (``""``, ``false``, ``false`` when omitted) — so a VM that sets
  ``cpu.model`` conflicts with a converted instancetype, as it did on such a cluster;
* a preference's empty ``preferredCPUTopology`` becomes unset; any other spelling is copied verbatim.

Every other field is copied as written. Any other version is input we cannot process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..api.names import DEPRECATED_INSTANCETYPE_API_VERSIONS as DEPRECATED
from ..api.names import INSTANCETYPE_API_VERSION as SERVED
from ..api.names import INSTANCETYPE_KINDS
from ..errors import InputError
from ..yamlio import Document

# The v1alpha instancetype CPU fields that the conversion always sets, with the value it sets when omitted.
_ALWAYS_SET_CPU = (("model", ""), ("dedicatedCPUPlacement", False), ("isolateEmulatorThread", False))


@dataclass(frozen=True)
class Converted:
    """A catalog object in the served version, and the deprecation warning its conversion earned."""

    obj: dict[str, Any]
    warning: str | None = None


def served(doc: Document) -> Converted:
    """``doc``'s object as KubeVirt serves it; InputError (exit 3) for a version KubeVirt never served."""
    obj = doc.data
    version = obj.get("apiVersion")
    if version == SERVED:
        return Converted(obj)
    kind = obj["kind"]
    if version not in DEPRECATED:
        raise InputError(
            f"{kind} {obj['metadata']['name']}: unknown apiVersion {version!r} "
            f"(KubeVirt serves {SERVED}; {' and '.join(sorted(DEPRECATED))} are converted)",
            doc.locate(("apiVersion",)),
        )
    return Converted(convert(obj), f"{doc.location}: {deprecation_message(version, kind)}")


def deprecation_message(version: str, kind: str) -> str:
    """The CRD deprecation warning KubeVirt's API server sent for this version (crds.go, v1.5.0)."""
    return f"{version} {kind}s is now deprecated and will be removed in v1."


def convert(obj: dict[str, Any]) -> dict[str, Any]:
    """A v1beta1 copy of a v1alpha1/v1alpha2 instancetype or preference (``obj`` is left untouched)."""
    spec = dict(obj.get("spec") or {})
    if obj["kind"] in INSTANCETYPE_KINDS:
        cpu = dict(spec.get("cpu") or {})
        for name, unset in _ALWAYS_SET_CPU:
            if cpu.get(name) is None:
                cpu[name] = unset
        spec["cpu"] = cpu
    elif isinstance(spec.get("cpu"), dict) and spec["cpu"].get("preferredCPUTopology") in ("", None):
        spec["cpu"] = {k: v for k, v in spec["cpu"].items() if k != "preferredCPUTopology"}
    return {**obj, "apiVersion": SERVED, "spec": spec}
