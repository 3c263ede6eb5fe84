"""What a VirtualMachine says about its guest OS, and how well a preference's name matches it.

Hints, strongest first: the ``instancetype.kubevirt.io/default-preference`` label of the PVC, DataVolume or
DataSource its volumes come from (the label ``inferFromVolume`` reads: it names a preference), then the OS
that common templates record: the ``vm.kubevirt.io/os`` label or annotation and the
``os.template.kubevirt.io/<os>`` labels, on the VM or its template. An OS hint matches a preference whose
name, dots and dashes aside, starts it: ``fedora39`` → ``fedora``, ``rhel9.4`` → ``rhel.9``,
``win2k19`` → ``windows.2k19``; the longest such name matches best. A preference also says which OS it is
for, as common-instancetypes' do: the ``vm.kubevirt.io/os`` annotation it puts on the VMI (``rhel9``), else its
``instancetype.kubevirt.io/os-type`` label; that OS matches as its name does (a preference of one's own,
``corp-base`` for ``fedora``, is found too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Protocol

from ..api.names import INFER_LABEL_PREFIX, LABEL_PREFIX
from ..records import dataclass

Spec = dict[str, Any]
OS_KEY = "vm.kubevirt.io/os"
OS_TEMPLATE_PREFIX = "os.template.kubevirt.io/"
DEFAULT_PREFERENCE = INFER_LABEL_PREFIX + "preference"
OS_TYPE_LABEL = LABEL_PREFIX + "os-type"
NAMED = 1000  # the score of a preference a volume's label names outright
_NOT_ALNUM = re.compile(r"[^a-z0-9]")


class Objects(Protocol):
    """The lookup of the storage objects among the inputs."""

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class Hints:
    """The preference names volumes are labelled with, and the OS names the VM carries."""

    named: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()

    def score(self, name: str, declared: str = "") -> int:
        """How strongly the hints point at preference ``name``, which says it is for OS ``declared`` (""
        for none): 0 for not at all."""
        if name in self.named:
            return NAMED
        parts = name.split(".")
        prefixes = [_normal("".join(parts[:n])) for n in range(1, len(parts) + 1)]
        if declared:
            prefixes.append(_normal(declared))
        return max((len(p) for p in prefixes for os in self.systems if p and os.startswith(p)), default=0)

    def describe(self) -> str:
        return ", ".join((*self.named, *self.systems))


def declared_os(spec: Spec, labels: dict[str, str]) -> str:
    """The OS a preference says it is for: its ``spec.annotations`` ``vm.kubevirt.io/os``, else its
    ``instancetype.kubevirt.io/os-type`` label ("" for none)."""
    annotations = spec.get("annotations")
    value = annotations.get(OS_KEY) if isinstance(annotations, dict) else None
    return value if isinstance(value, str) else labels.get(OS_TYPE_LABEL, "")


def _normal(text: str) -> str:
    text = _NOT_ALNUM.sub("", text.lower())
    return "windows" + text[3:] if text.startswith("win") and not text.startswith("windows") else text


def _metadata(vm: Spec) -> Iterator[Spec]:
    yield vm.get("metadata") or {}
    yield ((vm.get("spec") or {}).get("template") or {}).get("metadata") or {}


def _systems(vm: Spec) -> Iterator[str]:
    for meta in _metadata(vm):
        labels, annotations = meta.get("labels") or {}, meta.get("annotations") or {}
        for mapping in (labels, annotations):
            if isinstance(mapping.get(OS_KEY), str):
                yield mapping[OS_KEY]
        for key, value in labels.items():
            if str(key).startswith(OS_TEMPLATE_PREFIX) and str(value).lower() == "true":
                yield str(key)[len(OS_TEMPLATE_PREFIX):]


def _volume_objects(vm: Spec, namespace: str, objects: Objects) -> Iterator[Spec]:
    """The PVCs, DataVolumes (or their templates) and DataSources the VM's volumes name, when given."""
    spec = vm.get("spec") or {}
    templates = {str((t.get("metadata") or {}).get("name")): t for t in spec.get("dataVolumeTemplates") or []
                 if isinstance(t, dict)}
    for volume in ((spec.get("template") or {}).get("spec") or {}).get("volumes") or []:
        claim = (volume.get("persistentVolumeClaim") or {}).get("claimName")
        name = (volume.get("dataVolume") or {}).get("name")
        found = [objects.get("PersistentVolumeClaim", namespace, str(claim)) if claim else None]
        if name:
            found += [templates.get(str(name)), objects.get("DataVolume", namespace, str(name))]
        for obj in (o for o in found if isinstance(o, dict)):
            yield obj
            ref = (obj.get("spec") or {}).get("sourceRef") or {}
            if ref.get("kind") == "DataSource" and ref.get("name"):
                source = objects.get("DataSource", str(ref.get("namespace") or namespace), str(ref["name"]))
                if isinstance(source, dict):
                    yield source


def hints(vm: Spec, namespace: str, objects: Objects) -> Hints:
    """The hints ``vm`` (in ``namespace``) carries, in the order found, each once."""
    named = [str(label) for obj in _volume_objects(vm, namespace, objects)
             if (label := ((obj.get("metadata") or {}).get("labels") or {}).get(DEFAULT_PREFERENCE))]
    systems = [_normal(system) for system in _systems(vm)]
    return Hints(tuple(dict.fromkeys(named)), tuple(s for s in dict.fromkeys(systems) if s))
