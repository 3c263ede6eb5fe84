"""``inferFromVolume``: replacing a matcher with the defaults labelled on the VM's boot volume.

pkg/instancetype/infer/{handler,volume,errors}.go; part of the VM mutating webhook, never of expand, so
its errors carry the ``mutate`` stage and the matcher's field. Errors marked ignorable clear the whole
matcher when the policy is ``Ignore``; API lookups that find nothing are never ignorable.
"""

from __future__ import annotations

from typing import Any

from ..api.matchers import MatcherKind
from ..api.names import INFER_LABEL_PREFIX, not_found
from ..api.releases import DEFAULT, Release
from ..catalog.find import Lookup
from ..catalog.hints import volume_hint
from ..errors import KubeVirtError
from ..records import dataclass

Spec = dict[str, Any]
STAGE = "mutate"


class Ignorable(KubeVirtError):
    """An inference failure that the ``Ignore`` policy turns into "no matcher"."""


@dataclass(frozen=True)
class _Labels:
    name: str
    kind: str
    field: tuple[str, str]  # the matcher's field, where errors point


def infer_matcher(matcher: MatcherKind, vm: Spec, namespace: str, lookup: Lookup, release: Release = DEFAULT) -> None:
    """Rewrite ``vm``'s matcher in place from its volume's labels (mutating-webhook semantics of ``release``)."""
    spec = vm.get("spec") or {}
    m = spec.get(matcher.field)
    if not isinstance(m, dict) or not m.get("inferFromVolume"):
        return
    ignore = m.get("inferFromVolumeFailurePolicy") == "Ignore"
    prefix = f"{INFER_LABEL_PREFIX}{matcher.field}"
    labels = _Labels(prefix, f"{prefix}-kind", matcher.path)
    try:
        name, kind = _Resolver(vm, namespace, lookup, labels, release).from_volume(m["inferFromVolume"])
    except Ignorable:
        if not ignore:
            raise
        spec[matcher.field] = None
        return
    spec[matcher.field] = {"name": name, "kind": kind} if kind else {"name": name}
    if ignore and matcher.field == "instancetype":
        # A fallback memory given for the failure case goes once inference succeeded.
        domain = ((spec.get("template") or {}).get("spec") or {}).get("domain")
        if isinstance(domain, dict):
            domain.pop("memory", None)


@dataclass(frozen=True)
class _Resolver:
    vm: Spec
    namespace: str
    lookup: Lookup
    labels: _Labels
    release: Release = DEFAULT

    def refusal(self, message: str) -> KubeVirtError:
        return KubeVirtError(message, STAGE, field=self.labels.field)

    def ignorable(self, message: str) -> Ignorable:
        return Ignorable(message, STAGE, field=self.labels.field)

    def from_volume(self, volume_name: str) -> tuple[str, str]:
        volumes = ((self.vm.get("spec") or {}).get("template") or {}).get("spec", {}).get("volumes") or []
        volume = next((v for v in volumes if v.get("name") == volume_name), None)
        if volume is None:
            raise self.refusal(f"unable to find volume {volume_name} to infer defaults")
        if volume.get("persistentVolumeClaim") is not None:
            return self.from_pvc(volume["persistentVolumeClaim"].get("claimName") or "", self.namespace)
        if volume.get("dataVolume") is not None:
            return self.from_datavolume(volume["dataVolume"].get("name") or "")
        raise self.ignorable(f"unable to infer defaults from volume {volume_name} as type is not supported")

    def from_labels(self, obj: Spec) -> tuple[str, str]:
        labels = (obj.get("metadata") or {}).get("labels") or {}
        if self.labels.name not in labels:
            raise self.ignorable(f"unable to find required {self.labels.name} label on the volume")
        return labels[self.labels.name], labels.get(self.labels.kind, "")

    def get(self, kind: str, namespace: str, name: str) -> Spec:
        obj = self.lookup.get(kind, namespace, name)
        if obj is None:
            refusal = self.refusal(not_found(kind, name))  # KubeVirt's message; the hint goes after it
            refusal.hint = volume_hint(kind, name, namespace)
            raise refusal
        return obj

    def from_pvc(self, name: str, namespace: str) -> tuple[str, str]:
        return self.from_labels(self.get("PersistentVolumeClaim", namespace, name))

    def from_snapshot(self, name: str, namespace: str) -> tuple[str, str]:
        return self.from_labels(self.get("VolumeSnapshot", namespace, name))

    def from_datavolume(self, name: str) -> tuple[str, str]:
        for template in (self.vm.get("spec") or {}).get("dataVolumeTemplates") or []:
            if (template.get("metadata") or {}).get("name") == name:
                return self.from_dv_spec(template.get("spec") or {})  # the template's labels are not read
        dv = self.lookup.get("DataVolume", self.namespace, name)
        if dv is None:
            return self.from_pvc(name, self.namespace)  # a garbage-collected DataVolume leaves its PVC
        try:
            return self.from_labels(dv)
        except Ignorable:
            return self.from_dv_spec(dv.get("spec") or {})

    def from_dv_spec(self, spec: Spec) -> tuple[str, str]:
        source = spec.get("source") or {}
        if source.get("pvc") is not None:
            return self.from_pvc(source["pvc"].get("name") or "", source["pvc"].get("namespace") or "")
        if source.get("snapshot") is not None and self.release.infers_from_volume_snapshot:
            snap = source["snapshot"]
            return self.from_snapshot(snap.get("name") or "", snap.get("namespace") or "")
        ref = spec.get("sourceRef")
        if ref is not None:
            if ref.get("kind") != "DataSource":
                raise self.ignorable(
                    f"unable to infer defaults from DataVolumeSourceRef as Kind {ref.get('kind', '')} is not supported"
                )
            namespace = ref["namespace"] if ref.get("namespace") is not None else self.namespace
            return self.from_datasource(ref.get("name") or "", namespace)
        raise self.ignorable("unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported")

    def from_datasource(self, name: str, namespace: str) -> tuple[str, str]:
        ds = self.get("DataSource", namespace, name)
        try:
            return self.from_labels(ds)
        except Ignorable:
            pass
        source = (ds.get("spec") or {}).get("source") or {}
        if source.get("pvc") is not None:
            return self.from_pvc(source["pvc"].get("name") or "", source["pvc"].get("namespace") or "")
        if not self.release.infers_from_volume_snapshot:
            raise self.ignorable("unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC")
        if source.get("snapshot") is not None:
            snap = source["snapshot"]
            return self.from_snapshot(snap.get("name") or "", snap.get("namespace") or "")
        raise self.ignorable(
            "unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC or "
            "DataVolumeSourceSnapshot"
        )
