"""Which manifest files matter to ``diff``: a repository also holds kustomizations, CI settings and templates.

A file found in a directory is rendered only when it loads and holds a VirtualMachine, something a VM is
resolved against (instancetypes, preferences, ControllerRevisions, storage objects) or a KubeVirt CR;
other YAML (and Helm templates that are not YAML at all) is not this tool's business. On the side a pull
request changes, a ``.yaml`` file that does not load is no "other YAML": it is rendered so that its error is
reported (a VM whose file broke is not "removed"), unless it holds Go template actions (a Helm template).
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


def relevant(text: str, broken: bool = False) -> bool:
    """Whether ``text`` loads and holds an object whose kind the render uses; with ``broken``, also when it
    does not load and is no Go template (``{{ }}``), so that the render reports why."""
    try:
        docs = load_stream(text, "<relevance>")
    except InputError:
        return broken and not ("{{" in text and "}}" in text)
    return any(_kinds(doc.data) & KINDS for doc in docs)
