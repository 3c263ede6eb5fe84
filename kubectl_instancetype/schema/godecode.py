"""The failures KubeVirt's VM mutating webhook meets decoding a VM whose schema check passed.

``VMsMutator.Mutate`` (``pkg/virt-api/webhooks/mutating-webhook/mutators/vm-mutator.go``) decodes the request
into ``v1.VirtualMachine`` right after ``ValidateSchema`` and refuses with the decoder's error. Past the API
server and the schema check, two things still fail there:

* a timestamp of an ObjectMeta the CRD keeps unchecked (``spec.template.metadata``,
  ``spec.dataVolumeTemplates[].metadata``): ``metav1.Time.UnmarshalJSON`` parses ``creationTimestamp``,
  ``deletionTimestamp`` and ``managedFields[].time`` with ``time.RFC3339`` (KubeVirt's definitions let
  ``creationTimestamp`` be any string, and strfmt's date-time is laxer than RFC 3339);
* an integer outside the range of its Go field: the CRD's ``int32``/``int64`` formats are dropped by the API
  server and go-openapi checks no range, so ``cores: 99999999999`` (a ``uint32``) or ``bootOrder: -1`` (a
  ``uint``) reach ``encoding/json``.

The decoder stops at the first error in the order of the request, whose keys the API server wrote sorted.
``VirtualMachineInstanceSpec`` decodes itself through an alias type (``VMISpecAlias``, ``types.go``), which
names the field in the message. The wording (the alias type, list indices in the field path) is that of the
``encoding/json`` kv-expand was built with (Go 1.27); a KubeVirt built with an older Go may word it otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .fielderror import Path
from .gotime import parse_rfc3339

Problem = tuple[Path, str]

# The integer fields of the VMI spec whose Go type is narrower than the int64 the API server keeps
# (staging/src/kubevirt.io/api/core/v1/schema.go and types.go; k8s.io/api/core/v1 for affinity, probes,
# topology spread constraints); "*" stands for the items of a list.
GO_INTEGERS: dict[tuple[str, ...], str] = {
    **{("affinity", kind, "preferredDuringSchedulingIgnoredDuringExecution", "*", "weight"): "int32"
       for kind in ("nodeAffinity", "podAffinity", "podAntiAffinity")},
    **{("domain", "cpu", name): "uint32" for name in ("cores", "maxSockets", "sockets", "threads")},
    **{("domain", "devices", "disks", "*", "blockSize", "custom", name): "uint"
       for name in ("discardGranularity", "logical", "physical")},
    ("domain", "devices", "disks", "*", "bootOrder"): "uint",
    ("domain", "devices", "interfaces", "*", "bootOrder"): "uint",
    ("domain", "devices", "interfaces", "*", "portRanges", "*", "end"): "int32",
    ("domain", "devices", "interfaces", "*", "portRanges", "*", "start"): "int32",
    ("domain", "devices", "interfaces", "*", "ports", "*", "port"): "int32",
    ("domain", "features", "hyperv", "spinlocks", "spinlocks"): "uint32",
    ("domain", "ioThreads", "supplementalPoolThreadCount"): "uint32",
    **{(probe, name): "int32" for probe in ("livenessProbe", "readinessProbe")
       for name in ("failureThreshold", "initialDelaySeconds", "periodSeconds", "successThreshold",
                    "timeoutSeconds")},
    ("topologySpreadConstraints", "*", "maxSkew"): "int32",
    ("topologySpreadConstraints", "*", "minDomains"): "int32",
    ("volumes", "*", "downwardAPI", "fields", "*", "mode"): "int32",
}
RANGES = {"int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1), "uint": (0, 2**64 - 1)}


def _trie() -> dict[str, Any]:
    """The paths of GO_INTEGERS as nested dicts, each with its keys sorted (the order :func:`_out_of_range`
    looks at them in)."""
    root: dict[str, Any] = {}
    for path, kind in sorted(GO_INTEGERS.items()):
        node = root
        for step in path[:-1]:
            node = node.setdefault(step, {})
        node[path[-1]] = kind
    return _sorted(root)


def _sorted(trie: dict[str, Any]) -> dict[str, Any]:
    return {key: sub if isinstance(sub, str) else _sorted(sub) for key, sub in sorted(trie.items())}


_TRIE = _trie()


def decode_problem(spec: Any) -> Problem | None:
    """The first failure of decoding the VM spec into KubeVirt's Go types, with Go's error text; None if none."""
    for path, error in timestamp_failures(spec):
        return path, error
    template = spec.get("template") if isinstance(spec, dict) else None
    if isinstance(template, dict):
        return range_failure(template.get("spec"), ("spec", "template", "spec"))
    return None


def timestamp_failures(spec: Any) -> Iterator[Problem]:
    """The timestamps of the VM spec's embedded ObjectMeta ``metav1.Time.UnmarshalJSON`` refuses, with Go's
    error, in the order of the request."""
    for path, value in _timestamps(spec):
        error = parse_rfc3339(value).error
        if error:
            yield path, error


def range_failure(vmi_spec: Any, at: Path) -> Problem | None:
    """The first integer of a VMI spec (found at ``at``) out of its Go field's range, with Go's error."""
    found = _out_of_range(vmi_spec, _TRIE, ())
    if found is None:
        return None
    where, number, kind = found
    field = "VMISpecAlias." + ".".join(str(step) for step in where)
    return (*at, *where), f"json: cannot unmarshal number {number} into Go struct field {field} of type {kind}"


def _out_of_range(value: Any, trie: dict[str, Any], path: Path) -> tuple[Path, int, str] | None:
    """The first integer of ``value`` the trie types (in the order of sorted keys) that is out of its Go
    type's range. Paths are built only on the way to a typed field."""
    if isinstance(value, list):
        if "*" in trie:
            for i, item in enumerate(value):
                found = _out_of_range(item, trie["*"], (*path, i))
                if found is not None:
                    return found
        return None
    if not isinstance(value, dict):
        return None
    for key, sub in trie.items():  # in sorted order (see _trie): the few keys the trie has, not all the value's
        if key not in value:
            continue
        item = value[key]
        if isinstance(sub, str):
            if item.__class__ is int:
                low, high = RANGES[sub]
                if not low <= item <= high:
                    return (*path, key), item, sub
        elif isinstance(item, (dict, list)):
            found = _out_of_range(item, sub, (*path, key))
            if found is not None:
                return found
    return None


def _timestamps(spec: Any) -> Iterator[tuple[Path, str]]:
    if not isinstance(spec, dict):
        return
    templates = spec.get("dataVolumeTemplates")
    if isinstance(templates, list):  # "dataVolumeTemplates" sorts before "template"
        for i, item in enumerate(templates):
            if isinstance(item, dict):
                yield from _meta(item.get("metadata"), ("spec", "dataVolumeTemplates", i, "metadata"))
    template = spec.get("template")
    if isinstance(template, dict):
        yield from _meta(template.get("metadata"), ("spec", "template", "metadata"))


def _meta(meta: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if not isinstance(meta, dict):
        return
    for key in ("creationTimestamp", "deletionTimestamp"):
        if isinstance(meta.get(key), str):
            yield (*path, key), meta[key]
    entries = meta.get("managedFields")
    if isinstance(entries, list):
        for i, entry in enumerate(entries):
            if isinstance(entry, dict) and isinstance(entry.get("time"), str):
                yield (*path, "managedFields", i, "time"), entry["time"]
