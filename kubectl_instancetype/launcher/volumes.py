"""The launcher Pod's volumes, the compute container's mounts and block devices: ``VolumeRenderer``.

``pkg/virt-controller/services/rendervolumes.go`` and ``newVolumeRenderer`` in ``template.go``: KubeVirt's
own empty directories, then the VMI's config volumes (Secrets, ConfigMaps, downward API), its claims (a
``Block`` claim is a device at ``/dev/<volume>``, a ``Filesystem`` claim is mounted under
``/var/run/kubevirt-private/vmi-disks/<volume>``; a missing claim is KubeVirt's render error), cloud-init
secrets, access credentials, the backend-storage claim, image volumes for container disks, sidecar and
plugin sockets, hugepages, the hotplug directory, the network-info downward API and virtiofs.
"""

from __future__ import annotations

from typing import Any

from ..records import dataclass
from . import traits
from .cluster import Cluster

Spec = dict[str, Any]
PRIVATE = "/var/run/kubevirt-private"
SHARE = "/var/run/kubevirt"
EPHEMERAL = "/var/run/kubevirt-ephemeral-disks"
CONTAINER_DISKS = "/var/run/kubevirt/container-disks"
HOTPLUG_DISKS = "/var/run/kubevirt/hotplug-disks"
SECRETS = "/var/run/kubevirt-private/secret"
CONFIGMAPS = "/var/run/kubevirt-private/config-map"
DOWNWARD_API = "/var/run/kubevirt-private/downwardapi"
SYSPREP = "/var/run/kubevirt-private/sysprep"
DOWNWARD_METRICS = "/var/run/kubevirt-private/downwardmetric-disk"
IMAGE_VOLUMES = "/var/run/kubevirt-image-volume"
KERNEL_BOOT_DIR = "/var/run/kubevirt-kernel-boot"
KERNEL_BOOT_VOLUME = "kernel-boot-volume"
LAUNCHER_VOLUME = "launcher-volume"
HOOK_SOCKETS = "/var/run/kubevirt-hooks"
SKIP_DIGEST = "kubevirt.io/image-volume-skip-digest-resolution"
NETWORK_INFO_VOLUME = "network-info-annotation"
NETWORK_INFO_ANNOTATION = "kubevirt.io/network-info"


CLAIM, NETWORK, BINDING, STORAGE_CLASS, OTHER = "claim", "network", "binding", "storage-class", "other"


class RenderError(Exception):
    """A render error virt-controller reports (without the ``failed to render launch manifest`` prefix);
    ``reason`` says which cluster objects decided it (CLAIM, NETWORK, BINDING, STORAGE_CLASS or OTHER)."""

    def __init__(self, message: str, reason: str = OTHER) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class VolumeOptions:
    """What decides the optional parts of the volume render."""

    image_volumes: bool
    launcher_image: str
    pull_policy: str
    sidecars: int
    plugins: bool
    network_info: bool
    backend_pvc: str
    hugepages_medium: bool = True
    skip_digest_annotation: bool = True
    container_disk_emptydir: bool = False


@dataclass(frozen=True)
class Rendered:
    volumes: tuple[Spec, ...]
    mounts: tuple[Spec, ...]
    devices: tuple[Spec, ...]
    shared_paths: tuple[str, ...]


def empty_dir(name: str, medium: str = "") -> Spec:
    return {"name": name, "emptyDir": {"medium": medium} if medium else {}}


def mount(name: str, path: str, read_only: bool = False, sub_path: str = "", propagation: str = "") -> Spec:
    out: Spec = {"name": name, "mountPath": path}
    if read_only:
        out["readOnly"] = True
    if sub_path:
        out["subPath"] = sub_path
    if propagation:
        out["mountPropagation"] = propagation
    return out


def render_volumes(vmi: Spec, cluster: Cluster, opts: VolumeOptions) -> Rendered:
    """The volume render of ``vmi``; RenderError for a claim virt-controller cannot find."""
    v = _Builder()
    _config_volumes(v, vmi)
    _vmi_volumes(v, vmi, cluster)
    _access_credentials(v, vmi)
    _backend_storage(v, vmi, opts.backend_pvc)
    if opts.image_volumes:
        _image_volumes(v, vmi, opts)
    if opts.sidecars:
        v.volumes.append(empty_dir("hook-sidecar-sockets"))
        v.mounts.append(mount("hook-sidecar-sockets", HOOK_SOCKETS))
    if opts.plugins:
        v.volumes.append(empty_dir("kubevirt-plugin-sockets"))
        v.mounts.append(mount("kubevirt-plugin-sockets", "/var/run/kubevirt-plugin"))
    if traits.has_hugepages(vmi):
        medium = "HugePages" if opts.hugepages_medium else ""
        v.volumes.append(empty_dir("hugepages", "HugePages"))
        v.mounts.append(mount("hugepages", "/dev/hugepages"))
        v.volumes.append(empty_dir("hugetblfs-dir", medium))
        v.mounts.append(mount("hugetblfs-dir", "/dev/hugepages/libvirt/qemu"))
    if not traits.devices(vmi).get("disableHotplug"):
        v.mounts.append(mount("hotplug-disks", HOTPLUG_DISKS, propagation="HostToContainer"))
        v.volumes.append(empty_dir("hotplug-disks"))
    if opts.network_info:
        v.mounts.append(mount(NETWORK_INFO_VOLUME, "/etc/podinfo"))
        v.volumes.append({"name": NETWORK_INFO_VOLUME, "downwardAPI": {"items": [
            {"path": "network-info",
             "fieldRef": {"fieldPath": f"metadata.annotations['{NETWORK_INFO_ANNOTATION}']"}}]}})
    if traits.has_virtiofs(vmi):
        v.mounts.append(mount("virtiofs-containers", "/var/run/kubevirt/virtiofs-containers"))
        v.volumes.append(empty_dir("virtiofs-containers"))
    base_mounts = [mount("private", PRIVATE), mount("public", SHARE), mount("ephemeral-disks", EPHEMERAL),
                   mount("libvirt-runtime", "/var/run/libvirt"), mount("sockets", SHARE + "/sockets")]
    base_volumes = [empty_dir(n) for n in ("private", "public", "sockets", "virt-bin-share-dir", "libvirt-runtime",
                                           "ephemeral-disks")]
    if not opts.image_volumes:
        base_mounts.append(mount("container-disks", CONTAINER_DISKS, propagation="HostToContainer"))
        base_volumes.append(empty_dir("container-disks"))
    return Rendered(tuple(base_volumes + v.volumes), tuple(base_mounts + v.mounts), tuple(v.devices),
                    tuple(v.shared))


class _Builder:
    def __init__(self) -> None:
        self.volumes: list[Spec] = []
        self.mounts: list[Spec] = []
        self.devices: list[Spec] = []
        self.shared: list[str] = []


def _config_volumes(v: _Builder, vmi: Spec) -> None:
    """``withVMIConfigVolumes``: Secret, ConfigMap and downward API volumes; mounted when a disk uses them."""
    by_name: dict[Any, Spec] = {}
    for vol in traits.volumes(vmi):
        by_name[vol.get("name")] = vol
        if isinstance(vol.get("secret"), dict):
            secret = vol["secret"]
            v.volumes.append({"name": vol["name"], "secret": _keep(secret, "secretName", "optional")})
        if isinstance(vol.get("configMap"), dict):
            v.volumes.append({"name": vol["name"], "configMap": _keep(vol["configMap"], "name", "optional")})
        if isinstance(vol.get("downwardAPI"), dict):
            v.volumes.append({"name": vol["name"], "downwardAPI": _keep({"items": vol["downwardAPI"].get("fields")},
                                                                       "items")})
    for disk in traits.devices(vmi).get("disks") or ():
        found = by_name.get(disk.get("name")) if isinstance(disk, dict) else None
        if found is None:
            continue
        vol = found
        for key, base in (("secret", SECRETS), ("configMap", CONFIGMAPS), ("downwardAPI", DOWNWARD_API)):
            if isinstance(vol.get(key), dict):
                v.mounts.append(mount(vol["name"], f"{base}/{vol['name']}", read_only=True))


def _keep(source: Spec, *keys: str) -> Spec:
    return {k: source[k] for k in keys if source.get(k) is not None}


def _hotplugged(vmi: Spec) -> set[str]:
    names = {s.get("name") for s in (vmi.get("status") or {}).get("volumeStatus") or ()
             if isinstance(s, dict) and s.get("hotplugVolume") is not None}
    for vol in traits.volumes(vmi):
        for key in ("dataVolume", "persistentVolumeClaim"):
            if isinstance(vol.get(key), dict) and vol[key].get("hotpluggable"):
                names.add(vol.get("name"))
    return {str(n) for n in names}


def _vmi_volumes(v: _Builder, vmi: Spec, cluster: Cluster) -> None:
    """``withVMIVolumes``: claims, DataVolumes, ephemeral claims, host disks, downward metrics, cloud-init."""
    namespace = (vmi.get("metadata") or {}).get("namespace") or "default"
    hotplugged = _hotplugged(vmi)
    for vol in traits.volumes(vmi):
        name = str(vol.get("name"))
        if name in hotplugged:
            continue
        if isinstance(vol.get("persistentVolumeClaim"), dict):
            claim = vol["persistentVolumeClaim"]
            _claim(v, cluster, namespace, name, str(claim.get("claimName") or ""))
            v.volumes.append({"name": name, "persistentVolumeClaim": _keep(claim, "claimName", "readOnly")
                              if claim.get("readOnly") else _keep(claim, "claimName")})
        if isinstance(vol.get("ephemeral"), dict):
            claim = vol["ephemeral"].get("persistentVolumeClaim") or {}
            _claim(v, cluster, namespace, name, str(claim.get("claimName") or ""))
            v.volumes.append({"name": name, "persistentVolumeClaim": claim})
        if isinstance(vol.get("hostDisk"), dict):
            host = vol["hostDisk"]
            kind = {"Disk": "Directory", "DiskOrCreate": "DirectoryOrCreate"}.get(str(host.get("type")), "")
            v.mounts.append(mount(name, f"{PRIVATE}/vmi-disks/{name}"))
            v.volumes.append({"name": name, "hostPath": {"path": _dirname(str(host.get("path") or "")), "type": kind}})
        if isinstance(vol.get("dataVolume"), dict):
            claim_name = str(vol["dataVolume"].get("name") or "")
            _claim(v, cluster, namespace, name, claim_name)
            v.volumes.append({"name": name, "persistentVolumeClaim": {"claimName": claim_name}})
        if vol.get("downwardMetrics") is not None:
            v.volumes.append({"name": name, "emptyDir": {"medium": "Memory", "sizeLimit": "1Mi"}})
            v.mounts.append(mount(name, DOWNWARD_METRICS))
        for key in ("cloudInitNoCloud",):
            if isinstance(vol.get(key), dict):
                _cloud_init_secrets(v, name, vol[key])
        if isinstance(vol.get("sysprep"), dict):
            _sysprep(v, name, vol["sysprep"])
        if isinstance(vol.get("cloudInitConfigDrive"), dict):
            _cloud_init_secrets(v, name, vol["cloudInitConfigDrive"])


def _dirname(path: str) -> str:
    """Go's ``filepath.Dir``."""
    import posixpath

    head = posixpath.dirname(path.rstrip("/") if path not in ("", "/") else path) if "/" in path else "."
    return posixpath.normpath(head) if head else "."


def _claim(v: _Builder, cluster: Cluster, namespace: str, volume: str, claim_name: str) -> None:
    pvc = cluster.pvc(namespace, claim_name)
    if pvc is None:
        raise RenderError(f"didn't find PVC {claim_name}", CLAIM)
    spec = pvc.get("spec") or {}
    if spec.get("volumeMode") == "Block":
        v.devices.append({"name": volume, "devicePath": f"/dev/{volume}"})
        return
    path = f"{PRIVATE}/vmi-disks/{volume}"
    v.mounts.append(mount(volume, path))
    if "ReadWriteMany" in (spec.get("accessModes") or ()):
        v.shared.append(path)


def _cloud_init_secrets(v: _Builder, name: str, source: Spec) -> None:
    for ref, suffix, lower, upper in (("secretRef", "udata", "userdata", "userData"),
                                      ("networkDataSecretRef", "ndata", "networkdata", "networkData")):
        secret = source.get(ref)
        if not isinstance(secret, dict):
            continue
        volume = f"{name}-{suffix}"
        v.volumes.append({"name": volume, "secret": {"secretName": secret.get("name")}})
        for sub in (lower, upper):
            v.mounts.append(mount(volume, f"{SECRETS}/{name}/{sub}", read_only=True, sub_path=sub))


def _sysprep(v: _Builder, name: str, source: Spec) -> None:
    if isinstance(source.get("secret"), dict):
        v.volumes.append({"name": name, "secret": {"secretName": source["secret"].get("name")}})
    elif isinstance(source.get("configMap"), dict):
        v.volumes.append({"name": name, "configMap": {"name": source["configMap"].get("name")}})
    else:
        raise RenderError(f"Sysprep must have Secret or ConfigMap reference set {source}")
    v.mounts.append(mount(name, f"{SYSPREP}/{name}", read_only=True))


def _access_credentials(v: _Builder, vmi: Spec) -> None:
    for cred in traits.spec_of(vmi).get("accessCredentials") or ():
        if not isinstance(cred, dict):
            continue
        secret = ""
        for key in ("sshPublicKey", "userPassword"):
            source = ((cred.get(key) or {}).get("source") or {}).get("secret")
            if isinstance(source, dict):
                secret = str(source.get("secretName") or "")
                break
        if not secret:
            continue
        volume = secret + "-access-cred"
        v.volumes.append({"name": volume, "secret": {"secretName": secret}})
        v.mounts.append(mount(volume, f"{SECRETS}/{volume}", read_only=True))


def persistent_tpm(vmi: Spec) -> bool:
    return traits.has_tpm(vmi) and (traits.devices(vmi).get("tpm") or {}).get("persistent") is True


def persistent_efi(vmi: Spec) -> bool:
    efi = ((traits.domain(vmi).get("firmware") or {}).get("bootloader") or {}).get("efi")
    return isinstance(efi, dict) and efi.get("persistent") is True


def cbt_enabled(vmi: Spec) -> bool:
    state = ((vmi.get("status") or {}).get("changedBlockTracking") or {}).get("state")
    return state in ("Initializing", "Enabled")


def backend_storage_needed(vmi: Spec) -> bool:
    return persistent_tpm(vmi) or persistent_efi(vmi) or cbt_enabled(vmi)


def _backend_storage(v: _Builder, vmi: Spec, claim: str) -> None:
    if not backend_storage_needed(vmi):
        return
    v.volumes.append({"name": "vm-state", "persistentVolumeClaim": {"claimName": claim}})
    v.mounts.append(mount("vm-state", "/run/kubevirt-private/backend-storage-meta", sub_path="meta"))
    non_root = traits.is_non_root(vmi)
    if non_root:
        v.volumes += [empty_dir("private-libvirt"), empty_dir("private-libvirt-qemu")]
        v.mounts += [mount("private-libvirt", PRIVATE + "/libvirt"),
                     mount("private-libvirt-qemu", PRIVATE + "/libvirt/qemu")]
    if persistent_tpm(vmi):
        swtpm = PRIVATE + "/libvirt/qemu/swtpm" if non_root else "/var/lib/libvirt/swtpm"
        localca = PRIVATE + "/var/lib/swtpm-localca" if non_root else "/var/lib/swtpm-localca"
        v.mounts += [mount("vm-state", swtpm, sub_path="swtpm"), mount("vm-state", localca, sub_path="swtpm-localca")]
    if persistent_efi(vmi):
        nvram = PRIVATE + "/libvirt/qemu/nvram" if non_root else "/var/lib/libvirt/qemu/nvram"
        v.mounts.append(mount("vm-state", nvram, sub_path="nvram"))
    if cbt_enabled(vmi):
        v.mounts.append(mount("vm-state", PRIVATE + "/libvirt/qemu/cbt" if non_root else "/var/lib/libvirt/qemu/cbt",
                              sub_path="cbt"))


def _image(source: Spec) -> Spec:
    """An image volume source (Go leaves out an empty reference or pull policy)."""
    out = {"reference": source.get("image"), "pullPolicy": source.get("imagePullPolicy")}
    return {k: v for k, v in out.items() if v}


def _image_volumes(v: _Builder, vmi: Spec, opts: VolumeOptions) -> None:
    """``withImageVolumes``: each container disk an image volume mounted at ``disk_<index>``."""
    any_disk = False
    for index, vol in enumerate(traits.spec_of(vmi).get("volumes") or ()):
        if isinstance(vol, dict) and isinstance(vol.get("containerDisk"), dict):
            any_disk = True
            disk = vol["containerDisk"]
            v.volumes.append({"name": vol.get("name"), "image": _image(disk)})
            v.mounts.append(mount(str(vol.get("name")), f"{IMAGE_VOLUMES}/disk_{index}", read_only=True))
    kernel = traits.kernel_boot_container(vmi)
    if kernel is not None:
        v.volumes.append({"name": KERNEL_BOOT_VOLUME, "image": _image(kernel)})
        v.mounts.append(mount(KERNEL_BOOT_VOLUME, KERNEL_BOOT_DIR, read_only=True))
    skip = opts.skip_digest_annotation and traits.vmi_annotations(vmi).get(SKIP_DIGEST) == "true"
    if not skip and (any_disk or kernel is not None):
        v.volumes.append({"name": LAUNCHER_VOLUME, "image": {"reference": opts.launcher_image,
                                                             "pullPolicy": opts.pull_policy}})
