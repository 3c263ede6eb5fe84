"""Building the preferences of the common catalog from the guest table in :mod:`.guests`.

A preference's spec is its row's traits, then its variant's traits, then its requirements, merged in that
order. Labels restate the OS type, architecture and requirements of the spec so that UIs can filter on
them; annotations carry what OpenShift's console shows.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...api.names import LABEL_PREFIX as PREFIX
from ...api.names import VENDOR
from ...records import dataclass
from .guests import GUESTS, Guest, Variant
from .tree import merge, sorted_tree

# common-instancetypes writes these two as YAML block scalars holding a quoted URL, so the value a cluster
# carries really is the URL in double quotes followed by a newline.
DOCUMENTATION_URL = '"https://github.com/kubevirt/common-instancetypes"\n'
SUPPORT_URL = '"https://github.com/kubevirt/common-instancetypes/issues"\n'


@dataclass(frozen=True)
class Entry:
    """Where one preference comes from: its OS row and variant."""

    name: str
    guest: Guest
    variant: Variant


@cache
def index() -> dict[str, Entry]:
    """Every preference of the catalog by name, in name order."""
    entries = {}
    for guest in GUESTS:
        for variant in guest.variants:
            name = guest.name + variant.suffix
            entries[name] = Entry(name, guest, variant)
    return dict(sorted(entries.items()))


def preference(entry: Entry) -> dict[str, Any]:
    """``metadata`` and ``spec`` of one preference, keys sorted as in the published bundles."""
    spec = _spec(entry)
    metadata = {"annotations": _annotations(entry), "labels": _labels(spec), "name": entry.name}
    return sorted_tree({"metadata": metadata, "spec": spec})


def _spec(entry: Entry) -> dict[str, Any]:
    guest, variant = entry.guest, entry.variant
    cpu, memory = variant.cpu or guest.cpu, variant.memory or guest.memory
    requirements: dict[str, Any] = {}
    if cpu is not None:
        requirements["cpu"] = {"guest": cpu}
    if memory is not None:
        requirements["memory"] = {"guest": memory}
    fragments = [*guest.traits, *variant.traits]
    return merge([*fragments, {"requirements": requirements}] if requirements else fragments)


def _annotations(entry: Entry) -> dict[str, str]:
    guest, variant = entry.guest, entry.variant
    tags = ",".join(tag for tag in ("hidden,kubevirt", guest.tags, variant.tag) if tag)
    return {
        "iconClass": guest.icon,
        "openshift.io/display-name": guest.display + variant.display,
        "openshift.io/documentation-url": DOCUMENTATION_URL,
        "openshift.io/provider-display-name": "KubeVirt",
        "openshift.io/support-url": SUPPORT_URL,
        "tags": tags,
    }


def _labels(spec: dict[str, Any]) -> dict[str, str]:
    requirements = spec.get("requirements", {})
    facts = {
        "os-type": spec["annotations"]["vm.kubevirt.io/os"],
        "arch": spec.get("preferredArchitecture"),
        "preferred-architecture": spec.get("preferredArchitecture"),
        "required-architecture": requirements.get("architecture"),
        "required-cpu": str(requirements["cpu"]["guest"]) if "cpu" in requirements else None,
        "required-memory": requirements.get("memory", {}).get("guest"),
        "vendor": VENDOR,
    }
    return {PREFIX + key: value for key, value in facts.items() if value is not None}
