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
from .arith import must

Spec = dict[str, Any]
NON_ROOT_UID = 107
PRIVATE = "/var/run/kubevirt-private"
EXT_LOG_VERBOSITY_THRESHOLD = 5


def security_context(user: int, capabilities: Spec | None) -> Spec:
    """``securityContext``: the user, non-root when it is not 0, no privilege escalation then."""
    out: Spec = {"runAsUser": user, "runAsNonRoot": user != 0}
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
              shared_paths: tuple[str, ...] = (), env: list[Spec] | None = None, probes: Spec | None = None) -> Spec:
    """``ContainerSpecRenderer.Render``."""
    environment = xdg_env() if user != 0 else []
    if shared_paths:
        environment.append({"name": "SHARED_FILESYSTEM_PATHS", "value": ":".join(shared_paths)})
    environment += env or []
    out: Spec = {"name": name, "image": image, "imagePullPolicy": pull_policy,
                 "securityContext": security_context(user, capabilities)}
    for key, value in (("command", command), ("volumeDevices", devices), ("volumeMounts", mounts),
                       ("resources", resources), ("ports", ports), ("env", environment), ("args", args)):
        if value:
            out[key] = value
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
    return {which: {k: str(v) for k, v in sorted(values.items())} for which, values in resources.items() if values}


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
    if traits.annotations(vmi).get("kubevirt.io/image-volume-skip-digest-resolution") == "true":
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
