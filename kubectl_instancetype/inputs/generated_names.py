"""VirtualMachines named only by ``metadata.generateName``: which client's answer a command gives.

The API server names such an object on create, before it validates it (apiserver ``registry/rest/create.go``
``BeforeCreate``): ``kubectl create`` accepts it, and every command answers as ``kubectl create`` does. ``kubectl
apply`` (and the GitOps tools built on it) refuses it before sending it, with its own words; each such VM gets a
warning saying so, as it is no refusal of the cluster's.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..api.names import shown_name
from ..errors import Notice
from ..yamlio import Document

KINDS = frozenset(("VirtualMachine", "VirtualMachinePool"))
# kubectl apply's own refusal (k8s.io/kubectl pkg/cmd/apply): one wording wherever a command says it
APPLY_REFUSES = 'kubectl apply refuses it ("from {prefix}: cannot use generate name with apply")'


def apply_refuses(prefix: str) -> str:
    """That ``kubectl apply`` refuses an object of this ``generateName``, in kubectl's words."""
    return APPLY_REFUSES.format(prefix=prefix)


def generated_only(data: object) -> str:
    """The ``generateName`` of an object named by it alone ("" otherwise)."""
    meta = data.get("metadata") if isinstance(data, dict) else None
    if not isinstance(meta, dict) or meta.get("name") or not isinstance(meta.get("generateName"), str):
        return ""
    return str(meta["generateName"])


def generated_names(documents: Iterable[Document], namespace: str) -> list[Notice]:
    """A warning on every VirtualMachine (or pool) named only by ``generateName``."""
    out: list[Notice] = []
    for doc in documents:
        prefix = generated_only(doc.data)
        if not prefix or doc.data.get("kind") not in KINDS:
            continue
        meta = doc.data["metadata"]
        label = f"{doc.data['kind']} {meta.get('namespace') or namespace}/{shown_name(meta)}"
        out.append(Notice(f"{label}: named only by metadata.generateName: the API server "
                          "names it on create, as this answer assumes (kubectl create); "
                          f"{apply_refuses(prefix)}", doc.location))
    return out
