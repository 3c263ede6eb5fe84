"""The instancetype API versions KubeVirt removed, and how their refusal reads.

The KubeVirt we follow (v1.7 and later) serves ``instancetype.kubevirt.io/v1beta1`` only (spec §1.2): its CRDs
list no other version, so kubectl refuses a ``v1alpha1`` or ``v1alpha2`` object before it reaches the API
server (its REST mapping fails), and virt-controller cannot decode a ControllerRevision that holds one.
``--accept-removed-versions`` renders as a cluster older than v1.7 did instead.

:func:`removed_version_problem` is the one place that decides that refusal and words it, for every layer that
meets such an object (the catalog loader, the API-server validation of the inputs): it lives in this bottom
layer so that all of them can call it.
"""

from __future__ import annotations

from typing import Any

from .names import CATALOG_KINDS, INSTANCETYPE_API_VERSION, REVISION_LABEL_PREFIX
from .names import REMOVED_INSTANCETYPE_API_VERSIONS as REMOVED

REMOVED_IN = "v1.7"
#: The ControllerRevision label naming the version of the object it stores.
VERSION_LABEL = f"{REVISION_LABEL_PREFIX}version"
ACCEPT_OPTION = "--accept-removed-versions"
CONVERT_COMMAND = "kubectl instancetype convert"


def no_match(kind: str, api_version: str) -> str:
    """kubectl's refusal of a kind in a version no CRD serves (apimachinery ``meta.NoKindMatchError``)."""
    return f'no matches for kind "{kind}" in version "{api_version}"'


def removed_hint(api_version: str) -> str:
    """What to do about an object or revision in a removed version."""
    return (f"{api_version} was removed in KubeVirt {REMOVED_IN}: `{CONVERT_COMMAND} -f PATH --write` rewrites it "
            f"as {INSTANCETYPE_API_VERSION}; {ACCEPT_OPTION} renders it as older clusters did")


def removed_version_problem(obj: Any, accept_removed: bool = False) -> str | None:
    """The refusal of an instancetype or preference in a removed version, hint included; None for any other
    object, and for every object when removed versions are accepted."""
    if accept_removed or not isinstance(obj, dict) or obj.get("kind") not in CATALOG_KINDS:
        return None
    api_version = obj.get("apiVersion")
    if api_version not in REMOVED:
        return None
    return f"{no_match(str(obj['kind']), str(api_version))} ({removed_hint(str(api_version))})"


def deprecation_message(api_version: str, kind: str) -> str:
    """The CRD deprecation warning KubeVirt's API server sent for an old version (crds.go, v1.5.0)."""
    return f"{api_version} {kind}s is now deprecated and will be removed in v1."
