"""The network side of a running VM: what the network synchronizer hot-plugs into the VMI
(pkg/network/controllers/vm.go ``Sync``) and when an interface or network change requires a restart
(pkg/network/vmliveupdate/restart.go ``IsRestartRequired``).

KubeVirt compares the VM template's interfaces *as the instancetype and preference expand them* with the
VMI's, but hot-plugs the template's interfaces *as written*: a NIC added to a VM whose preference sets
``preferredInterfaceModel`` is hot-plugged without the model, and the next reconcile finds it changed and
flags the restart (kubevirt#18955).
"""

from __future__ import annotations

from typing import Any

from ..api.golang import clone_json
from ..api.releases import Release
from ..config import ClusterConfig

Spec = dict[str, Any]
ABSENT = "absent"
LIVE_UPDATE_NAD_REF = "LiveUpdateNADRef"


def _ifaces(spec: Spec) -> list[Spec]:
    return [i for i in ((spec.get("domain") or {}).get("devices") or {}).get("interfaces") or []
            if isinstance(i, dict)]


def _nets(spec: Spec) -> list[Spec]:
    return [n for n in spec.get("networks") or [] if isinstance(n, dict)]


def _by_name(items: list[Spec]) -> dict[str, Spec]:
    return {str(i.get("name") or ""): i for i in items}


def _without(item: Spec | None, key: str) -> Spec:
    out = clone_json(item or {})
    out.pop(key, None)
    return out


def _without_nad_name(net: Spec | None) -> Spec:
    out = clone_json(net or {})
    if isinstance(out.get("multus"), dict):
        out["multus"].pop("networkName", None)
    return out


def ignores_nad_name(release: Release, cfg: ClusterConfig, migratable: bool) -> bool:
    """Whether a Multus ``networkName`` change is live (the release's predicate)."""
    if release.nad_rename_needs_migratable_vmi:
        return migratable
    if release.nad_rename_live:
        return True
    if release.nad_rename_live_with_gate:
        return LIVE_UPDATE_NAD_REF in cfg.feature_gates
    return False


def restart_required(vm_spec: Spec, vmi_spec: Spec, release: Release, cfg: ClusterConfig, migratable: bool) -> bool:
    """``IsRestartRequired``: an interface of the VMI removed or changed (its ``state`` aside), a pod network
    added, or a network of the VMI removed or changed."""
    desired, current = _by_name(_ifaces(vm_spec)), _by_name(_ifaces(vmi_spec))
    for name, iface in current.items():
        if name not in desired or _without(desired[name], "state") != _without(iface, "state"):
            return True
    nets, vmi_nets = _by_name(_nets(vm_spec)), _by_name(_nets(vmi_spec))
    if release.restart_on_pod_network_added and _has_pod(vm_spec) and not _has_pod(vmi_spec):
        return True
    lenient = ignores_nad_name(release, cfg, migratable)
    for name, net in vmi_nets.items():
        if name not in nets:
            return True
        if (_without_nad_name(nets[name]) != _without_nad_name(net)) if lenient else nets[name] != net:
            return True
    return False


def differing(vm_spec: Spec, vmi_spec: Spec) -> list[tuple[tuple[str | int, ...], Any, Any]]:
    """What makes :func:`restart_required` answer yes, field by field: (path in the template spec, the VMI's
    value, the template's), for every interface or network of the VMI removed from the template or changed."""
    out: list[tuple[tuple[str | int, ...], Any, Any]] = []
    for key, items, vmi_items in ((("domain", "devices", "interfaces"), _ifaces(vm_spec), _ifaces(vmi_spec)),
                                  (("networks",), _nets(vm_spec), _nets(vmi_spec))):
        index = {str(item.get("name") or ""): i for i, item in enumerate(items)}
        for position, item in enumerate(vmi_items):
            at = index.get(str(item.get("name") or ""))
            if at is None:
                out.append(((*key, position), item, None))
                continue
            wanted = items[at]
            out += [((*key, at, name), item.get(name), wanted.get(name)) for name in sorted(set(item) | set(wanted))
                    if name != "state" and item.get(name) != wanted.get(name)]
    return out


def _has_pod(spec: Spec) -> bool:
    return any(isinstance(n.get("pod"), dict) for n in _nets(spec))


def syncs_network_names(release: Release, migratable: bool) -> bool:
    """Whether the synchronizer copies Multus network names into the VMI (``syncNetworks``)."""
    if not release.syncs_multus_network_name:
        return False
    return migratable or not release.nad_rename_needs_migratable_vmi


def synced_vmi(vm_spec: Spec, vmi_spec: Spec, sync_names: bool) -> Spec:
    """The VMI spec after the network synchronizer (``syncVMIInterfaces``): bridge and SR-IOV interfaces of
    the template hot-plugged, interface states followed, and with ``sync_names`` Multus network names followed.
    The VMI's interface status is taken to list every interface of its spec."""
    out = clone_json(vmi_spec)
    ifaces, nets = _ifaces(out), _nets(out)
    by_name = _by_name(ifaces)
    vm_nets = _by_name(_nets(vm_spec))
    for iface in _ifaces(vm_spec):
        name = str(iface.get("name") or "")
        present = by_name.get(name)
        if present is None:
            if iface.get("state") != ABSENT and (iface.get("bridge") is not None or iface.get("sriov") is not None):
                nets.append(clone_json(vm_nets.get(name) or {}))
                ifaces.append(clone_json(iface))
        elif iface.get("state") != present.get("state") and present.get("state") != ABSENT:
            if iface.get("state") is None:
                present.pop("state", None)
            else:
                present["state"] = iface["state"]
    if sync_names:
        for net in nets:
            wanted = vm_nets.get(str(net.get("name") or ""))
            if wanted and isinstance(wanted.get("multus"), dict) and isinstance(net.get("multus"), dict):
                if "networkName" in wanted["multus"]:
                    net["multus"]["networkName"] = wanted["multus"]["networkName"]
                else:
                    net["multus"].pop("networkName", None)
    devices = out.setdefault("domain", {}).setdefault("devices", {})
    if ifaces:
        devices["interfaces"] = ifaces
    if nets:
        out["networks"] = nets
    return out


def changed(before: Spec, after: Spec) -> bool:
    """Whether the synchronizer patched the VMI's interfaces or networks."""
    return _ifaces(before) != _ifaces(after) or _nets(before) != _nets(after)
