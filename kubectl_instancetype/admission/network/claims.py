"""The DRA admitter's creation checks (pkg/dra/admitter/dra_admitter.go, ``ValidateCreation``):
``spec.resourceClaims``, GPUs and host devices by device name or claim request, and claim/request pairs unique
across GPUs, host devices and DRA networks. ``ValidateVirtualMachineInstanceSpec`` runs it right after the
network validator.
"""

from __future__ import annotations

from ...config import ClusterConfig
from ...records import dataclass
from ...schema.fielderror import go_quote
from ...schema.names import dns1123_label, dns1123_subdomain
from .. import gates
from ..cause import Cause, FieldPath, Spec
from .spec import Item, dra_tuples, networks, text

RESOURCE_CLAIMS_INCOMPLETE = (
    "vmi.spec.resourceClaims must specify all claims used in vmi.spec.domain.devices.gpus and "
    "vmi.spec.domain.devices.hostDevices"
)


@dataclass(frozen=True)
class DeviceKind:
    """How ``validateDRADevices`` treats one list of devices."""

    path: str
    type_name: str
    gate: str
    reject_mixed: bool


GPUS = DeviceKind("gpus", "GPU", "GPUsWithDRA", True)
HOST_DEVICES = DeviceKind("hostDevices", "HostDevice", "HostDevicesWithDRA", False)


def _items(value: object) -> list[Item]:
    return [i if isinstance(i, dict) else {} for i in value] if isinstance(value, list) else []


def _claim_request(device: Item) -> Item | None:
    """The inline ``*ClaimRequest``: set when the device names a claim or a request. KubeVirt meets the spec
    after Go's JSON round trip, where ``omitempty`` drops empty names: ``claimName: ""`` alone sets nothing."""
    return device if text(device, "claimName") or text(device, "requestName") else None


def _is_dra(device: Item) -> bool:
    return not text(device, "deviceName") and _claim_request(device) is not None


def creation(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateCreationDRA``."""
    devices = (spec.get("domain") or {}).get("devices") or {}
    if not spec.get("resourceClaims") and not devices.get("gpus") and not devices.get("hostDevices"):
        return []  # the networks' pairs alone cannot repeat one another (one index per pair)
    claims = _items(spec.get("resourceClaims"))
    gpus, host_devices = _items(devices.get("gpus")), _items(devices.get("hostDevices"))
    if not claims and not gpus and not host_devices:
        return []
    causes = resource_claims(field.child("resourceClaims"), claims)
    gpu_causes, gpu_names, gpu_pairs = _devices(field, gpus, GPUS, cfg)
    hd_causes, hd_names, hd_pairs = _devices(field, host_devices, HOST_DEVICES, cfg)
    causes += gpu_causes + hd_causes
    net_pairs = dra_tuples(networks(spec)) if gates.is_enabled(cfg, "NetworkDevicesWithDRA") else {}
    owners: dict[str, tuple[str, int]] = {}
    sources = (("GPUs", gpu_pairs, "gpus"), ("HostDevices", hd_pairs, "hostDevices"), ("Networks", net_pairs, ""))
    for kind, pairs, path in sources:
        base = field.child("domain", "devices", path) if path else field.child("networks")
        # Go ranges over a map here: with several duplicates in one list, KubeVirt's order of them varies.
        for pair, idx in sorted(pairs.items(), key=lambda p: p[1]):
            if pair in owners:
                prev_kind, prev_idx = owners[pair]
                causes.append(base.index(idx).cause(
                    f"duplicate claimName/requestName pair {go_quote(pair)} between {prev_kind}[{prev_idx}] and "
                    f"{kind}[{idx}]"))
                continue
            owners[pair] = (kind, idx)
    if not (gpu_names | hd_names) <= {text(c, "name") for c in claims}:
        causes.append(field.child("resourceClaims").cause(RESOURCE_CLAIMS_INCOMPLETE))
    return causes


def resource_claims(field: FieldPath, claims: list[Item]) -> list[Cause]:
    """``validateResourceClaims``: named (a unique DNS label), by exactly one of a claim or a template whose
    name is a DNS subdomain."""
    causes = []
    names: set[str] = set()
    for idx, claim in enumerate(claims):
        at, claim_name = field.index(idx), text(claim, "name")
        if not claim_name:
            causes.append(at.child("name").cause(f"{at.child('name')} is a required field"))
        elif claim_name in names:
            causes.append(at.child("name").cause(f"duplicate resourceClaims name {go_quote(claim_name)}"))
        else:
            errors = dns1123_label(claim_name)
            if errors:
                causes.append(at.child("name").cause(
                    f"{at.child('name')} does not conform to the kubernetes DNS_LABEL rules: {', '.join(errors)}"))
            names.add(claim_name)
        by_claim, by_template = claim.get("resourceClaimName"), claim.get("resourceClaimTemplateName")
        if by_claim is not None and by_template is not None:
            causes.append(at.cause("at most one of resourceClaimName or resourceClaimTemplateName may be specified"))
        if by_claim is None and by_template is None:
            causes.append(at.cause("must specify one of: resourceClaimName, resourceClaimTemplateName"))
        for key in ("resourceClaimName", "resourceClaimTemplateName"):
            if claim.get(key) is not None:
                causes.extend(at.child(key).cause(d) for d in dns1123_subdomain(text(claim, key)))
    return causes


def _devices(field: FieldPath, devices: list[Item], kind: DeviceKind,
             cfg: ClusterConfig) -> tuple[list[Cause], set[str], dict[str, int]]:
    """``validateDRADevices``: the causes, the claim names used, and the first index of each pair."""
    at = field.child("domain", "devices", kind.path)
    dra = [(i, d) for i, d in enumerate(devices) if _is_dra(d)]
    other = [(i, d) for i, d in enumerate(devices) if not _is_dra(d)]
    causes = []
    if kind.reject_mixed and dra and other:
        return [at.cause(
            f"vmi.spec.domain.devices.{kind.path} contains both DRA and non-DRA {kind.type_name}s; each "
            f"{kind.type_name} must be either DRA or non-DRA")], set(), {}
    for _, device in other:
        if not text(device, "deviceName"):
            causes.append(at.cause(
                f"vmi.spec.domain.devices.{kind.path} contains {kind.type_name}s without deviceName or claimRequest; "
                f"each {kind.type_name} must specify either a deviceName or a claimRequest"))
        elif _claim_request(device) is not None:
            causes.append(at.cause(
                f"vmi.spec.domain.devices.{kind.path} contains {kind.type_name}s with both deviceName and "
                "claimRequest"))
    if dra and not gates.is_enabled(cfg, kind.gate):
        causes.append(at.cause(
            f"vmi.spec.domain.devices.{kind.path} contains DRA enabled {kind.type_name}s but feature gate is not "
            "enabled"))
        return causes, set(), {}
    names: set[str] = set()
    first: dict[str, int] = {}
    for idx, device in dra:
        claim_name, request_name = text(device, "claimName"), text(device, "requestName")
        if not claim_name:
            causes.append(at.index(idx).child("claimName").cause(f"claimName is required for DRA {kind.type_name}"))
        if not request_name:
            causes.append(at.index(idx).child("requestName").cause(f"requestName is required for DRA {kind.type_name}"))
        if not claim_name or not request_name:
            continue
        names.add(claim_name)
        key = f"{claim_name}/{request_name}"
        if key in first:
            causes.append(at.index(idx).cause(f"duplicate claimName/requestName pair {go_quote(key)}"))
        first.setdefault(key, idx)
    return causes, names, first
