"""Which API versions of instancetypes and preferences a render accepts: each catalog object is checked here
against the version policy of :mod:`..api.versions`, at the place it is written.

KubeVirt serves ``instancetype.kubevirt.io/v1beta1`` only; ``v1alpha1``/``v1alpha2`` objects are refused as
kubectl refuses them (exit 1, as every refusal by kubectl or the API server), unless removed versions are
accepted: then they earn the API server's deprecation warning and are served as :mod:`.conversion` says.
Any other version is refused.
"""

from __future__ import annotations

from ..api.names import INSTANCETYPE_API_VERSION as SERVED
from ..api.names import INSTANCETYPE_GROUP as GROUP
from ..api.versions import REMOVED, deprecation_message, no_match, removed_version_problem
from ..errors import RefusedError
from ..yamlio import Document


def check_version(doc: Document, accept_removed: bool) -> str | None:
    """Raise RefusedError (exit 1, as every refusal by kubectl or the API server) for a catalog object the
    targeted cluster refuses; for an old object that is accepted, the deprecation warning it earns (located);
    None for a served one."""
    obj = doc.data
    version = obj.get("apiVersion")
    if version == SERVED:
        return None
    where = doc.locate(("apiVersion",))
    problem = removed_version_problem(obj, accept_removed)
    if problem is not None:
        raise RefusedError(problem, where)
    if not version:
        raise RefusedError(f"{obj['kind']} has no apiVersion ({GROUP} objects are served as {SERVED})", doc.location)
    if version not in REMOVED:
        raise RefusedError(f"{no_match(obj['kind'], str(version))} ({GROUP} objects are served as {SERVED})", where)
    return f"{doc.location}: {deprecation_message(str(version), obj['kind'])}"
