"""Preference requirements and the spread divisibility check of the VM validating webhook.

pkg/instancetype/preference/requirements/{checker,cpu,memory,arch}.go and
pkg/instancetype/preference/validation/cpu.go. Both return KubeVirt's message or None.
"""

from __future__ import annotations

from typing import Any

from ..api.releases import DEFAULT, Release
from ..catalog.spread import CORES_THREADS, SOCKETS_CORES, SOCKETS_CORES_THREADS, preferred_topology, spread_options
from ..quantity import from_json, parse_quantity

Spec = dict[str, Any]
NIL_GUEST = ("spec.template.spec.domain.memory.guest: a preference's memory requirement and no guest memory without "
             "an instance type make KubeVirt's webhook fail (nil pointer dereference, bug #14551), so the cluster "
             "refuses it")


def check_requirements(it: Spec | None, pref: Spec | None, spec: Spec, release: Release = DEFAULT) -> str | None:
    """The first unmet requirement (CPU, then memory, then architecture) of ``pref``."""
    requirements = (pref or {}).get("requirements")
    if requirements is None:
        return None
    if release.preference_memory_check_panics and it is None and requirements.get("memory") is not None \
            and _no_guest_memory(spec) and _cpu(it, pref or {}, requirements, spec) is None:
        # v1.5.0's checkMemory compares spec.domain.memory.guest, which setGuestMemory left nil (memory.go)
        return NIL_GUEST
    for check in (_cpu, _memory, _architecture):
        problem = check(it, pref or {}, requirements, spec)
        if problem:
            return problem
    return None


def _no_guest_memory(spec: Spec) -> bool:
    """Whether pkg/defaults setGuestMemory leaves spec.domain.memory.guest nil: no guest memory, no memory
    request or limit, no hugepages."""
    domain = spec.get("domain") or {}
    memory, resources = domain.get("memory") or {}, domain.get("resources") or {}
    if memory.get("guest") is not None or memory.get("hugepages") is not None:
        return False
    return all(from_json(((resources.get(kind) or {}).get("memory")) or 0).is_zero() for kind in ("requests", "limits"))


def _cpu(it: Spec | None, pref: Spec, requirements: Spec, spec: Spec) -> str | None:
    wanted = requirements.get("cpu")
    if wanted is None:
        return None
    need = int(wanted.get("guest") or 0)
    if it is not None:
        have = int((it.get("cpu") or {}).get("guest") or 0)
        if have < need:
            return (f"insufficient CPU resources of {have} vCPU provided by instance type, "
                    f"preference requires {need} vCPU")
        return None
    cpu = (spec.get("domain") or {}).get("cpu")
    if cpu is None:
        return f"no CPU resources provided by VirtualMachine, preference requires {need} vCPU"
    have, label = _provided_cpu(pref, cpu)
    if have < need:
        return (f"insufficient CPU resources of {have} vCPU provided by VirtualMachine, "
                f"preference requires {need} vCPU provided as {label}")
    return None


def _provided_cpu(pref: Spec, cpu: Spec) -> tuple[int, str]:
    sockets, cores, threads = (int(cpu.get(k) or 0) for k in ("sockets", "cores", "threads"))
    topology = preferred_topology(pref)
    if topology in ("sockets", "cores", "threads"):
        return {"sockets": sockets, "cores": cores, "threads": threads}[topology], topology
    if topology == "any":
        return cores * sockets * threads, "cores, sockets and threads"
    if topology == "spread":
        across = spread_options(pref)[1]
        value = {
            SOCKETS_CORES: sockets * cores,
            CORES_THREADS: cores * threads,
            SOCKETS_CORES_THREADS: sockets * cores * threads,
        }.get(across, 0)
        return value, across
    return 0, topology


def _memory(it: Spec | None, pref: Spec, requirements: Spec, spec: Spec) -> str | None:
    wanted = requirements.get("memory")
    if wanted is None:
        return None
    need = from_json(wanted.get("guest") or 0)
    provider = "instance type" if it is not None else "VirtualMachine"
    have = from_json((it.get("memory") or {}).get("guest") or 0) if it is not None else parse_quantity("0Mi")
    guest = ((spec.get("domain") or {}).get("memory") or {}).get("guest")
    if guest is not None:
        have = from_json(guest)
    if have.cmp(need) < 0:
        return f"insufficient Memory resources of {have} provided by {provider}, preference requires {need}"
    return None


def _architecture(it: Spec | None, pref: Spec, requirements: Spec, spec: Spec) -> str | None:
    wanted = requirements.get("architecture")
    if wanted is None:
        return None
    actual = spec.get("architecture") or ""
    if actual != wanted:
        return f"preference requires architecture {wanted} but {actual} is being requested"
    return None


def check_spread(it: Spec | None, pref: Spec | None) -> str | None:
    """Admission's divisibility check of a spread topology against the instance type's vCPUs."""
    if it is None or pref is None or preferred_topology(pref) != "spread":
        return None
    guest = int((it.get("cpu") or {}).get("guest") or 0)
    ratio, across = spread_options(pref)
    prefix = f"{guest} vCPUs provided by the instance type are not divisible by the"
    ratio_text = f"Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of {ratio}"
    if ratio == 0:
        # KubeVirt divides by zero here (a panic); we report it as the same rejection.
        return f"{prefix} {ratio_text} provided by the preference"
    if across == SOCKETS_CORES and guest % ratio:
        return f"{prefix} {ratio_text} provided by the preference"
    if across == CORES_THREADS and guest % ratio:
        return f"{prefix} number of threads per core {ratio}"
    if across == SOCKETS_CORES_THREADS and (guest % 2 or (guest // 2) % ratio):
        return f"{prefix} number of threads per core 2 and {ratio_text}"
    return None
