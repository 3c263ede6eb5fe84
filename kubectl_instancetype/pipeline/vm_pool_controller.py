"""virt-controller's VirtualMachinePool controller: the VirtualMachines a ``pool.kubevirt.io`` pool creates
(pkg/virt-controller/watch/pool/pool.go, ``scaleOut`` and ``indexVMSpec``).

VM ``<pool>-<index>`` gets the pool's ``spec.virtualMachineTemplate``: its metadata's labels and
annotations, and its spec with the index appended to the names of the ``dataVolumeTemplates`` (and the
volumes that use them) and, as ``nameGeneration`` asks, to ConfigMap and Secret references. The template's
labels also get ``kubevirt.io/vm-pool-revision-name: <pool>-<pool generation>``, so the VMIs carry it.

A render shows a pool as its VMs would come out: :func:`pool_vm` is the VM a render expands (without an
index, so that the expansion can go back into the pool's template, :func:`with_template`) or starts (index
0, the first VM a pool creates).
"""

from __future__ import annotations

from typing import Any

from ..api.golang import child, clone_json
from ..api.names import CORE_API_VERSION, POOL_GROUP, VIRTUAL_MACHINE, VIRTUAL_MACHINE_POOL
from ..api.origin import Origins, named

Spec = dict[str, Any]
REVISION_LABEL = "kubevirt.io/vm-pool-revision-name"
FINALIZER = "pool.kubevirt.io/finalizer"
TEMPLATE = ("spec", "virtualMachineTemplate")  # where the VM template sits in a pool
POOL_SYNC = named("virt-controller's VirtualMachinePool controller (its first sync of the pool)")


def is_pool(data: Any) -> bool:
    """Whether ``data`` is a ``pool.kubevirt.io`` VirtualMachinePool."""
    return (
        isinstance(data, dict)
        and data.get("kind") == VIRTUAL_MACHINE_POOL
        and str(data.get("apiVersion", "")).split("/")[0] == POOL_GROUP
    )


def template_of(pool: Spec) -> Spec:
    """The pool's ``spec.virtualMachineTemplate`` (a mapping; empty when absent)."""
    template = (pool.get("spec") or {}).get("virtualMachineTemplate")
    return template if isinstance(template, dict) else {}


def pool_vm(pool: Spec, namespace: str, index: int | None) -> Spec:
    """The VM the pool creates with ``index`` (None: the template as it is, named as the first VM)."""
    meta = pool.get("metadata") or {}
    template = template_of(pool)
    template_meta = template.get("metadata") or {}
    vm_meta: Spec = {"name": f"{meta.get('name')}-{index or 0}", "namespace": meta.get("namespace") or namespace}
    for key in ("labels", "annotations"):
        if isinstance(template_meta.get(key), dict):
            vm_meta[key] = clone_json(template_meta[key])
    spec = clone_json(template.get("spec") or {})
    if index is not None:
        _index_spec(spec, index, (pool.get("spec") or {}).get("nameGeneration") or {})
        labels = child(child(child(spec, "template"), "metadata"), "labels")
        labels[REVISION_LABEL] = f"{meta.get('name')}-{_generation(meta)}"
        vm_meta["finalizers"] = [FINALIZER]
    return {"apiVersion": CORE_API_VERSION, "kind": VIRTUAL_MACHINE, "metadata": vm_meta, "spec": spec}


def stored_pool(pool: Spec, namespace: str, adds_finalizer: bool, book: Origins | None = None) -> Spec:
    """``pool`` as the cluster stores it after the pool controller's first sync: its template as written (no
    mutating webhook is registered for pools: virt-operator's webhooks.go registers the VM, VMI, migration and
    clone mutators; the VMs the controller creates each go through the VM webhook, one by one), its uid
    assigned, and, from v1.7, the controller's finalizer.

    KubeVirt surprise (pool.go ``addPoolFinalizer``): the finalizers are copied into a slice of length 0, so
    the patch replaces whatever finalizers the pool had with the controller's one alone.
    """
    from .stored import ASSIGNED, UID

    out = clone_json(pool)
    meta = child(out, "metadata")
    meta.setdefault("namespace", namespace)
    if not meta.get("uid"):
        meta["uid"] = ASSIGNED
        if book is not None:
            book.record(("metadata", "uid"), UID)
    if adds_finalizer and FINALIZER not in (meta.get("finalizers") or []):
        meta["finalizers"] = [FINALIZER]
        if book is not None:
            book.record(("metadata", "finalizers", 0), POOL_SYNC)
    return out


def with_template(pool: Spec, vm: Spec) -> Spec:
    """A copy of ``pool`` whose template spec is ``vm``'s spec (the template's metadata is kept)."""
    out = clone_json(pool)
    template = child(child(out, "spec"), "virtualMachineTemplate")
    template["spec"] = clone_json(vm.get("spec") or {})
    return out


def _generation(meta: Spec) -> int:
    value = meta.get("generation")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _index_spec(spec: Spec, index: int, naming: Spec) -> None:
    """``indexVMSpec``: the suffix ``-<index>`` on the names that must be unique per VM (in place)."""
    suffix = f"-{index}"
    renamed: dict[str, str] = {}
    for dvt in spec.get("dataVolumeTemplates") or []:
        meta = child(dvt, "metadata")
        renamed[str(meta.get("name"))] = f"{meta.get('name')}{suffix}"
        meta["name"] = renamed[str(meta.get("name"))]
    configmaps = naming.get("appendIndexToConfigMapRefs") is True
    secrets = naming.get("appendIndexToSecretRefs") is True
    for volume in ((spec.get("template") or {}).get("spec") or {}).get("volumes") or []:
        _index_volume(volume, renamed, suffix, configmaps, secrets)


def _index_volume(volume: Spec, renamed: dict[str, str], suffix: str, configmaps: bool, secrets: bool) -> None:
    """One volume of ``indexVMSpec``: only its first source KubeVirt checks is renamed."""
    if isinstance(volume.get("persistentVolumeClaim"), dict):
        claim = volume["persistentVolumeClaim"]
        claim["claimName"] = renamed.get(claim.get("claimName"), claim.get("claimName"))
    elif isinstance(volume.get("dataVolume"), dict):
        dv = volume["dataVolume"]
        dv["name"] = renamed.get(dv.get("name"), dv.get("name"))
    elif isinstance(volume.get("configMap"), dict):
        if configmaps:
            volume["configMap"]["name"] = f"{volume['configMap'].get('name') or ''}{suffix}"
    elif isinstance(volume.get("secret"), dict):
        if secrets:
            volume["secret"]["secretName"] = f"{volume['secret'].get('secretName') or ''}{suffix}"
    elif secrets:
        for source in ("cloudInitNoCloud", "cloudInitConfigDrive"):
            cloud_init = volume.get(source)
            if not isinstance(cloud_init, dict):
                continue
            # The Go field UserDataSecretRef is spelled secretRef in JSON (api/core/v1 CloudInitNoCloudSource).
            for ref in ("secretRef", "networkDataSecretRef"):
                if isinstance(cloud_init.get(ref), dict):
                    cloud_init[ref]["name"] = f"{cloud_init[ref].get('name') or ''}{suffix}"
            break
