"""The KubeVirt cluster configuration a render assumes (``spec.configuration`` of the KubeVirt CR).

Defaults are KubeVirt's own for an empty ``spec.configuration`` (``pkg/virt-config/configuration.go``,
``defaultClusterConfig``). KubeVirt decodes the CR's configuration *over* those defaults with Go's
``encoding/json``, so nested objects merge key by key (``network: {defaultNetworkInterface: masquerade}``
keeps ``permitBridgeInterfaceOnPodNetwork: true``) while lists replace; :func:`load_config` does the same.
Only the settings that VM expansion and VMI rendering read are modelled; every other key is kept in
``raw`` and shown by ``kubectl instancetype config``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .api.releases import DEFAULT as DEFAULT_RELEASE
from .api.releases import Release, UnknownRelease, lookup
from .config_validation import Rejection, effective, validate_config
from .errors import InputError, KubeVirtError, Location, UsageError
from .records import dataclass, field, replace

# Per architecture KubeVirt configures (pkg/virt-config/configuration.go; ppc64le lost its own in v1.7 and
# falls back to amd64's since): the default machine type and the emulated machine patterns.
DEFAULT_MACHINE_TYPES = {"amd64": "q35", "arm64": "virt", "s390x": "s390-ccw-virtio"}
DEFAULT_EMULATED_MACHINES = {"amd64": ("q35*", "pc-q35*"), "arm64": ("virt*",), "s390x": ("s390-ccw-virtio*",)}
ARCHITECTURES = ("amd64", "arm64", "s390x")
EVICTION_STRATEGIES = ("None", "LiveMigrate", "LiveMigrateIfPossible", "External")
ROLLOUT_STRATEGIES = ("Stage", "LiveUpdate")
REFERENCE_POLICIES = ("reference", "expand", "expandAll")
DEFAULT_CPU_REQUEST = "100m"
DEFAULT_QGS_SOCKET_PATH = "/var/run/tdx-qgs/qgs.socket"  # TDX quote generation service, for attestation


@dataclass(frozen=True)
class ClusterConfig:
    """The settings of a KubeVirt CR that expansion and VMI rendering read, with KubeVirt's defaults."""

    default_architecture: str = "amd64"
    machine_type: str = ""  # the deprecated global override; "" = per architecture
    arch_machine_types: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_MACHINE_TYPES))
    default_network_interface: str = "bridge"
    permit_bridge_on_pod_network: bool = True
    permit_slirp_interface: bool = False
    eviction_strategy: str | None = "None"
    cpu_request: str = DEFAULT_CPU_REQUEST
    cpu_model: str = ""  # "" = KubeVirt's built-in host-model (host-passthrough on arm64)
    image_pull_policy: str = "IfNotPresent"
    # Validated like KubeVirt's validateConfig, but no render reads it: it only sizes the virt-launcher
    # pod's memory request (pkg/virt-controller/services/template.go), neither the VM nor the VMI.
    memory_overcommit: int = 100
    vm_rollout_strategy: str = "LiveUpdate"
    max_hotplug_ratio: int = 4
    max_cpu_sockets: int = 0  # 0 = unset
    max_guest: str | None = None  # a Quantity string, None = unset
    reference_policy: str = "reference"
    feature_gates: tuple[str, ...] = ()
    # commonInstancetypesDeployment.enabled: false tells that the cluster runs without the common
    # catalog, so renders assuming this configuration leave the built-in catalog out.
    common_instancetypes: bool = True
    # confidentialCompute.tdx.attestation.qgsSocketPath ("" = none): TDX VMIs are annotated with it
    qgs_socket_path: str = DEFAULT_QGS_SOCKET_PATH
    # The KubeVirt CR's own metadata.annotations: a few alpha switches live there, not in the configuration.
    cr_annotations: dict[str, str] = field(default_factory=dict)
    # The CR's spec.imageRegistry and spec.imageTag ("" = unset): virt-operator's launcher image is built of them
    image_registry: str = ""
    image_tag: str = ""
    raw: dict[str, Any] = field(default_factory=dict)
    # The KubeVirt release the cluster runs (--kubevirt-version, else the CR's status.observedKubeVirtVersion,
    # else the newest release): every behaviour that differs between releases asks its facts.
    release: Release = DEFAULT_RELEASE
    # spec.workloadUpdateStrategy.workloadUpdateMethods: how the workload updater completes a hot-plug
    # (LiveMigrate, Evict; none by default: it waits for the next migration)
    workload_update_methods: tuple[str, ...] = ()
    # KubeVirt's refusal of the CR's spec.configuration (validateConfig): this configuration is then KubeVirt's
    # defaults, which it keeps when it cannot use the CR (config_validation)
    rejection: Rejection | None = None
    # The warning when the version named (--kubevirt-version, or the CR's status at ``path``) is a release the
    # tool does not know and ``release`` stands in for it: (message, path in the KubeVirt CR or () for the flag)
    release_warning: tuple[str, tuple[str, ...]] | None = None

    def machine_type_for(self, arch: str) -> str:
        """The default machine type for ``arch`` (global override first, then per architecture).

        Like ``GetMachineType`` in pkg/virt-config/virt-config.go, an architecture KubeVirt does not
        know falls back to the amd64 setting.
        """
        if self.machine_type:
            return self.machine_type
        return self.arch_machine_types.get(configured_arch(arch), "")

    def emulated_machines_for(self, arch: str) -> tuple[str, ...]:
        """The machine type patterns a VMI of ``arch`` may ask for (``GetEmulatedMachines`` in
        pkg/virt-config/virt-config.go): the deprecated global ``emulatedMachines`` when set, else the
        architecture's (arm64, s390x, amd64 for any other). KubeVirt re-encodes the CR's configuration before
        decoding it over its defaults (``setConfigFromKubeVirt``), and ``omitempty`` drops an empty or null
        list on the way: such a list keeps the default."""
        top = self.raw.get("emulatedMachines")
        if isinstance(top, list) and top:
            return tuple(str(p) for p in top)
        name = configured_arch(arch)
        section = (self.raw.get("architectureConfiguration") or {}).get(name)
        patterns = section.get("emulatedMachines") if isinstance(section, dict) else None
        if isinstance(patterns, list) and patterns:
            return tuple(str(p) for p in patterns)
        return DEFAULT_EMULATED_MACHINES[name]

    @property
    def root_enabled(self) -> bool:
        """Whether the ``Root`` feature gate lets VMIs run as root (``status.runtimeUser: 0``, not 107)."""
        return "Root" in self.feature_gates

    @property
    def live_update(self) -> bool:
        """Whether ``vmRolloutStrategy`` is ``LiveUpdate`` (which turns on the hot-plug maxima)."""
        return self.vm_rollout_strategy == "LiveUpdate"


DEFAULT_CONFIG = ClusterConfig()


def configured_arch(arch: str) -> str:
    """The architecture whose settings KubeVirt reads for ``arch``: arm64 and s390x their own, any other
    amd64's (``GetMachineType``, ``GetEmulatedMachines`` in pkg/virt-config/virt-config.go)."""
    return arch if arch in ("arm64", "s390x") else "amd64"


def is_kubevirt_cr(data: Any) -> bool:
    """Whether a parsed document is a ``kubevirt.io`` ``KubeVirt`` custom resource."""
    return (
        isinstance(data, dict)
        and data.get("kind") == "KubeVirt"
        and str(data.get("apiVersion", "")).startswith("kubevirt.io/")
    )


def configuration_of(data: Any, where: Location) -> tuple[dict[str, Any], str]:
    """``(spec.configuration, status.defaultArchitecture)`` of a KubeVirt CR, or a bare configuration."""
    if not isinstance(data, dict):
        raise InputError("KubeVirt configuration must be a mapping", where)
    if not is_kubevirt_cr(data):
        return data, ""
    spec = _mapping(data.get("spec"), "spec", where)
    status = _mapping(data.get("status"), "status", where)
    arch = status.get("defaultArchitecture") or ""
    if not isinstance(arch, str):
        raise InputError("status.defaultArchitecture must be a string", where)
    return _mapping(spec.get("configuration"), "spec.configuration", where), arch


def load_config(data: Any, source: str | Location = "<config>", arch: str | None = None,
                version: str | None = None) -> ClusterConfig:
    """The effective configuration for a KubeVirt CR (or a bare ``spec.configuration``), ``--arch`` and
    ``--kubevirt-version`` (``version``: else the CR's ``status.observedKubeVirtVersion``, else the newest release).

    Raises :class:`InputError` for settings of the wrong type. A configuration KubeVirt's ``validateConfig``
    rejects is not used: KubeVirt keeps its last valid one, on a new cluster its defaults, and so does the
    render (the defaults, with ``rejection`` saying why; the caller reports it at the CR).
    """
    where = source if isinstance(source, Location) else Location(source)
    conf, status_arch = configuration_of(data if data is not None else {}, where)
    release, release_warning = release_lookup(data, where, version)
    merged = merge_json(default_configuration(release), conf)
    if status_arch:  # setConfigFromKubeVirt takes the architecture the operator resolved
        merged.setdefault("architectureConfiguration", {})["defaultArchitecture"] = status_arch
    cfg = _from_merged(merged, where, release)
    rejection = validate_config(conf)
    if rejection is not None:  # GetConfig: "Invalid cluster config ..., falling back to last good ..."
        cfg = replace(_from_merged(default_configuration(release), where, release), rejection=rejection)
    registry, tag = _cr_images(data)
    cfg = replace(cfg, cr_annotations=_cr_annotations(data, where), image_registry=registry, image_tag=tag,
                  release=release,
                  release_warning=release_warning, workload_update_methods=_workload_update_methods(data, where))
    return with_architecture(cfg, arch, where) if arch is not None else cfg


def effective_configuration(cfg: ClusterConfig) -> dict[str, Any]:
    """The ``spec.configuration`` KubeVirt works with: its defaults merged with the file, and ``--arch``."""
    arch = dict(cfg.raw.get("architectureConfiguration") or {}, defaultArchitecture=cfg.default_architecture)
    return {**cfg.raw, "architectureConfiguration": arch}


def release_of(data: Any, where: Location, version: str | None = None) -> Release:
    """The release a render assumes (:func:`release_lookup`), without its warning."""
    return release_lookup(data, where, version)[0]


def release_lookup(data: Any, where: Location, version: str | None = None
                   ) -> tuple[Release, tuple[str, tuple[str, ...]] | None]:
    """The release a render assumes: ``version`` (--kubevirt-version), else the KubeVirt CR's
    ``status.observedKubeVirtVersion``, else the newest release; with the warning (and where it points) when
    the version named is a patch or a build the tool does not know and the newest known release of its line
    stands in (:func:`..api.releases.lookup`). UnknownRelease (exit 2) for a version of no known line."""
    if version is not None:
        found = lookup(version)
        return found.release, ((found.warning, ()) if found.warning else None)
    status = data.get("status") if is_kubevirt_cr(data) else None
    observed = status.get("observedKubeVirtVersion") if isinstance(status, dict) else None
    if not observed:
        return DEFAULT_RELEASE, None
    if not isinstance(observed, str):
        raise InputError("status.observedKubeVirtVersion must be a string", where)
    try:
        found = lookup(observed, "status.observedKubeVirtVersion; say --kubevirt-version")
    except UnknownRelease as exc:
        raise exc.with_location(where) from None
    return found.release, ((found.warning, ("status", "observedKubeVirtVersion")) if found.warning else None)


def config_from(named: Any | None, documents: Iterable[Any], arch: str | None,
                version: str | None = None) -> ClusterConfig:
    """The configuration a render assumes: the ``named`` document (``--kubevirt-config``), else the KubeVirt
    CR among ``documents``, else KubeVirt's defaults; then ``arch`` and ``version``. Documents are
    :class:`~kubectl_instancetype.yamlio.Document` objects; InputError for settings of the wrong type,
    UsageError for two CRs that describe two clusters."""
    if named is not None:
        return load_config(named.data, named.location, arch, version)
    crs = sorted((doc for doc in documents if is_kubevirt_cr(doc.data)),
                 key=lambda doc: (doc.location.path, doc.location.line, doc.location.col))  # not -f's order
    if not crs:
        return load_config({}, "<defaults>", arch, version)
    first = load_config(crs[0].data, crs[0].location, arch, version)
    for other in crs[1:]:
        # Two CRs for two clusters (staging and prod kept in one repository): which one a render assumes would
        # be a guess, and the answer would change with the order of -f. The same cluster twice is no question.
        if load_config(other.data, other.location, arch, version) != first:
            raise UsageError(f"a second KubeVirt CR, for another cluster than {crs[0].location} (its release or "
                             "configuration differs): a render assumes one cluster; give --kubevirt-config FILE "
                             "to say which, or leave one out (--exclude)", other.location)
    return first


def _workload_update_methods(data: Any, where: Location) -> tuple[str, ...]:
    """``spec.workloadUpdateStrategy.workloadUpdateMethods`` of a KubeVirt CR (none by default)."""
    if not is_kubevirt_cr(data):
        return ()
    strategy = _mapping(_mapping(data.get("spec"), "spec", where).get("workloadUpdateStrategy"),
                        "spec.workloadUpdateStrategy", where)
    methods = strategy.get("workloadUpdateMethods") or []
    if not isinstance(methods, list) or not all(isinstance(m, str) for m in methods):
        raise InputError("spec.workloadUpdateStrategy.workloadUpdateMethods must be a list of strings", where)
    return tuple(methods)


def config_source(named: Any | None, documents: Iterable[Any]) -> Any | None:
    """The document the configuration comes from: ``named``, else the first KubeVirt CR of ``documents`` in
    file order (path, line, column: not the order of -f)."""
    if named is not None:
        return named
    crs = [doc for doc in documents if is_kubevirt_cr(doc.data)]
    return min(crs, key=lambda doc: (doc.location.path, doc.location.line, doc.location.col), default=None)


REJECTED = ("KubeVirt keeps its last valid configuration, on a new cluster its defaults: nothing of "
            "spec.configuration takes effect, and VMs are rendered with KubeVirt's default configuration")


def rejection_error(cfg: ClusterConfig, source: Any | None) -> KubeVirtError | None:
    """KubeVirt's refusal of the configuration ``source`` gave (a Document: a KubeVirt CR or a bare
    ``spec.configuration``), located at the offending field; None when KubeVirt uses it. A finding (exit
    status 1): the configuration in the repository is not the one the cluster runs with."""
    rejection = cfg.rejection
    if rejection is None:
        return None
    data = source.data if source is not None else {}
    path = ("spec", "configuration", *rejection.path) if is_kubevirt_cr(data) else rejection.path
    label = "KubeVirt configuration"
    if is_kubevirt_cr(data):
        meta = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
        namespace, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
        label = f"KubeVirt {namespace + '/' if namespace else ''}{name}".rstrip()
    error = KubeVirtError(f"{label}: {rejection.message}; {REJECTED}", "config", field=path)
    if source is not None:
        error.location = source.locate(path)
    return error


def _cr_images(data: Any) -> tuple[str, str]:
    """The ``spec.imageRegistry`` and ``spec.imageTag`` of a KubeVirt CR ("" where unset or not a string)."""
    spec = data.get("spec") if is_kubevirt_cr(data) else None
    spec = spec if isinstance(spec, dict) else {}
    registry, tag = spec.get("imageRegistry"), spec.get("imageTag")
    return (registry if isinstance(registry, str) else ""), (tag if isinstance(tag, str) else "")


def _cr_annotations(data: Any, where: Location) -> dict[str, str]:
    """The ``metadata.annotations`` of a KubeVirt CR (none for a bare configuration)."""
    if not is_kubevirt_cr(data):
        return {}
    metadata = _mapping(data.get("metadata"), "metadata", where)
    annotations = _mapping(metadata.get("annotations"), "metadata.annotations", where)
    return {str(k): str(v) for k, v in annotations.items()}


def with_architecture(cfg: ClusterConfig, arch: str, where: Location | None = None) -> ClusterConfig:
    """``cfg`` with another default architecture (``--arch``)."""
    if arch not in ARCHITECTURES:
        raise InputError(f"unsupported architecture {arch!r} (want one of {', '.join(ARCHITECTURES)})", where)
    return replace(cfg, default_architecture=arch)


def _mapping(value: Any, name: str, where: Location) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{name} must be a mapping", where)
    return value


def default_configuration(release: Release = DEFAULT_RELEASE) -> dict[str, Any]:
    """KubeVirt's ``spec.configuration`` defaults at ``release``, as JSON (the settings this tool knows about)."""
    arch = {
        name: {"machineType": machine, **({"ovmfPath": ovmf} if ovmf else {}), "emulatedMachines": emulated}
        for name, machine, ovmf, emulated in (
            ("amd64", "q35", "/usr/share/edk2/ovmf" if release.amd64_ovmf_in_edk2 else "/usr/share/OVMF",
             ["q35*", "pc-q35*"]),
            ("arm64", "virt", "/usr/share/AAVMF", ["virt*"]),
            ("s390x", "s390-ccw-virtio", "", ["s390-ccw-virtio*"]),
        )
    }
    return {
        "cpuRequest": DEFAULT_CPU_REQUEST,
        "developerConfiguration": {"memoryOvercommit": 100, "cpuAllocationRatio": 10, "featureGates": []},
        "evictionStrategy": "None",
        "imagePullPolicy": "IfNotPresent",
        "network": {
            "defaultNetworkInterface": "bridge",
            "permitSlirpInterface": False,
            "permitBridgeInterfaceOnPodNetwork": True,
        },
        "architectureConfiguration": {**arch, "defaultArchitecture": "amd64"},
        "liveUpdateConfiguration": {"maxHotplugRatio": 4},
        "vmRolloutStrategy": _default_rollout_strategy(release),
        "instancetype": {"referencePolicy": "reference"},
    }


def merge_json(base: Any, override: Any) -> Any:
    """``override`` decoded over ``base`` the way Go's ``encoding/json`` fills a pre-set struct.

    Objects merge key by key, everything else (lists, scalars, null) replaces.
    """
    if isinstance(base, dict) and isinstance(override, dict):
        out = dict(base)
        for key, value in override.items():
            out[key] = merge_json(base.get(key), value)
        return out
    return override


def _from_merged(conf: dict[str, Any], where: Location, release: Release = DEFAULT_RELEASE) -> ClusterConfig:
    r = _Reader(conf, where)
    net, dev, live = r.sub("network"), r.sub("developerConfiguration"), r.sub("liveUpdateConfiguration")
    arch_conf = r.sub("architectureConfiguration")
    # an empty machine type is dropped by KubeVirt's re-encoding (omitempty) and keeps the default
    machines = {a: arch_conf.sub(a).string("machineType") or default for a, default in DEFAULT_MACHINE_TYPES.items()}
    # the types Go's decoding needs of the settings validateConfig checks (their values: config_validation)
    r.string("imagePullPolicy")
    net.string("defaultNetworkInterface")
    for key in ("memoryOvercommit", "cpuAllocationRatio", "pvcTolerateLessSpaceUpToPercent"):
        dev.integer(key, minimum=-(2**63))
    return ClusterConfig(
        default_architecture=arch_conf.string("defaultArchitecture") or "amd64",
        machine_type=r.string("machineType"),
        arch_machine_types=machines,
        default_network_interface=str(effective(conf, ("network", "defaultNetworkInterface"))),
        permit_bridge_on_pod_network=net.boolean("permitBridgeInterfaceOnPodNetwork"),
        permit_slirp_interface=net.boolean("permitSlirpInterface"),
        eviction_strategy=r.choice("evictionStrategy", EVICTION_STRATEGIES, allow_none=True) or None,
        cpu_request=r.quantity("cpuRequest") or DEFAULT_CPU_REQUEST,
        cpu_model=r.string("cpuModel"),
        image_pull_policy=str(effective(conf, ("imagePullPolicy",))),
        memory_overcommit=int(effective(conf, ("developerConfiguration", "memoryOvercommit"))),
        vm_rollout_strategy=_rollout_strategy(r, release),
        # GetMaxHotplugRatio: 1 when liveUpdateConfiguration itself is null
        max_hotplug_ratio=live.integer("maxHotplugRatio") if live.data else 1,
        max_cpu_sockets=live.integer("maxCpuSockets", minimum=0),
        max_guest=live.quantity("maxGuest"),
        reference_policy=r.sub("instancetype").choice("referencePolicy", REFERENCE_POLICIES) or "reference",
        feature_gates=tuple(dev.strings("featureGates")),
        common_instancetypes=_common_instancetypes(r.sub("commonInstancetypesDeployment")),
        qgs_socket_path=_qgs_socket_path(r.sub("confidentialCompute").sub("tdx").sub("attestation")),
        raw=conf,
    )


def _default_rollout_strategy(release: Release) -> str:
    """``DefaultVMRolloutStrategy`` (pkg/virt-config/virt-config.go): Stage before v1.6.0
    (``release.live_update_rollout_by_default``), so a v1.5 cluster adds no hot-plug maxima unless asked."""
    return "LiveUpdate" if release.live_update_rollout_by_default else "Stage"


def _rollout_strategy(r: _Reader, release: Release) -> str:
    """``vmRolloutStrategy``: null is dropped by KubeVirt's re-encoding (omitempty) and keeps the release's
    default; an empty string is kept and is no strategy (IsVMRolloutStrategyLiveUpdate is then false)."""
    if r.data.get("vmRolloutStrategy") is None:
        return _default_rollout_strategy(release)
    return r.choice("vmRolloutStrategy", ROLLOUT_STRATEGIES, allow_none=True)


def _qgs_socket_path(attestation: _Reader) -> str:
    """``GetQGSSocketPath`` (pkg/virt-config/virt-config.go): the default unless the setting is there."""
    if attestation.data.get("qgsSocketPath") is None:
        return DEFAULT_QGS_SOCKET_PATH
    return attestation.string("qgsSocketPath")


def _common_instancetypes(section: _Reader) -> bool:
    """Unset means deployed (what virt-operator does by default); only an explicit false turns it off."""
    return section.data.get("enabled") is None or section.boolean("enabled")


class _Reader:
    """Typed access to one object of the merged configuration; wrong types raise :class:`InputError`."""

    def __init__(self, data: Any, where: Location, path: str = "spec.configuration") -> None:
        if data is not None and not isinstance(data, dict):
            raise InputError(f"{path} must be a mapping", where)
        self.data: dict[str, Any] = data or {}
        self.where = where
        self.path = path

    def _get(self, key: str, kinds: tuple[type, ...], what: str) -> Any:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise InputError(f"{self.path}.{key} must be {what}, got {value!r}", self.where)
        return value

    def sub(self, key: str) -> _Reader:
        return _Reader(self.data.get(key), self.where, f"{self.path}.{key}")

    def string(self, key: str) -> str:
        return str(self._get(key, (str,), "a string") or "")

    def boolean(self, key: str) -> bool:
        return bool(self._get(key, (bool,), "a boolean"))

    def integer(self, key: str, minimum: int = 0) -> int:
        value = self._get(key, (int,), "an integer")
        if value is not None and value < minimum:
            raise InputError(f"{self.path}.{key} must be at least {minimum}, got {value}", self.where)
        return int(value or 0)

    def strings(self, key: str) -> list[str]:
        values = self._get(key, (list,), "a list of strings") or []
        if not all(isinstance(v, str) for v in values):
            raise InputError(f"{self.path}.{key} must be a list of strings", self.where)
        return list(values)

    def choice(self, key: str, allowed: tuple[str, ...], allow_none: bool = False) -> str:
        value = self.string(key)
        if value == "" and allow_none:
            return value
        if value not in allowed:
            want = ", ".join(repr(a) for a in allowed if a)
            message = f"{self.path}.{key}: unsupported value {value!r} (want one of {want})"
            raise InputError(message, self.where)
        return value

    def quantity(self, key: str) -> str | None:
        """A Kubernetes Quantity (string or number), checked by the quantity parser, in its JSON form."""
        from .quantity import canonical

        value = self._get(key, (str, int, float), "a quantity")
        if value is None:
            return None
        try:
            return canonical(value)
        except (ValueError, TypeError) as exc:
            raise InputError(f"{self.path}.{key}: invalid quantity {value!r}: {exc}", self.where) from None


def remembered(cfg: ClusterConfig, compute: Callable[[ClusterConfig, str], Any], arg: str) -> Any:
    """``compute(cfg, arg)``, kept for the configuration last asked: a run renders many VMs under one
    configuration, and the rules ask the same of it for every VM (its feature gates, its machine types)."""
    global _remembered
    kept = _remembered
    if kept[0] is not cfg:
        kept = _remembered = (cfg, {})
    key = (compute, arg)
    answers = kept[1]
    if key not in answers:
        answers[key] = compute(cfg, arg)
    return answers[key]


_remembered: tuple[ClusterConfig | None, dict[Any, Any]] = (None, {})
