"""The launcher Pod's containers: compute, init containers (guest console log, container-disk digests),
sidecars: ``ContainerSpecRenderer`` and its callers.

``pkg/virt-controller/services/rendercontainer.go``, ``serialconsolelog.go``, ``template.go``
(``newContainerSpecRenderer``, ``newSidecarContainerRenderer``, ``sidecarResources``) and
``pkg/container-disk`` (``CreateImageVolumeInitContainer``, ``getMinimalInitContainerDiskResources``).
"""

from __future__ import annotations

from typing import Any

from ..config import ClusterConfig
from ..quantity import Quantity
from . import settings, traits
from .arith import must, text

Spec = dict[str, Any]
NON_ROOT_UID = 107
PRIVATE = "/var/run/kubevirt-private"
EXT_LOG_VERBOSITY_THRESHOLD = 5


def security_context(user: int, capabilities: Spec | None, unprivileged_flag: bool = False) -> Spec:
    """``securityContext``: the user, non-root when it is not 0, no privilege escalation then (``privileged:
    false`` written too when the release does)."""
    out: Spec = {"runAsUser": user, "runAsNonRoot": user != 0}
    if unprivileged_flag:
        out["privileged"] = False
    if capabilities:
        out["capabilities"] = capabilities
    if user != 0:
        out["runAsGroup"] = user
        out["allowPrivilegeEscalation"] = False
    return out


def xdg_env() -> list[Spec]:
    return [{"name": "XDG_CACHE_HOME", "value": PRIVATE}, {"name": "XDG_CONFIG_HOME", "value": PRIVATE},
            {"name": "XDG_RUNTIME_DIR", "value": "/var/run"}]


def container(name: str, image: str, pull_policy: str, user: int, *, capabilities: Spec | None = None,
              command: list[str] | None = None, args: list[str] | None = None, resources: Spec | None = None,
              mounts: list[Spec] | None = None, devices: list[Spec] | None = None, ports: list[Spec] | None = None,
              shared_paths: tuple[str, ...] = (), env: list[Spec] | None = None, probes: Spec | None = None,
              unprivileged_flag: bool = False) -> Spec:
    """``ContainerSpecRenderer.Render``."""
    environment = xdg_env() if user != 0 else []
    if shared_paths:
        environment.append({"name": "SHARED_FILESYSTEM_PATHS", "value": ":".join(shared_paths)})
    environment += env or []
    out: Spec = {"name": name, "image": image, "imagePullPolicy": pull_policy,
                 "securityContext": security_context(user, capabilities, unprivileged_flag)}
    for key, value in (("command", command), ("volumeDevices", devices), ("volumeMounts", mounts),
                       ("ports", ports), ("env", environment), ("args", args)):
        if value:
            out[key] = value
    out["resources"] = resources or {}  # a struct in Go: printed even when empty
    out.update(probes or {})
    out["terminationMessagePolicy"] = "FallbackToLogsOnError"
    return out


def capabilities_for(vmi: Spec, non_root: bool) -> Spec:
    """``WithCapabilities`` then, for a non-root launcher, ``WithDropALLCapabilities``."""
    add = ["NET_BIND_SERVICE"] if non_root else ["NET_BIND_SERVICE", "SYS_NICE"]
    out: Spec = {"add": add}
    if non_root:
        out["drop"] = ["ALL"]
    return out


def ports(vmi: Spec) -> list[Spec]:
    out = []
    for iface in traits.interfaces(vmi):
        for port in iface.get("ports") or ():
            if isinstance(port, dict):
                entry: Spec = {"containerPort": port.get("port"), "protocol": port.get("protocol") or "TCP"}
                if port.get("name"):
                    entry["name"] = port["name"]
                out.append(entry)
    return out


def launcher_env(vmi: Spec, cfg: ClusterConfig) -> tuple[list[Spec], int]:
    """The compute container's log settings from the VMI's labels and the CR; the verbosity in force."""
    env: list[Spec] = []
    verbosity = settings.launcher_verbosity(cfg)
    labels = traits.labels(vmi)
    if "logVerbosity" in labels or verbosity != settings.DEFAULT_LAUNCHER_VERBOSITY:
        text = str(verbosity)
        if "logVerbosity" in labels:
            text = labels["logVerbosity"]
            verbosity = int(text) if text.isdigit() else verbosity
        env.append({"name": "VIRT_LAUNCHER_LOG_VERBOSITY", "value": text})
    if str(labels.get("debugLogs", "")).lower() == "true" or verbosity > EXT_LOG_VERBOSITY_THRESHOLD:
        env.append({"name": "LIBVIRT_DEBUG_LOGS", "value": "1"})
    if str(labels.get("virtiofsdDebugLogs", "")).lower() == "true" or verbosity > EXT_LOG_VERBOSITY_THRESHOLD:
        env.append({"name": "VIRTIOFSD_DEBUG_LOGS", "value": "1"})
    env.append({"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}})
    return env, verbosity


def _support(cfg: ClusterConfig, kind: str, which: str, resource: str, default: str) -> Quantity:
    return settings.support_container(cfg, kind, which, resource) or must(default)


def _json(resources: dict[str, dict[str, Quantity]]) -> Spec:
    return {which: {k: text(v) for k, v in sorted(values.items())} for which, values in resources.items() if values}


def console_log(vmi: Spec, cfg: ClusterConfig, image: str, verbosity: int) -> Spec | None:
    """The ``guest-console-log`` sidecar init container (``serialconsolelog.go``), unless disabled."""
    dev = traits.devices(vmi)
    if dev.get("autoattachSerialConsole") is False:
        return None
    if dev.get("logSerialConsole") is not None:
        if not dev["logSerialConsole"]:
            return None
    elif (cfg.raw.get("virtualMachineOptions") or {}).get("disableSerialConsoleLog") is not None:
        return None
    uid = (vmi.get("metadata") or {}).get("uid") or ""
    requests = {"memory": _support(cfg, "guest-console-log", "requests", "memory", "35M"),
                "cpu": _support(cfg, "guest-console-log", "requests", "cpu", "5m")}
    limits = {"memory": _support(cfg, "guest-console-log", "limits", "memory", "60M"),
              "cpu": _support(cfg, "guest-console-log", "limits", "cpu", "15m")}
    if traits.is_cpu_dedicated(vmi) or traits.wants_guaranteed_qos(vmi):
        requests = dict(limits)
    return {
        "name": "guest-console-log", "image": image, "imagePullPolicy": settings.image_pull_policy(cfg),
        "command": ["/usr/bin/virt-tail"], "args": ["--logfile", f"{PRIVATE}/{uid}/virt-serial0-log"],
        "volumeMounts": [{"name": "private", "mountPath": PRIVATE, "readOnly": True}],
        "resources": _json({"limits": limits, "requests": requests}),
        "securityContext": {"runAsUser": NON_ROOT_UID, "runAsNonRoot": True, "allowPrivilegeEscalation": False,
                            "capabilities": {"drop": ["ALL"]}},
        "restartPolicy": "Always",
        "env": [{"name": "VIRT_LAUNCHER_LOG_VERBOSITY", "value": str(verbosity)}],
    }


def disk_init_resources(vmi: Spec, cfg: ClusterConfig) -> Spec:
    """``getMinimalInitContainerDiskResources``."""
    requests = {"cpu": _support(cfg, "container-disk", "requests", "cpu", "1m"),
                "memory": _support(cfg, "container-disk", "requests", "memory", "1M"),
                "ephemeral-storage": must("50M")}
    limits = {"cpu": _support(cfg, "container-disk", "limits", "cpu", "10m"),
              "memory": _support(cfg, "container-disk", "limits", "memory", "40M")}
    if traits.is_cpu_dedicated(vmi) or traits.wants_guaranteed_qos(vmi):
        requests["cpu"], requests["memory"] = limits["cpu"], limits["memory"]
    return _json({"limits": limits, "requests": requests})


def image_volume_init(vmi: Spec, cfg: ClusterConfig, name: str, image: Any, pull_policy: Any) -> Spec:
    """``CreateImageVolumeInitContainer``: resolves a container disk's digest, does nothing else."""
    out: Spec = {"name": f"volume{name}"}
    if image:
        out["image"] = image
    if pull_policy:
        out["imagePullPolicy"] = pull_policy
    out.update({
        "command": ["/container-disk-binary/usr/bin/container-disk"], "args": ["--no-op"],
        "resources": disk_init_resources(vmi, cfg),
        "securityContext": {"runAsUser": NON_ROOT_UID, "runAsNonRoot": True, "allowPrivilegeEscalation": False,
                            "capabilities": {"drop": ["ALL"]}},
        "volumeMounts": [{"name": "launcher-volume", "mountPath": "/container-disk-binary", "readOnly": True}],
    })
    return out


def image_volume_inits(vmi: Spec, cfg: ClusterConfig) -> list[Spec]:
    skip = traits.vmi_annotations(vmi).get("kubevirt.io/image-volume-skip-digest-resolution") == "true"
    if skip and cfg.release.image_volume_skip_digest_annotation:
        return []
    out = []
    for vol in traits.volumes(vmi):
        disk = vol.get("containerDisk")
        if isinstance(disk, dict):
            out.append(image_volume_init(vmi, cfg, str(vol.get("name")), disk.get("image"),
                                         disk.get("imagePullPolicy")))
    kernel = traits.kernel_boot_container(vmi)
    if kernel is not None:
        out.append(image_volume_init(vmi, cfg, "kernel-boot-volume", kernel.get("image"),
                                     kernel.get("imagePullPolicy")))
    return out


def sidecar_resources(vmi: Spec, cfg: ClusterConfig) -> Spec:
    """``sidecarResources``: the CR's sidecar requests and limits (fixed limits for dedicated CPUs)."""
    requests: dict[str, Quantity] = {}
    limits: dict[str, Quantity] = {}
    for res in ("cpu", "memory"):
        q = settings.support_container(cfg, "sidecar", "requests", res)
        if q is not None:
            requests[res] = q
    if traits.is_cpu_dedicated(vmi) or traits.wants_guaranteed_qos(vmi):
        limits["cpu"] = settings.support_container(cfg, "sidecar", "limits", "cpu") or must("200m")
        limits["memory"] = settings.support_container(cfg, "sidecar", "limits", "memory") or must("64M")
        requests["cpu"], requests["memory"] = limits["cpu"], limits["memory"]
    else:
        for res in ("cpu", "memory"):
            q = settings.support_container(cfg, "sidecar", "limits", res)
            if q is not None:
                limits[res] = q
    return _json({"limits": limits, "requests": requests})


LIBVIRT_STARTUP_DELAY = 10


def probes(vmi: Spec) -> Spec:
    """``WithReadinessProbe``/``WithLivelinessProbe``: the VMI's probes with KubeVirt's defaults, an exec or
    guest-agent ping wrapped in ``virt-probe`` (one second more to answer), 10 s later for libvirt to start."""
    out: Spec = {}
    spec = traits.spec_of(vmi)
    meta = vmi.get("metadata") or {}
    domain = f"{meta.get('namespace') or ''}_{meta.get('name') or ''}"
    for key, field_name in (("livenessProbe", "livenessProbe"), ("readinessProbe", "readinessProbe")):
        probe = spec.get(key)
        if isinstance(probe, dict):
            out[field_name] = _probe(probe, domain)
    return out


def _int(probe: Spec, key: str) -> int:
    value = probe.get(key)
    return value if isinstance(value, int) else 0


def _probe(probe: Spec, domain: str) -> Spec:
    timeout, period, success, failure, delay = (_int(probe, key) for key in (
        "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold", "initialDelaySeconds"))
    timeout, period = timeout if timeout >= 1 else 1, period if period >= 1 else 10
    success, failure = success if success >= 1 else 1, failure if failure >= 1 else 3
    out: Spec = {}
    for key in ("exec", "httpGet", "tcpSocket"):
        if isinstance(probe.get(key), dict):
            out[key] = dict(probe[key])
    if probe.get("guestAgentPing") is not None:
        out["exec"] = {"command": ["virt-probe", "--domainName", domain, "--timeoutSeconds", str(timeout),
                                   "--guestAgentPing"]}
        timeout += 1
    elif isinstance(out.get("exec"), dict):
        command = list(out["exec"].get("command") or [])
        if command and command[0] != "virt-probe":
            out["exec"] = {**out["exec"], "command": ["virt-probe", "--domainName", domain, "--timeoutSeconds",
                                                      str(timeout), "--command", command[0], "--", *command[1:]]}
            timeout += 1
    delay += LIBVIRT_STARTUP_DELAY
    out.update(initialDelaySeconds=delay, timeoutSeconds=timeout, periodSeconds=period, successThreshold=success,
               failureThreshold=failure)
    return out


VIRTIOFS_DIR = "/var/run/kubevirt/virtiofs-containers"


def _virtiofs_mount_point(volume: Spec) -> str:
    name = str(volume.get("name"))
    if isinstance(volume.get("configMap"), dict):
        return f"{PRIVATE}/config-map/{name}"
    if isinstance(volume.get("secret"), dict):
        return f"{PRIVATE}/secret/{name}"
    if isinstance(volume.get("serviceAccount"), dict):
        return "/var/run/secrets/kubernetes.io/serviceaccount/"
    if isinstance(volume.get("downwardAPI"), dict):
        return f"{PRIVATE}/downwardapi/{name}"
    return f"/{name}"


def _virtiofs_resources(vmi: Spec, cfg: ClusterConfig) -> Spec:
    """``virtiofs.ResourcesForVirtioFSContainer``."""
    dedicated = traits.is_cpu_dedicated(vmi)
    guaranteed = dedicated or traits.wants_guaranteed_qos(vmi)
    requests = {"cpu": _support(cfg, "virtiofs", "requests", "cpu", "10m")}
    limits = {"memory": _support(cfg, "virtiofs", "limits", "memory", "80M"),
              "cpu": _support(cfg, "virtiofs", "limits", "cpu", "100m")}
    if dedicated or guaranteed:
        requests["cpu"] = limits["cpu"]
    requests["memory"] = limits["memory"] if guaranteed else _support(cfg, "virtiofs", "requests", "memory", "1M")
    return _json({"limits": limits, "requests": requests})


def virtiofs_containers(vmi: Spec, cfg: ClusterConfig, image: str) -> list[Spec]:
    """``generateVirtioFSContainers``: one virtiofsd per volume a filesystem device shares."""
    shared = {f.get("name") for f in traits.devices(vmi).get("filesystems") or () if isinstance(f, dict)}
    out = []
    for volume in traits.volumes(vmi):
        if volume.get("name") not in shared or volume.get("containerPath") is not None:
            continue
        name, point = str(volume.get("name")), _virtiofs_mount_point(volume)
        args = [f"--socket-path={VIRTIOFS_DIR}/{name}.sock", f"--shared-dir={point}", "--sandbox=none",
                "--cache=auto", "--migration-on-error=guest-error", "--migration-mode=find-paths"]
        if isinstance(volume.get("serviceAccount"), dict) and cfg.release.virtiofs_translates_service_account_uid:
            args.append(f"--translate-uid=host:{NON_ROOT_UID}:0:1")
        mounts = [{"name": "virtiofs-containers", "mountPath": VIRTIOFS_DIR}]
        if not isinstance(volume.get("serviceAccount"), dict):
            mounts.append({"name": name, "mountPath": point})
        out.append({
            "name": f"virtiofs-{name}", "image": image,
            "imagePullPolicy": settings.image_pull_policy(cfg) if cfg.release.virtiofs_follows_pull_policy
            else "IfNotPresent",
            "command": ["/usr/libexec/virtiofsd"], "args": args, "volumeMounts": mounts,
            "resources": _virtiofs_resources(vmi, cfg),
            "securityContext": {"runAsUser": NON_ROOT_UID, "runAsGroup": NON_ROOT_UID, "runAsNonRoot": True,
                                "allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
        })
    return out


CONTAINER_DISKS_DIR = "/var/run/kubevirt-ephemeral-disks/container-disk-data"  # virt-controller sets it so


def _container_disk(vmi: Spec, cfg: ClusterConfig, name: str, source: Spec, mounted: str, init: bool) -> Spec:
    """``containerdisk.generateContainerFromVolume``: a container that serves (or, as an init container,
    pulls) a container disk from its image, without ImageVolume."""
    uid = str((vmi.get("metadata") or {}).get("uid") or "")
    directory = f"{CONTAINER_DISKS_DIR}/{uid}" if uid else CONTAINER_DISKS_DIR
    out: Spec = {"name": f"volume{name}-init" if init else f"volume{name}"}
    if source.get("image"):
        out["image"] = source["image"]
    if source.get("imagePullPolicy"):
        out["imagePullPolicy"] = source["imagePullPolicy"]
    out.update({
        "command": ["/usr/bin/container-disk"],
        "args": ["--no-op"] if init else ["--copy-path", f"{directory}/{mounted}"],
        "volumeMounts": [{"name": "container-disks", "mountPath": directory},
                         {"name": "virt-bin-share-dir", "mountPath": "/usr/bin"}],
        "resources": disk_init_resources(vmi, cfg),
        "securityContext": {"runAsUser": NON_ROOT_UID, "runAsNonRoot": True, "allowPrivilegeEscalation": False,
                            "capabilities": {"drop": ["ALL"]}},
    })
    return out


def container_disk_containers(vmi: Spec, cfg: ClusterConfig, init: bool) -> list[Spec]:
    """``GenerateContainers``/``GenerateInitContainers`` and the kernel-boot ones (``pkg/container-disk``)."""
    out = []
    for index, vol in enumerate(traits.spec_of(vmi).get("volumes") or ()):
        if isinstance(vol, dict) and vol.get("name") != "kernel-boot-volume" and isinstance(vol.get("containerDisk"),
                                                                                           dict):
            out.append(_container_disk(vmi, cfg, str(vol.get("name")), vol["containerDisk"], f"disk_{index}", init))
    kernel = traits.kernel_boot_container(vmi)
    if kernel is not None:
        out.append(_container_disk(vmi, cfg, "kernel-boot-volume", kernel, "kernel-boot", init))
    return out


def copy_binary_init(vmi: Spec, cfg: ClusterConfig, image: str, user: int) -> Spec:
    """The ``container-disk-binary`` init container: copies container-disk into the shared bin directory."""
    dedicated = traits.is_cpu_dedicated(vmi) or traits.wants_guaranteed_qos(vmi)
    limits = {"cpu": _support(cfg, "container-disk", "limits", "cpu", "10m" if dedicated else "100m"),
              "memory": _support(cfg, "container-disk", "limits", "memory", "40M")}
    requests = dict(limits) if dedicated else {
        "cpu": _support(cfg, "container-disk", "requests", "cpu", "10m"),
        "memory": _support(cfg, "container-disk", "requests", "memory", "1M")}
    preserve = ["--preserve=all"] if cfg.release.container_disk_copy_preserves else []
    command = ["/usr/bin/cp", *preserve, "/usr/bin/container-disk", "/init/usr/bin/container-disk"]
    split = cfg.release.launcher_flags_in_args
    return container("container-disk-binary", image, settings.image_pull_policy(cfg), user,
                     capabilities={"drop": ["ALL"]}, command=command[:1] if split else command,
                     args=command[1:] if split else None,
                     resources=_json({"limits": limits, "requests": requests}),
                     mounts=[{"name": "virt-bin-share-dir", "mountPath": "/init/usr/bin"}],
                     unprivileged_flag=not cfg.release.omits_unprivileged_flag)
