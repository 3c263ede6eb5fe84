"""KubeVirt's feature gates: their states, whether one is on, and the discontinued ones a spec may not use
(pkg/virt-config/featuregate: active.go, inactive.go, feature-gates.go, validator.go).

A gate is on when it is GA, else when ``developerConfiguration.featureGates`` names it, else — unless
``disabledFeatureGates`` names it — when it is Beta (``IsEnabled``, from v1.9.0; before, a Beta gate is off
unless named). The states are those of the cluster's release (``cfg.release``): a gate is Alpha in one
release and Beta or GA in the next.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..api.releases import MAIN
from ..config import ClusterConfig, remembered
from ..packagedata import json_beside
from .cause import Cause

ALPHA, BETA, GA, DEPRECATED, DISCONTINUED = "Alpha", "Beta", "General Availability", "Deprecated", "Discontinued"



@functools.cache
def _table() -> dict[str, Any]:
    result: dict[str, Any] = json_beside(__spec__, __file__, "data", "feature-gates.json")
    return result


@functools.cache
def states(release: str = MAIN) -> dict[str, str]:
    """The state of every gate ``release`` registers (``data/feature-gates.json``, written by
    ``scripts/generate-feature-gates`` from each tag's featuregate package)."""
    return dict(_states(release))


@functools.cache
def _states(release: str) -> dict[str, str]:
    """:func:`states`, made once per release and shared by the checks (which only read it)."""
    table = _table()
    if release == MAIN:
        return dict(table["main"])
    delta = table["releases"][release]
    out = {gate: state for gate, state in table["main"].items() if gate not in delta["removed"]}
    out.update(delta["changed"])
    return out


#: The states at main (kubevirt/kubevirt d923fdb8).
STATES: dict[str, str] = states()

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
    """Whether ``gate`` is on in the cluster's release. From v1.9.0 ``featuregate.IsEnabled``: GA, else named,
    else not disabled and Beta; before, ``isFeatureGateEnabled``: GA, else named (registered or not)."""
    # asked of one configuration for every VM: worked out once a run
    return bool(remembered(cfg, _is_enabled, gate))


def _is_enabled(cfg: ClusterConfig, gate: str) -> bool:
    state = _states(cfg.release.name).get(gate)
    if state == GA:
        return True
    beta_on = cfg.release.beta_feature_gates_on_by_default
    if state is None and beta_on:
        return False
    dev = _developer(cfg)
    if gate in (dev.get("featureGates") or ()):
        return True
    if gate in (dev.get("disabledFeatureGates") or ()):
        return False
    return beta_on and state == BETA


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
    known = _states(cfg.release.name)
    for gate in _developer(cfg).get("featureGates") or ():
        check = _DEPRECATED_USED.get(gate)
        if check is not None and known.get(gate) == DEPRECATED and check[0](spec):
            warnings.append(check[1])
    return warnings


def discontinued_in_use(cfg: ClusterConfig, spec: dict[str, Any]) -> list[Cause]:
    """``ValidateFeatureGates``: for each gate the configuration names, in its order, that is discontinued
    and used by ``spec``, its message (a cause without a field)."""
    causes = []
    known = _states(cfg.release.name)
    for gate in _developer(cfg).get("featureGates") or ():
        check = _SPEC_USED.get(gate)
        if check is not None and known.get(gate) == DISCONTINUED and check[0](spec):
            causes.append(Cause(check[1]))
    return causes
