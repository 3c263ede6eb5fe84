"""Which objects are lists of objects, to be read item by item as kubectl reads them.

kubectl flattens ``v1`` ``List`` and the ``<Kind>List`` kinds the API groups it knows serve (``kubectl get
-o yaml`` writes them). A custom resource whose kind merely ends in ``List`` (``AllowList``) is an object
of its own, not a list, and a KRM ``ResourceList`` is an envelope that only :mod:`.krm` opens.
"""

from __future__ import annotations

from typing import Any

# The API groups whose *List kinds a manifest may hold: Kubernetes' own (the core group is "") and
# KubeVirt's (kubevirt.io/api, containerized-data-importer).
KNOWN_GROUPS = frozenset((
    "", "apps", "batch", "autoscaling", "policy", "networking.k8s.io", "rbac.authorization.k8s.io",
    "storage.k8s.io", "apiextensions.k8s.io", "admissionregistration.k8s.io", "scheduling.k8s.io",
    "coordination.k8s.io", "discovery.k8s.io", "node.k8s.io", "certificates.k8s.io", "events.k8s.io",
    "kubevirt.io", "instancetype.kubevirt.io", "pool.kubevirt.io", "snapshot.kubevirt.io",
    "export.kubevirt.io", "clone.kubevirt.io", "migrations.kubevirt.io", "cdi.kubevirt.io",
))


def is_list(data: Any) -> bool:
    """Whether ``data`` is a list of objects: ``v1 List``, or ``<Kind>List`` of a known API group, with items."""
    if not isinstance(data, dict) or "items" not in data:
        return False
    kind, api_version = data.get("kind"), data.get("apiVersion")
    if not isinstance(kind, str) or not kind.endswith("List") or not isinstance(api_version, str):
        return False
    group = api_version.rpartition("/")[0]
    if kind == "List":
        return group == ""
    return group in KNOWN_GROUPS and len(kind) > len("List")
