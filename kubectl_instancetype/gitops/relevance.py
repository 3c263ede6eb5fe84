"""Which manifest files matter to ``diff``: a repository also holds kustomizations, CI settings and templates.

A file found in a directory is rendered only when it loads and holds a VirtualMachine, something a VM is
resolved against (instancetypes, preferences, ControllerRevisions, storage objects) or a KubeVirt CR;
other YAML (and Helm templates that are not YAML at all) is not this tool's business.
"""

from __future__ import annotations

from typing import Any

from ..api.names import INDEXED_KINDS, KUBEVIRT, VIRTUAL_MACHINE
from ..errors import InputError
from ..yamlio import load_stream

# VirtualMachineTemplates (and OpenShift Templates of one VM) are rendered as the VMs they process into
KINDS = INDEXED_KINDS | {VIRTUAL_MACHINE, KUBEVIRT, "VirtualMachineTemplate", "Template"}


def _kinds(data: Any) -> set[str]:
    if not isinstance(data, dict):
        return set()
    items = data.get("items")
    found = {str(data.get("kind"))}
    if isinstance(items, list):
        for item in items:
            found |= _kinds(item)
    return found


def relevant(text: str) -> bool:
    """Whether ``text`` loads and holds an object whose kind the render uses."""
    try:
        docs = load_stream(text, "<relevance>")
    except InputError:
        return False
    return any(_kinds(doc.data) & KINDS for doc in docs)
