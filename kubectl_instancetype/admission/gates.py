"""KubeVirt's feature gates: their states, whether one is on, and the discontinued ones a spec may not use
(pkg/virt-config/featuregate: active.go, inactive.go, feature-gates.go, validator.go).

A gate is on when it is GA, else when ``developerConfiguration.featureGates`` names it, else — unless
``disabledFeatureGates`` names it — when it is Beta (``IsEnabled``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..config import ClusterConfig
from .cause import Cause

ALPHA, BETA, GA, DEPRECATED, DISCONTINUED = "Alpha", "Beta", "General Availability", "Deprecated", "Discontinued"

_ALPHA = (
    "CPUManager ExperimentalIgnitionSupport HypervStrictCheck Sidecar HostDevices HostDisk DownwardMetrics Root "
    "WorkloadEncryptionTDX VSOCK AlignCPUs EnableVirtioFsStorageVolumes PCINUMAAwareTopology NetworkDevicesWithDRA "
    "ObjectGraph UtilityVolumes ConfigurableHypervisor IncrementalBackup ContainerPathVolumes ReservedOverheadMemlock "
    "VGPULiveMigration VMStatsCollector OCIExport Plugins GraceIOVirtualization IOMMUFD FirmwareAutoSelection "
    "MigrationStallDetection MigrationDowntimeTuning CrossArchitectureVirtualization PortRangesSpec"
)
_BETA = (
    "ImageVolume Snapshot WorkloadEncryptionSEV KubevirtSeccompProfile NodeRestriction GPUsWithDRA HostDevicesWithDRA "
    "DecentralizedLiveMigration DeclarativeHotplugVolumes PasstBinding PodSecondaryInterfaceNamingUpgrade "
    "ExternalNetResourceInjection RebootPolicy Template OptOutRoleAggregation"
)
_GA = (
    "LiveMigration SRIOVLiveMigration NonRoot PSA CPUNodeDiscovery NUMA CommonInstancetypesDeploymentGate GPU "
    "HotplugNICs BochsDisplayForEFIGuests VMLiveUpdateFeatures NetworkBindingPlugins DynamicPodInterfaceNaming "
    "VolumesUpdateStrategy VolumeMigration DisableCustomSELinuxPolicy AutoResourceLimitsGate ClusterProfiler "
    "VMPersistentState VMExport PersistentReservation InstancetypeReferencePolicy EnableVirtioFsConfigVolumes "
    "ExpandDisks PanicDevices LiveUpdateNADRef VideoConfig SecureExecution MigrationPriorityQueue "
    "VmiMemoryOverheadReport LibvirtHooksServerAndClient"
)
STATES: dict[str, str] = {
    **{name: ALPHA for name in _ALPHA.split()},
    **{name: BETA for name in _BETA.split()},
    **{name: GA for name in _GA.split()},
    **{name: DEPRECATED for name in ("DockerSELinuxMCSWorkaround", "MultiArchitecture", "DisableMDEVConfiguration",
                                     "HotplugVolumes")},
    **{name: DISCONTINUED for name in ("ExperimentalVirtiofsSupport", "Passt", "Macvtap", "PasstIPStackMigration")},
}

PASST_DISCONTINUED = (
    "Passt network binding is discontinued since v1.3. Please refer to Kubevirt user guide for alternatives."
)
MACVTAP_DISCONTINUED = (
    "Macvtap network binding is discontinued since v1.3. Please refer to Kubevirt user guide for alternatives."
)


def _developer(cfg: ClusterConfig) -> dict[str, Any]:
    dev = cfg.raw.get("developerConfiguration")
    return dev if isinstance(dev, dict) else {}


def is_enabled(cfg: ClusterConfig, gate: str) -> bool:
    """``featuregate.IsEnabled``: GA, else named, else not disabled and Beta."""
    state = STATES.get(gate)
    if state is None:
        return False
    if state == GA:
        return True
    dev = _developer(cfg)
    if gate in (dev.get("featureGates") or ()):
        return True
    if gate in (dev.get("disabledFeatureGates") or ()):
        return False
    return state == BETA


def _interfaces_use(spec: dict[str, Any], binding: str) -> bool:
    interfaces = ((spec.get("domain") or {}).get("devices") or {}).get("interfaces") or []
    return any(isinstance(i, dict) and i.get(binding) is not None for i in interfaces)


# The discontinued gates with a check of the spec (VmiSpecUsed): their message refuses a spec that uses them.
_SPEC_USED = {
    "Passt": (lambda spec: _interfaces_use(spec, "passt"), PASST_DISCONTINUED),
    "Macvtap": (lambda spec: _interfaces_use(spec, "macvtap"), MACVTAP_DISCONTINUED),
}


# The deprecated gates with a check of the spec (VmiSpecUsed), whose message is a warning: none on this release.
_DEPRECATED_USED: dict[str, tuple[Callable[[dict[str, Any]], bool], str]] = {}


def deprecated_in_use(cfg: ClusterConfig, spec: dict[str, Any]) -> list[str]:
    """``warnDeprecatedAPIs``: for each gate the configuration names that is deprecated and used by ``spec``,
    its message."""
    warnings = []
    for gate in _developer(cfg).get("featureGates") or ():
        check = _DEPRECATED_USED.get(gate)
        if check is not None and check[0](spec):
            warnings.append(check[1])
    return warnings


def discontinued_in_use(cfg: ClusterConfig, spec: dict[str, Any]) -> list[Cause]:
    """``ValidateFeatureGates``: for each gate the configuration names, in its order, that is discontinued
    and used by ``spec``, its message (a cause without a field)."""
    causes = []
    for gate in _developer(cfg).get("featureGates") or ():
        check = _SPEC_USED.get(gate)
        if check is not None and check[0](spec):
            causes.append(Cause(check[1]))
    return causes
