"""What KubeVirt's JSON re-encoding does to a VM it returns: Quantities in canonical spelling,
null pointers omitted, ``features.acpi`` always present (a non-pointer struct).
"""

from __future__ import annotations

from typing import Any

from ..quantity import canonical

Spec = dict[str, Any]


def _canonical_map(mapping: Any) -> None:
    if isinstance(mapping, dict):
        for key, value in mapping.items():
            if value is not None:
                mapping[key] = canonical(value)


def _canonical_keys(mapping: Any, keys: tuple[str, ...]) -> None:
    if isinstance(mapping, dict):
        for key in keys:
            if mapping.get(key) is not None:
                mapping[key] = canonical(mapping[key])


# Plain (non-pointer) Go bools with omitempty: encoding/json never prints them when false.
_PLAIN_BOOLS = (
    (("cpu",), ("dedicatedCpuPlacement", "isolateEmulatorThread")),
    (("features", "kvm"), ("hidden",)),
    (("devices",), ("disableHotplug",)),
)


def _drop_false(domain: Spec) -> None:
    cpu = domain.get("cpu")
    if isinstance(cpu, dict) and cpu.get("model") == "":
        del cpu["model"]  # a plain omitempty string: a converted v1alpha instancetype copies ""
    for path, keys in _PLAIN_BOOLS:
        node: Any = domain
        for step in path:
            node = node.get(step) if isinstance(node, dict) else None
        if isinstance(node, dict):
            for key in keys:
                if node.get(key) is False:
                    del node[key]


def encode_vmi_spec(spec: Spec) -> None:
    """Canonicalise the Quantities of a VMI spec (a VM template's spec) in place."""
    domain = spec.get("domain")
    if isinstance(domain, dict):
        resources = domain.get("resources")
        if isinstance(resources, dict):
            _canonical_map(resources.get("requests"))
            _canonical_map(resources.get("limits"))
        memory = domain.get("memory")
        _canonical_keys(memory, ("guest", "maxGuest"))
        if isinstance(memory, dict):
            _canonical_keys(memory.get("reservedOverhead"), ("addedOverhead",))
        features = domain.get("features")
        if isinstance(features, dict) and features.get("acpi") is None:
            features["acpi"] = {}
        _drop_false(domain)
    for volume in spec.get("volumes") or []:
        if isinstance(volume, dict):
            _canonical_keys(volume.get("emptyDisk"), ("capacity",))
            _canonical_keys(volume.get("hostDisk"), ("capacity",))


def encode_vm(vm: Spec) -> None:
    """Canonicalise a VirtualMachine in place as KubeVirt's encoding would print it."""
    spec = vm.get("spec")
    if not isinstance(spec, dict):
        return
    for key in ("instancetype", "preference"):
        if key in spec and spec[key] is None:
            del spec[key]
    template_spec = (spec.get("template") or {}).get("spec")
    if isinstance(template_spec, dict):
        encode_vmi_spec(template_spec)
    for dvt in spec.get("dataVolumeTemplates") or []:
        for claim in ("pvc", "storage"):
            resources = ((dvt.get("spec") or {}).get(claim) or {}).get("resources")
            if isinstance(resources, dict):
                _canonical_map(resources.get("requests"))
                _canonical_map(resources.get("limits"))
