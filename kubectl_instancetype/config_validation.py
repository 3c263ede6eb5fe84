"""KubeVirt's check of a KubeVirt CR's configuration before it uses it (``validateConfig``).

``ClusterConfig.GetConfig`` (``pkg/virt-config/configuration.go``) decodes ``spec.configuration`` over the
defaults (``setConfigFromKubeVirt``: the CR's configuration is written with ``encoding/json`` first, so an
``omitempty`` field that is empty, zero or null keeps its default) and calls ``validateConfig``. When that
fails, KubeVirt logs ``Invalid cluster config using KubeVirt resource version ..., falling back to last good
resource version ...`` and goes on with the **last valid** configuration: on a new cluster, its defaults.
Nothing of the rejected configuration takes effect, for any VM.

The rules are listed once, in ``validateConfig``'s order; the first that fails is KubeVirt's answer (Go returns
the first error). The checks and their words are the same in every release the tool knows (v1.5.0 to v1.9.x
and main d923fdb8: ``validateConfig`` is identical in all of them), so no release fact is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .records import dataclass

Path = tuple[str, ...]

PULL_POLICIES = ("", "Always", "Never", "IfNotPresent")
# v1.BridgeInterface, v1.DeprecatedSlirpInterface, v1.MasqueradeInterface
NETWORK_INTERFACES = ("", "bridge", "slirp", "masquerade")

# What setConfigFromKubeVirt leaves where the CR says nothing (or the empty value omitempty drops):
# defaultClusterConfig's values (DefaultImagePullPolicy, DefaultMemoryOvercommit, DefaultCPUAllocationRatio,
# DefaultLessPVCSpaceToleration, defaultNetworkInterface).
DEFAULTS: dict[Path, Any] = {
    ("imagePullPolicy",): "IfNotPresent",
    ("developerConfiguration", "memoryOvercommit"): 100,
    ("developerConfiguration", "cpuAllocationRatio"): 10,
    ("developerConfiguration", "pvcTolerateLessSpaceUpToPercent"): 10,
    ("network", "defaultNetworkInterface"): "bridge",
}


@dataclass(frozen=True)
class Rejection:
    """KubeVirt's refusal of a configuration: the offending field (below ``spec.configuration``) and its error."""

    path: Path
    message: str

    @property
    def field(self) -> str:
        return ".".join(("spec", "configuration", *self.path))


def effective(configuration: dict[str, Any], path: Path) -> Any:
    """The value KubeVirt holds at ``path`` after decoding ``configuration`` over its defaults: the CR's unless
    it is absent, null, ``""`` or ``0`` (``omitempty`` drops those on the way)."""
    value: Any = configuration
    for step in path:
        value = value.get(step) if isinstance(value, dict) else None
    return DEFAULTS[path] if value is None or value == "" or (value == 0 and not isinstance(value, bool)) else value


def _integer(value: Any) -> bool:
    """An integer as Go decodes one into an ``int`` (a value of another type fails decoding, which the
    configuration's reader reports)."""
    return isinstance(value, int) and not isinstance(value, bool)


def image_pull_policy(conf: dict[str, Any]) -> Rejection | None:
    value = effective(conf, ("imagePullPolicy",))
    if isinstance(value, str) and value not in PULL_POLICIES:
        return Rejection(("imagePullPolicy",), f"invalid dev.imagePullPolicy in config: {value}")
    return None


def memory_overcommit(conf: dict[str, Any]) -> Rejection | None:
    path = ("developerConfiguration", "memoryOvercommit")
    value = effective(conf, path)
    if _integer(value) and value <= 0:
        return Rejection(path, f"invalid memoryOvercommit in ConfigMap: {value}")
    return None


def cpu_allocation_ratio(conf: dict[str, Any]) -> Rejection | None:
    path = ("developerConfiguration", "cpuAllocationRatio")
    value = effective(conf, path)
    if _integer(value) and value <= 0:
        return Rejection(path, f"invalid cpu allocation ratio in ConfigMap: {value}")
    return None


def less_pvc_space_toleration(conf: dict[str, Any]) -> Rejection | None:
    path = ("developerConfiguration", "pvcTolerateLessSpaceUpToPercent")
    value = effective(conf, path)
    if _integer(value) and not 0 <= value <= 100:
        return Rejection(path, f"invalid lessPVCSpaceToleration in ConfigMap: {value}")
    return None


def default_network_interface(conf: dict[str, Any]) -> Rejection | None:
    path = ("network", "defaultNetworkInterface")
    value = effective(conf, path)
    if isinstance(value, str) and value not in NETWORK_INTERFACES:
        return Rejection(path, f"invalid default-network-interface in config: {value}")
    return None


Rule = Callable[[dict[str, Any]], Rejection | None]

# validateConfig, pkg/virt-config/configuration.go (main d923fdb8, lines 479-509; the same at every tag)
RULES: tuple[Rule, ...] = (
    image_pull_policy,
    memory_overcommit,
    cpu_allocation_ratio,
    less_pvc_space_toleration,
    default_network_interface,
)


def validate_config(configuration: dict[str, Any]) -> Rejection | None:
    """KubeVirt's refusal of a CR's ``spec.configuration`` (as written, before the defaults), or None."""
    for rule in RULES:
        rejection = rule(configuration)
        if rejection is not None:
            return rejection
    return None
