"""The sidecars of the launcher Pod: hook sidecars from the VMI's ``hooks.kubevirt.io/hookSidecars``
annotation (``hooks.UnmarshalHookSidecarList``) and network binding plugins' sidecar images
(``pkg/network/netbinding``), in that order, rendered by ``newSidecarContainerRenderer`` (``template.go``).

A binding the KubeVirt CR does not configure is KubeVirt's render error.
"""

from __future__ import annotations

import json
from typing import Any

from ..config import ClusterConfig
from ..records import dataclass
from . import containers, settings, traits
from .volumes import BINDING, HOOK_SOCKETS, RenderError

Spec = dict[str, Any]
HOOKS_ANNOTATION = "hooks.kubevirt.io/hookSidecars"


@dataclass(frozen=True)
class Sidecar:
    """One requested sidecar (the fields of ``hooks.HookSidecar``)."""

    image: str = ""
    pull_policy: str = ""
    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    config_map: Spec | None = None
    pvc: Spec | None = None
    downward_api: str = ""
    plugin: str = ""

    def render(self, vmi: Spec, cfg: ClusterConfig, index: int, user: int) -> Spec:
        name = f"hook-sidecar-{index}"
        env = [{"name": "CONTAINER_NAME", "value": name}]
        if self.plugin:
            env.append({"name": "NETWORK_BINDING_PLUGIN_NAME", "value": self.plugin})
        mounts: list[Spec] = [{"name": "hook-sidecar-sockets", "mountPath": HOOK_SOCKETS, "subPath": name}]
        if self.downward_api == "device-info":
            mounts.append({"name": "network-info-annotation", "mountPath": "/etc/podinfo"})
        if self.config_map is not None:
            mounts.append({"name": self.config_map.get("name"), "mountPath": self.config_map.get("hookPath"),
                           "subPath": self.config_map.get("key")})
        if self.pvc is not None:
            mounts.append({"name": self.pvc.get("name"), "mountPath": self.pvc.get("volumePath")})
        non_root = traits.is_non_root(vmi)
        out = containers.container(
            name, self.image, self.pull_policy, user if non_root else 0,
            capabilities={"drop": ["ALL"]} if non_root else None, command=list(self.command),
            args=list(self.args), resources=containers.sidecar_resources(vmi, cfg), mounts=mounts, env=env,
            unprivileged_flag=not cfg.release.omits_unprivileged_flag)
        return out


def sidecars(vmi: Spec, cfg: ClusterConfig) -> list[Sidecar]:
    """The sidecars the Pod runs; RenderError for an unreadable annotation or an unconfigured binding."""
    out = _hooks(vmi)
    bindings = settings.network_bindings(cfg)
    used: dict[str, Spec] = {}
    for iface in traits.interfaces(vmi):
        binding = iface.get("binding")
        if not isinstance(binding, dict):
            continue
        name = str(binding.get("name") or "")
        if name not in bindings:
            word = "bindining" if cfg.release.network_binding_error_typo else "binding"
            raise RenderError(f"couldn't find configuration for network {word}: {name}", BINDING)
        used[name] = bindings[name]
    for name in sorted(used):  # Go ranges over a map here: the order of two plugin sidecars is not fixed
        plugin = used[name]
        if plugin.get("sidecarImage"):
            out.append(Sidecar(image=str(plugin["sidecarImage"]), pull_policy=settings.image_pull_policy(cfg),
                               downward_api=str(plugin.get("downwardAPI") or ""), plugin=name))
    return out


def _hooks(vmi: Spec) -> list[Sidecar]:
    raw = traits.vmi_annotations(vmi).get(HOOKS_ANNOTATION)
    if raw is None:
        return []
    try:
        items = json.loads(raw)
    except ValueError as exc:
        raise RenderError(str(exc)) from None
    if not isinstance(items, list):
        raise RenderError("json: cannot unmarshal into Go value of type hooks.HookSidecarList")
    return [Sidecar(image=str(i.get("image") or ""), pull_policy=str(i.get("imagePullPolicy") or ""),
                    command=tuple(i.get("command") or ()), args=tuple(i.get("args") or ()),
                    config_map=i.get("configMap"), pvc=i.get("pvc")) for i in items if isinstance(i, dict)]
