"""The failure KubeVirt's VM mutating webhook meets decoding a VM whose schema check passed.

``VMsMutator.Mutate`` (``pkg/virt-api/webhooks/mutating-webhook/mutators/vm-mutator.go``) decodes the request
into ``v1.VirtualMachine`` right after ``ValidateSchema`` and refuses with the decoder's error. Past the API
server and the schema check, what still fails is a timestamp of an ObjectMeta the CRD keeps unchecked
(``spec.template.metadata``, ``spec.dataVolumeTemplates[].metadata``): ``metav1.Time.UnmarshalJSON`` parses
``creationTimestamp``, ``deletionTimestamp`` and ``managedFields[].time`` with ``time.RFC3339`` (KubeVirt's
definitions let ``creationTimestamp`` be any string, and strfmt's date-time is laxer than RFC 3339). The
decoder stops at the first such error in the order of the request, whose keys the API server wrote sorted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .fielderror import Path
from .gotime import parse_rfc3339

Problem = tuple[Path, str]


def timestamp_problem(spec: Any) -> Problem | None:
    """The first malformed timestamp of the VM spec's embedded metadata, with Go's error text; None if none."""
    for path, value in _timestamps(spec):
        error = parse_rfc3339(value).error
        if error:
            return path, error
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
