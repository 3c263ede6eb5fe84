"""virt-controller's restart check: whether a change to a running VM's template is one it cannot apply live
(``syncRestartRequired`` in pkg/virt-controller/watch/vm/vm.go).

Both the template the VM was started from (its VM revision, with the instancetype and preference
ControllerRevisions it pinned) and the current one are expanded with ``ApplyToVM`` (instancetype and
preference only: no cluster defaults). What can change live is then copied from the current template onto
the started one — hot-pluggable volumes and their disks, and under ``vmRolloutStrategy: LiveUpdate`` the
sockets, the guest memory, node selector, affinity and tolerations; the interfaces and networks when the
network check allows; a firmware UUID the VMI already has — and whatever still differs requires a restart.
:func:`differences` says which fields: they are the cause a reviewer needs.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import clone_json
from ..api.origin import Path
from ..api.releases import Release
from ..schema import semantic
from . import restart_network

Spec = dict[str, Any]
MESSAGE = "a non-live-updatable field was changed in the template spec"
HOTPLUG_VOLUME_SOURCES = ("persistentVolumeClaim", "dataVolume")
VOLUMES: semantic.Path = ("volumes",)
VOLUME: semantic.Path = (*VOLUMES, 0)
DISKS: semantic.Path = ("domain", "devices", "disks")
DISK: semantic.Path = (*DISKS, 0)


def is_hotplug_volume(volume: Spec) -> bool:
    """``storagetypes.IsHotplugVolume``: a PVC or DataVolume marked ``hotpluggable``."""
    return any(isinstance(volume.get(k), dict) and bool(volume[k].get("hotpluggable")) for k in HOTPLUG_VOLUME_SOURCES)


def _volumes(spec: Spec) -> dict[str, Spec]:
    return {str(v.get("name")): v for v in spec.get("volumes") or [] if isinstance(v, dict)}


def _disks(spec: Spec) -> dict[str, Spec]:
    return {str(d.get("name")): d for d in ((spec.get("domain") or {}).get("devices") or {}).get("disks") or []
            if isinstance(d, dict)}


def valid_live_volumes(old: Spec, new: Spec, migration_strategy: bool) -> bool:
    """``validLiveUpdateVolumes``: only hot-pluggable volumes were added, changed or removed (with
    ``updateVolumesStrategy: Migration``, a PVC or DataVolume may also change)."""
    old_vols = _volumes(old)
    for name, vol in _volumes(new).items():
        before = old_vols.pop(name, None)
        if is_hotplug_volume(vol):
            continue
        if before is None:
            return False
        migrated = migration_strategy and any(isinstance(vol.get(k), dict) for k in HOTPLUG_VOLUME_SOURCES)
        if not migrated and not go_equal(before, vol, VOLUME):
            return False
    return all(is_hotplug_volume(v) for v in old_vols.values())


def valid_live_disks(old: Spec, new: Spec) -> bool:
    """``validLiveUpdateDisks``: only disks of hot-pluggable volumes were added, changed or removed, and no
    CD-ROM was removed."""
    old_disks, old_vols, new_vols, new_disks = _disks(old), _volumes(old), _volumes(new), _disks(new)
    for name, disk in new_disks.items():
        before = old_disks.pop(name, None)
        if name in new_vols and is_hotplug_volume(new_vols[name]):
            continue
        if before is None or not go_equal(before, disk, DISK):
            return False
    for name, disk in old_disks.items():
        if name in old_vols and not is_hotplug_volume(old_vols[name]):
            return False
        if disk.get("cdrom") is not None and name not in new_disks:
            return False
    return True


def _devices(spec: Spec) -> Spec:
    domain = spec.setdefault("domain", {})
    if not isinstance(domain.get("devices"), dict):
        domain["devices"] = {}
    return domain["devices"]


def _copy(target: Spec, source: Spec, key: str) -> None:
    if key in source:
        target[key] = clone_json(source[key])
    else:
        target.pop(key, None)


def neutralised(last: Spec, current: Spec, vmi: Spec, release: Release, live_update: bool,
                network_live: bool, migration_strategy: bool) -> Spec:
    """The started template with every live-updatable field taken from the current one."""
    out = clone_json(last)
    if live_update or not release.live_volumes_only_under_live_update:
        if valid_live_volumes(out, current, migration_strategy):
            _copy(out, current, "volumes")
        if valid_live_disks(out, current):
            _copy(_devices(out), _devices(clone_json(current)), "disks")
    if live_update:
        cpu, new_cpu = (out.get("domain") or {}).get("cpu"), (current.get("domain") or {}).get("cpu")
        if isinstance(cpu, dict) and isinstance(new_cpu, dict):
            _copy(cpu, new_cpu, "sockets")
        new_memory = (current.get("domain") or {}).get("memory")
        if isinstance(new_memory, dict) and new_memory.get("guest") is not None:
            memory = out.setdefault("domain", {}).get("memory")
            if not isinstance(memory, dict):
                memory = out["domain"]["memory"] = {}
            memory["guest"] = new_memory["guest"]
        for key in ("nodeSelector", "affinity", "tolerations"):
            _copy(out, current, key)
    if network_live:
        _copy(_devices(out), _devices(clone_json(current)), "interfaces")
        _copy(out, current, "networks")
    if release.neutralises_firmware_uuid:
        firmware = (current.get("domain") or {}).get("firmware")
        vmi_uuid = ((vmi.get("domain") or {}).get("firmware") or {}).get("uuid")
        if isinstance(firmware, dict) and vmi_uuid is not None and firmware.get("uuid", "") == vmi_uuid:
            domain = out.setdefault("domain", {})
            if not isinstance(domain.get("firmware"), dict):
                domain["firmware"] = {}
            domain["firmware"]["uuid"] = firmware.get("uuid")
    return out


def network_live(current: Spec, vmi: Spec, release: Release, cfg: Any, migratable: bool) -> bool:
    """Whether the interfaces and networks are left to the network synchronizer (no restart for them)."""
    if not release.network_changes_live_update:
        return False
    return not restart_network.restart_required(current, vmi, release, cfg, migratable)


def go_equal(a: Any, b: Any, path: semantic.Path = ()) -> bool:
    """``equality.Semantic.DeepEqual`` of two values found at ``path`` of a VMI spec."""
    return semantic.equal(a, b, path)


def differences(a: Any, b: Any) -> list[Path]:
    """The paths where the VMI specs ``a`` and ``b`` differ as ``equality.Semantic`` compares them (a list
    differing in length is one path)."""
    return _differences(semantic.normal(a), semantic.normal(b), ())


def _differences(a: Any, b: Any, path: Path) -> list[Path]:
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for key in sorted(set(a) | set(b), key=str) for p in _differences(a.get(key), b.get(key),
                                                                                     (*path, key))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in _differences(x, y, (*path, i))]
    if isinstance(a, list) and isinstance(b, list):
        return _by_name(a, b, path)
    return [path]


def _by_name(a: list[Any], b: list[Any], path: Path) -> list[Path]:
    """Lists of named items (interfaces, networks, disks, volumes) differing in length: each item HEAD added or
    changed at its index in HEAD; the whole list when an item was removed or the items have no unique names."""
    names_a, names_b = _names(a), _names(b)
    if names_a is None or names_b is None or not set(names_a) <= set(names_b):
        return [path]
    out: list[Path] = []
    for i, item in enumerate(b):
        j = names_a.index(names_b[i]) if names_b[i] in names_a else None
        out += [(*path, i)] if j is None else _differences(a[j], item, (*path, i))
    return out


def _names(items: list[Any]) -> list[str] | None:
    names = [str(item["name"]) for item in items if isinstance(item, dict) and item.get("name") is not None]
    return names if len(names) == len(items) and len(set(names)) == len(names) else None


def hotplugged_volumes(template: Spec, vmi: Spec) -> bool:
    """The declarative volume hot-plug (pkg/storage/hotplug/hotplug.go ``patchHotplugVolumes``): hot-pluggable
    volumes of the template that the VMI lacks are added with their disks, those the template dropped or changed
    are removed (a changed one is re-added on the next reconcile). ``vmi`` is patched; whether it changed."""
    wanted = _volumes(template)
    kept = [v for v in vmi.get("volumes") or [] if not (
        is_hotplug_volume(v) and (str(v.get("name")) not in wanted or
                                  (is_hotplug_volume(wanted[str(v.get("name"))]) and
                                   not go_equal(wanted[str(v.get("name"))], v, VOLUME))))]
    present = {str(v.get("name")) for v in vmi.get("volumes") or []}
    new = [clone_json(v) for name, v in wanted.items() if is_hotplug_volume(v) and name not in present]
    volumes = kept + new
    names = {str(v.get("name")) for v in volumes}
    vm_disks = _disks(template)
    disks = [d for d in ((vmi.get("domain") or {}).get("devices") or {}).get("disks") or []
             if str(d.get("name")) in names or (str(d.get("name")) in vm_disks and str(d.get("name")) not in wanted)]
    have = {str(d.get("name")) for d in disks}
    disks += [clone_json(d) for name, d in vm_disks.items()
              if name in {str(v.get("name")) for v in new} and name not in have]
    before = ((vmi.get("domain") or {}).get("devices") or {}).get("disks") or []
    if go_equal(volumes, vmi.get("volumes"), VOLUMES) and go_equal(disks, before, DISKS):
        return False
    vmi["volumes"] = volumes
    _devices(vmi)["disks"] = disks
    return True
