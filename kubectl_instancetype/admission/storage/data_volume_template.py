"""A VM's DataVolume templates (pkg/storage/admitters/data-volume-template.go): ``ValidateDataVolumeTemplate``,
part of ``ValidateVirtualMachineSpec``, and the storage admitter's namespace check.

``ValidateDataVolumeTemplate`` names its entries ``spec.dataVolumeTemplate[i]`` (singular) and its PVC-or-storage
field ``…PVC.Storage``: KubeVirt's spelling.
"""

from __future__ import annotations

from ..cause import Cause, FieldPath
from .spec import Obj, is_set, items, mapping, text

# cdiv1.DataVolumeSource's fields: exactly one of them is a source.
_TEMPLATES = FieldPath.of("spec", "dataVolumeTemplates")  # a path is an immutable value: one will do
DATA_VOLUME_SOURCES = ("http", "s3", "gcs", "registry", "pvc", "upload", "blank", "imageio", "vddk", "snapshot")


def _data_volume(at: FieldPath, template: Obj) -> list[Cause]:
    """``validateDataVolume``: the first problem of one template, if any."""
    if not text(mapping(template.get("metadata")).get("name")):
        at = at.child("name")
        return [at.cause(f"'name' field must not be empty for DataVolumeTemplate entry {at}.")]
    spec = mapping(template.get("spec"))
    pvc, storage = spec.get("pvc"), spec.get("storage")
    claims = at.child("PVC", "Storage")
    if pvc is None and storage is None:
        return [claims.cause("Missing Data volume PVC or Storage")]
    if pvc is not None and storage is not None:
        return [claims.cause("Duplicate storage definition, both target storage and target pvc defined")]
    claim = mapping(pvc if pvc is not None else storage)
    populated = is_set(claim, "dataSourceRef") or is_set(claim, "dataSource")
    sourced = is_set(spec, "source") or is_set(spec, "sourceRef")
    if populated and sourced:
        return [at.child("source").cause("External population is incompatible with Source and SourceRef")]
    if not populated and not sourced:
        return [at.child("source", "sourceRef").cause(
            "Data volume should have either Source, SourceRef, or be externally populated")]
    if is_set(spec, "source"):
        count = sum(is_set(mapping(spec.get("source")), s) for s in DATA_VOLUME_SOURCES)
        if count == 0:
            return [at.child("source").cause("Missing dataVolume valid source")]
        if count > 1:
            return [at.child("source").cause("Multiple dataVolume sources")]
    return []


def _referenced(name: str, volumes: list[Obj]) -> bool:
    for volume in volumes:
        claim, data_volume = volume.get("persistentVolumeClaim"), volume.get("dataVolume")
        if claim is not None and text(mapping(claim).get("claimName")) == name:
            return True
        if data_volume is not None and text(mapping(data_volume).get("name")) == name:
            return True
    return False


def validate_data_volume_templates(field: FieldPath, vm_spec: Obj) -> list[Cause]:
    """``ValidateDataVolumeTemplate`` at ``field`` (``spec``): each template is well formed and used by a
    volume of the VM's template."""
    templates = items(vm_spec.get("dataVolumeTemplates"))
    if not templates:
        return []
    template_volumes = items(mapping(mapping(vm_spec.get("template")).get("spec")).get("volumes"))
    causes: list[Cause] = []
    for idx, template in enumerate(templates):
        at = field.child("dataVolumeTemplate").index(idx)
        problem = _data_volume(at, template)
        if problem:
            causes.extend(problem)
        elif not _referenced(text(mapping(template.get("metadata")).get("name")), template_volumes):
            causes.append(at.cause(
                f"DataVolumeTemplate entry {at} must be referenced in the VMI template's 'volumes' list"))
    return causes


def template_namespaces(vm: Obj, namespace: str) -> list[Cause]:
    """``validateVirtualMachineDataVolumeTemplateNamespace`` on create: a template names no namespace but the
    VM's (its own, else the request's)."""
    templates = items(mapping(vm.get("spec")).get("dataVolumeTemplates"))
    if not templates:
        return []
    target = text(mapping(vm.get("metadata")).get("namespace")) or namespace
    field = _TEMPLATES
    causes = []
    for idx, template in enumerate(templates):
        own = text(mapping(template.get("metadata")).get("namespace"))
        if own and own != target:
            causes.append(field.index(idx).cause(
                f"Embedded DataVolume namespace {own} differs from VM namespace {target}"))
    return causes
