"""The template kinds: KubeVirt's VirtualMachineTemplate (``template.kubevirt.io``) and OpenShift's Template
(``template.openshift.io``), told apart by group and kind as ``virtctl template`` does.

Here, below the inputs layer, so that reading a stream can ask whether it holds a template without loading the
template engine (:mod:`kubectl_instancetype.vmtemplate`) for the VMs that are no template.
"""

from __future__ import annotations

from typing import Any

VMT_GROUP = "template.kubevirt.io"
OPENSHIFT_GROUP = "template.openshift.io"


def _group(data: dict[str, Any]) -> str:
    return str(data.get("apiVersion", "")).split("/")[0]


def is_template(data: Any) -> bool:
    """Whether a document is a VirtualMachineTemplate or an OpenShift Template."""
    if not isinstance(data, dict):
        return False
    return (_group(data) == VMT_GROUP and data.get("kind") == "VirtualMachineTemplate") or is_openshift(data)


def is_openshift(data: Any) -> bool:
    """Whether a document is an OpenShift Template (``virtctl template convert`` reads those)."""
    # OpenShift served Template in its legacy core group too (``apiVersion: v1``), which oc and virtctl read
    return (isinstance(data, dict) and data.get("kind") == "Template"
            and (_group(data) == OPENSHIFT_GROUP or data.get("apiVersion") == "v1"))
