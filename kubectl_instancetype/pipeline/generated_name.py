"""The name the API server gives an object named only by ``metadata.generateName``, before it validates it
(apiserver ``registry/rest/create.go`` ``BeforeCreate``): at most 58 characters of the prefix and 5 random ones.

That is the answer of ``kubectl create``; ``kubectl apply`` refuses such an object before sending it ("from web-:
cannot use generate name with apply"). The random part is shown as ``<assigned by the cluster>``, as render
--stored shows every value the cluster draws; the stages after this one (the VM controller's ControllerRevisions,
the VMI's name, the firmware UUID derived from the name) see that name. A plain render (VM mode) keeps the VM as
written: no name.
"""

from __future__ import annotations

from typing import Any

from ..api.names import ASSIGNED, GENERATE_NAME_PREFIX
from .lookup import Context

Spec = dict[str, Any]


def generated(vm: Spec, ctx: Context) -> Spec:
    """``vm`` with the name the API server generates when it has only ``generateName``."""
    meta = vm.get("metadata")
    if isinstance(meta, dict) and not meta.get("name") and meta.get("generateName"):
        meta["name"] = str(meta["generateName"])[:GENERATE_NAME_PREFIX] + ASSIGNED
    return vm
