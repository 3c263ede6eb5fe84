"""A VM's DataVolume templates in the VM webhook: ``ValidateDataVolumeTemplate`` (in ``ValidateVirtualMachineSpec``)
and the storage admitter ``VMsAdmitter`` runs last (pkg/storage/admitters/vm-storage-admitter.go, ``Admit``).

On create the storage admitter only checks the templates' namespaces: its snapshot and restore checks are for
updates (they compare with the old object and read ``status``).
"""

from __future__ import annotations

from ..config import ClusterConfig
from .cause import Cause, FieldPath, Spec
from .storage import data_volume_template


def data_volume_templates(field: FieldPath, vm_spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateDataVolumeTemplate`` of the VM spec at ``field``."""
    return data_volume_template.validate_data_volume_templates(field, vm_spec)


def storage_admit(vm: Spec, namespace: str, cfg: ClusterConfig) -> list[Cause]:
    """``storageadmitters.Admit`` on create, for ``vm`` as received in ``namespace``."""
    return data_volume_template.template_namespaces(vm, namespace)
