"""The launcher Pod: ``TemplateService.RenderLaunchManifest`` (``pkg/virt-controller/services/template.go``).

The steps in KubeVirt's order, so that the first error is KubeVirt's: the Multus networks' device resources
(a missing NetworkAttachmentDefinition), the resources, the sidecars (a network binding the CR does not
configure), the volumes (a missing claim), the containers, the annotations, and the Pod around them.
"""

from __future__ import annotations

import random
from typing import Any

from ..config import ClusterConfig
from . import containers, metadata, placement, settings, traits
from .cluster import Cluster
from .overhead import Overhead
from .resources import Requirements, render_resources
from .sidecars import Sidecar, sidecars
from .volumes import NETWORK, RenderError, VolumeOptions, render_volumes

Spec = dict[str, Any]
QEMU_TIMEOUT = 240
QEMU_JITTER = 120
DEFAULT_GRACE_PERIOD = 30
SHARE_DIR = "/var/run/kubevirt"


def network_resources(vmi: Spec, cfg: ClusterConfig, cluster: Cluster) -> dict[str, str] | None:
    """``multus.NetworkToResource``: each Multus network's device resource name (unless the cluster injects
    them, ExternalNetResourceInjection); RenderError for a NetworkAttachmentDefinition that does not exist."""
    if settings.gate(cfg, "ExternalNetResourceInjection"):
        return None
    namespace = str((vmi.get("metadata") or {}).get("namespace") or "default")
    out = {}
    for net in traits.networks(vmi):
        multus = net.get("multus")
        if not isinstance(multus, dict):
            continue
        full = str(multus.get("networkName") or "")
        ns, name = (full.split("/", 1) if "/" in full else (namespace, full))
        nad = cluster.get("NetworkAttachmentDefinition", ns, name)
        if nad is None:
            raise RenderError(f"failed to locate network attachment definition {ns}/{name}", NETWORK)
        out[str(net.get("name"))] = str(((nad.get("metadata") or {}).get("annotations") or {}).get(
            "k8s.v1.cni.cncf.io/resourceName", ""))
    return out


def _grace_period(vmi: Spec) -> int:
    value = traits.spec_of(vmi).get("terminationGracePeriodSeconds")
    return int(value) if isinstance(value, int) else DEFAULT_GRACE_PERIOD


def _launcher_args(vmi: Spec, cfg: ClusterConfig, hooks: int, non_root: bool, seed: int | None) -> list[str]:
    meta = vmi.get("metadata") or {}
    jitter = random.Random(seed).randrange(QEMU_JITTER) if seed is not None else 0
    args = [
        "--qemu-timeout", f"{QEMU_TIMEOUT + jitter}s",
        "--name", str(meta.get("name") or ""),
        "--uid", str(meta.get("uid") or ""),
        "--namespace", str(meta.get("namespace") or ""),
        "--kubevirt-share-dir", SHARE_DIR,
        "--ephemeral-disk-dir", SHARE_DIR + "-ephemeral-disks",
        "--container-disk-dir", SHARE_DIR + "/container-disks",
        "--grace-period-seconds", str(_grace_period(vmi) + 15),
        "--hook-sidecars", str(hooks),
        "--ovmf-path", settings.ovmf_path(cfg, str(traits.spec_of(vmi).get("architecture") or "")),
    ]
    if cfg.release.launcher_disk_memory_limit_flag:
        args += ["--disk-memory-limit", str(settings.disk_memory_limit(cfg))]
    if cfg.release.launcher_hypervisor_flag:
        args += ["--hypervisor", settings.hypervisor(cfg)]
    if non_root:
        args.append("--run-as-nonroot")
    if settings.gate(cfg, "ImageVolume"):
        args.append("--image-volume")
    if cfg.release.launcher_libvirt_hooks_flag and settings.gate(cfg, "LibvirtHooksServerAndClient"):
        args.append("--libvirt-hook-server-and-client")
    for gate, flag in (
                       ("PodSecondaryInterfaceNamingUpgrade", "--upgrade-ordinal-ifaces"),
                       ("VGPULiveMigration", "--vgpu-dedicated-hook"), ("VMStatsCollector", "--vm-stats-collector"),
                       ("FirmwareAutoSelection", "--firmware-auto-selection")):
        if settings.gate(cfg, gate):
            args.append(flag)
    filters = traits.vmi_annotations(vmi).get("kubevirt.io/libvirt-log-filters")
    if filters is not None:
        args += ["--libvirt-log-filters", filters]
    if settings.allow_emulation(cfg):
        args.append("--allow-emulation")
    if any(k.startswith("kubevirt.io/keep-launcher-alive-after-failure") and (v == "" or v.startswith("true"))
           for k, v in traits.vmi_annotations(vmi).items()):
        args.append("--keep-after-failure")
    if "kubevirt.io/func-test-launcher-fail-fast" in traits.vmi_annotations(vmi):
        args.append("--simulate-crash")
    return args


def render_manifest(vmi: Spec, cfg: ClusterConfig, cluster: Cluster, image: str, overhead: Overhead,
                    backend_pvc: str = "", seed: int | None = None) -> tuple[Spec, Requirements]:
    """The Pod virt-controller creates for ``vmi`` and its compute container's resources; RenderError."""
    meta = vmi.get("metadata") or {}
    spec = traits.spec_of(vmi)
    non_root = traits.is_non_root(vmi)
    user = containers.NON_ROOT_UID if non_root else 0
    net_resources = network_resources(vmi, cfg, cluster)
    requirements = render_resources(vmi, cfg, cluster, overhead, net_resources)
    hooks = sidecars(vmi, cfg)
    image_volumes = settings.gate(cfg, "ImageVolume")
    pull_policy = settings.image_pull_policy(cfg)
    bindings = settings.network_bindings(cfg)
    network_info = any(i.get("sriov") is not None or _device_info(i, bindings) for i in traits.interfaces(vmi))
    rendered = render_volumes(vmi, cluster, VolumeOptions(
        image_volumes=image_volumes, launcher_image=image, pull_policy=pull_policy, sidecars=len(hooks),
        plugins=settings.gate(cfg, "Plugins"), network_info=network_info, backend_pvc=backend_pvc,
        hugepages_medium=cfg.release.hugepages_dirs_both_hugepages_medium,
        skip_digest_annotation=cfg.release.image_volume_skip_digest_annotation))
    env, verbosity = containers.launcher_env(vmi, cfg)
    if cfg.release.env_per_network_resource:  # Go ranges over a map: the networks' order is not fixed there
        env = [{"name": f"KUBEVIRT_RESOURCE_NAME_{network}", **({"value": resource} if resource else {})}
               for network, resource in (net_resources or {}).items()] + env
    command, args = ["/usr/bin/virt-launcher-monitor"], _launcher_args(vmi, cfg, len(hooks), non_root, seed)
    if not cfg.release.launcher_flags_in_args:
        command, args = command + args, []
    compute = containers.container(
        "compute", image, pull_policy, user, capabilities=containers.capabilities_for(vmi, non_root),
        command=command, args=args,
        resources=requirements.to_json(), mounts=list(rendered.mounts), devices=list(rendered.devices),
        ports=containers.ports(vmi), shared_paths=rendered.shared_paths, env=env, probes=containers.probes(vmi),
        unprivileged_flag=not cfg.release.omits_unprivileged_flag)
    pod_containers = [compute]
    kernel = traits.kernel_boot_container(vmi)
    disks = any(isinstance(v.get("containerDisk"), dict) for v in traits.volumes(vmi)) or kernel is not None
    if not image_volumes:
        pod_containers += containers.container_disk_containers(vmi, cfg, init=False)
    pod_containers += containers.virtiofs_containers(vmi, cfg, image)
    pod_containers += [h.render(vmi, cfg, index, user) for index, h in enumerate(hooks)]
    annotations = metadata.pod_annotations(vmi, cfg)
    if settings.gate(cfg, "VmiMemoryOverheadReport"):
        annotations["kubevirt.io/memory-overhead-bytes"] = str(overhead.total.value())
    init: list[Spec] = []
    console = containers.console_log(vmi, cfg, image, verbosity)
    if console is not None:
        init.append(console)
    if not image_volumes and disks:
        init.append(containers.copy_binary_init(vmi, cfg, image, user))
        init += containers.container_disk_containers(vmi, cfg, init=True)
    elif image_volumes:
        init += containers.image_volume_inits(vmi, cfg)
    hostname = str(spec.get("hostname") or str(meta.get("name") or "").split(".")[0][:63])
    pod_spec: Spec = {
        "hostname": hostname,
        "subdomain": spec.get("subdomain"),
        "securityContext": _pod_security(non_root, settings.seccomp_profile(cfg)),
        "terminationGracePeriodSeconds": _grace_period(vmi) + 30,
        "restartPolicy": "Never",
        "containers": pod_containers,
        "initContainers": init,
        "nodeSelector": placement.node_selector(vmi, cfg),
        "volumes": list(rendered.volumes),
        "imagePullSecrets": _pull_secrets(vmi),
        "dnsConfig": spec.get("dnsConfig"),
        "dnsPolicy": spec.get("dnsPolicy"),
        "readinessGates": [{"conditionType": "kubevirt.io/virtual-machine-unpaused"}],
        "enableServiceLinks": False,
        "schedulerName": spec.get("schedulerName"),
        "tolerations": spec.get("tolerations"),
        "topologySpreadConstraints": spec.get("topologySpreadConstraints"),
        "resourceClaims": _resource_claims(spec),
    }
    _align_selinux(pod_spec, settings.selinux_launcher_type(cfg), settings.gate(cfg, "DockerSELinuxMCSWorkaround"))
    runtime_class = settings.default_runtime_class(cfg)
    if runtime_class:
        pod_spec["runtimeClassName"] = runtime_class
    if spec.get("priorityClassName"):
        pod_spec["priorityClassName"] = spec["priorityClassName"]
    pod_spec["affinity"] = placement.affinity(vmi)
    account = _service_account_volume(vmi)
    if spec.get("serviceAccountName"):
        pod_spec["serviceAccountName"] = spec["serviceAccountName"]
    elif account:
        pod_spec["serviceAccountName"] = account
    istio = traits.vmi_annotations(vmi).get("sidecar.istio.io/inject", "").lower() == "true"
    pod_spec["automountServiceAccountToken"] = bool(account) or istio
    pod = {
        "metadata": {
            "generateName": f"virt-launcher-{meta.get('name')}-",
            "labels": metadata.labels(vmi, hostname, cfg.release.labels_vmi_id),
            "annotations": annotations,
            "ownerReferences": [{"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
                                 "name": meta.get("name"), "uid": str(meta.get("uid") or ""),
                                 "controller": True, "blockOwnerDeletion": True}],
        },
        "spec": {k: v for k, v in pod_spec.items() if v not in (None, "", [], {})
                 or k in ("enableServiceLinks", "automountServiceAccountToken")},
        "status": {},
    }
    return pod, requirements


def _align_selinux(pod_spec: Spec, selinux_type: str, mcs_workaround: bool) -> None:
    """``alignPodMultiCategorySecurity``: the CR's launcher SELinux type on the Pod; with the Docker MCS
    workaround, that type and level s0 on every container but compute."""
    if selinux_type:
        pod_spec["securityContext"]["seLinuxOptions"] = {"type": selinux_type}
    if mcs_workaround:
        for c in pod_spec["containers"]:
            if c.get("name") != "compute":
                options = c.setdefault("securityContext", {}).setdefault("seLinuxOptions", {})
                if selinux_type:
                    options["type"] = selinux_type
                options["level"] = "s0"


def _resource_claims(spec: Spec) -> list[Spec]:
    """``drautil.ToPodResourceClaims``: the VMI's resource claims as the Pod's."""
    out = []
    for claim in spec.get("resourceClaims") or ():
        if isinstance(claim, dict):
            out.append({k: claim[k] for k in ("name", "resourceClaimName", "resourceClaimTemplateName")
                        if claim.get(k)})
    return out


def _device_info(iface: Spec, bindings: dict[str, Spec]) -> bool:
    binding = iface.get("binding")
    if not isinstance(binding, dict):
        return False
    plugin = bindings.get(str(binding.get("name")))
    return isinstance(plugin, dict) and plugin.get("downwardAPI") == "device-info"


def _pod_security(non_root: bool, seccomp: Spec | None) -> Spec:
    out: Spec = {"fsGroup": containers.NON_ROOT_UID}
    if non_root:
        out.update(runAsUser=containers.NON_ROOT_UID, runAsGroup=containers.NON_ROOT_UID, runAsNonRoot=True)
    else:
        out["runAsUser"] = 0
    if seccomp is not None:
        out["seccompProfile"] = seccomp
    return out


def _pull_secrets(vmi: Spec) -> list[Spec]:
    out: list[Spec] = []
    names = [(v.get("containerDisk") or {}).get("imagePullSecret") for v in traits.volumes(vmi)
             if isinstance(v.get("containerDisk"), dict)]
    kernel = traits.kernel_boot_container(vmi)
    if kernel is not None:
        names.append(kernel.get("imagePullSecret"))
    for name in names:
        if name and {"name": name} not in out:
            out.append({"name": name})
    return out


def _service_account_volume(vmi: Spec) -> str:
    for vol in traits.volumes(vmi):
        account = vol.get("serviceAccount")
        if isinstance(account, dict):
            return str(account.get("serviceAccountName") or "")
    return ""


__all__ = ["RenderError", "Sidecar", "render_manifest"]
