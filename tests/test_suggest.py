"""Choosing instancetypes and preferences for hand-sized VMs, and the proof (:mod:`kubectl_instancetype.suggest`),
against the built-in common-instancetypes catalog unless a test builds its own."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.golang import clone_json
from kubectl_instancetype.catalog import Catalog
from kubectl_instancetype.catalog.builtin import find, names
from kubectl_instancetype.config import ClusterConfig, load_config
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.suggest import APPROXIMATE, EXACT, LEFT_ALONE, NOTHING, Scope, suggest
from kubectl_instancetype.suggest.candidates import Candidate, tie_break
from kubectl_instancetype.suggest.hints import Hints, declared_os
from kubectl_instancetype.suggest.instancetypes import without_owned
from kubectl_instancetype.suggest.proof import counted, memory_read
from kubectl_instancetype.suggest.tree import MISSING, get

BUILTIN = Scope("default", Catalog(builtin=find, builtin_names=names), ClusterConfig())
DOMAIN = ("spec", "template", "spec", "domain")


def vm(domain: dict[str, Any], **template_spec: Any) -> dict[str, Any]:
    """A VM without a pod network; ``domain`` replaces its keys whole (devices included)."""
    spec = {"domain": {"devices": {"autoattachPodInterface": False}} | domain} | template_spec
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"},
            "spec": {"runStrategy": "Always", "template": {"spec": spec}}}


FEDORA = vm({
    "cpu": {"sockets": 1, "cores": 1, "threads": 1},
    "memory": {"guest": "4Gi"},
    "features": {"smm": {}},
    "firmware": {"bootloader": {"efi": {"secureBoot": True}}},
    "devices": {"autoattachPodInterface": False, "disks": [{"name": "root", "disk": {"bus": "virtio"}}], "rng": {}},
}, volumes=[{"name": "root", "containerDisk": {"image": "quay.io/containerdisks/fedora:41"}}])
FEDORA["spec"]["template"]["metadata"] = {"annotations": {"vm.kubevirt.io/os": "fedora"}}


def test_a_hand_sized_fedora_vm_gets_u1_medium_and_fedora_exactly() -> None:
    found = suggest(FEDORA, BUILTIN, Hints(systems=("fedora",)))
    assert (found.verdict, found.instancetype and found.instancetype.name, found.preference and found.preference.name) \
        == (EXACT, "u1.medium", "fedora")
    assert found.vm is not None and found.differences == ()
    assert found.vm["spec"]["instancetype"] == {"name": "u1.medium"}
    assert found.vm["spec"]["preference"] == {"name": "fedora"}
    domain = get(found.vm, DOMAIN)
    assert domain == {"devices": {"autoattachPodInterface": False, "disks": [{"name": "root"}]}}
    assert FEDORA["spec"].get("instancetype") is None, "the input is not changed"


def test_without_hints_the_preference_that_provides_most_wins() -> None:
    found = suggest(FEDORA, BUILTIN, Hints())
    assert found.preference is not None and found.preference.name == "fedora"


def test_the_instancetype_owned_fields_go_even_when_kubevirt_reports_one_at_a_time() -> None:
    hand = vm({"memory": {"guest": "4Gi"}, "resources": {"requests": {"memory": "4Gi", "cpu": "1"},
                                                          "limits": {"memory": "4Gi"}}})
    it = BUILTIN.catalog.get("VirtualMachineClusterInstancetype", "", "u1.medium")
    assert it is not None
    out = without_owned(hand, it["spec"])
    assert get(out, DOMAIN) == {"devices": {"autoattachPodInterface": False}, "memory": {},
                                "resources": {"requests": {}, "limits": {}}}


def test_dedicated_cpus_with_io_threads_get_the_dedicated_series() -> None:
    hand = vm({"cpu": {"sockets": 2, "dedicatedCpuPlacement": True, "isolateEmulatorThread": True},
               "memory": {"guest": "8Gi"}, "ioThreadsPolicy": "auto"})
    found = suggest(hand, BUILTIN, Hints())
    assert (found.verdict, found.instancetype and found.instancetype.name) == (EXACT, "d1.large")
    assert get(found.vm, (*DOMAIN, "cpu")) is MISSING and get(found.vm, (*DOMAIN, "ioThreadsPolicy")) is MISSING


def test_dedicated_cpus_alone_stay_in_the_vm_under_a_general_purpose_instancetype() -> None:
    hand = vm({"cpu": {"sockets": 2, "dedicatedCpuPlacement": True}, "memory": {"guest": "8Gi"}})
    found = suggest(hand, BUILTIN, Hints())
    assert (found.verdict, found.instancetype and found.instancetype.name) == (EXACT, "u1.large")
    assert get(found.vm, (*DOMAIN, "cpu")) == {"dedicatedCpuPlacement": True}


def test_huge_pages_get_the_compute_exclusive_series() -> None:
    hand = vm({"cpu": {"sockets": 2, "dedicatedCpuPlacement": True, "isolateEmulatorThread": True, "maxSockets": 2,
                       "numa": {"guestMappingPassthrough": {}}},
               "memory": {"guest": "4Gi", "hugepages": {"pageSize": "1Gi"}}, "ioThreadsPolicy": "auto"})
    found = suggest(hand, BUILTIN, Hints())
    assert (found.verdict, found.instancetype and found.instancetype.name) == (EXACT, "cx1.large1gi")


def test_the_closest_instancetype_never_shrinks_the_vm() -> None:
    hand = vm({"cpu": {"sockets": 2}, "memory": {"guest": "1Gi"}})
    found = suggest(hand, BUILTIN, Hints())
    assert (found.verdict, found.instancetype and found.instancetype.name) == (APPROXIMATE, "u1.2xmedium")
    assert [(d.pointer, d.before, d.after) for d in found.differences] == [
        ("/spec/template/spec/domain/memory/guest", "1Gi", "4Gi")]
    assert found.attention


def test_a_vm_bigger_than_every_instancetype_is_said_so() -> None:
    found = suggest(vm({"cpu": {"sockets": 128}, "memory": {"guest": "1Ti"}}), BUILTIN, Hints())
    assert found.verdict == NOTHING and found.vm is None and found.attention
    assert found.closest is not None and found.closest.name == "n1.8xlarge"
    assert [d.sentence() for d in found.shortfall] == [
        "/spec/template/spec/domain/cpu: 128 vCPUs → 64 vCPUs", "/spec/template/spec/domain/memory/guest: 1Ti → 128Gi"]


def test_without_instancetypes_in_scope_a_preference_alone_is_suggested() -> None:
    catalog = Catalog()
    catalog.add({"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterPreference",
                 "metadata": {"name": "virtio"}, "spec": {"devices": {"preferredDiskBus": "virtio"}}})
    hand = vm({"cpu": {"sockets": 1}, "memory": {"guest": "1Gi"},
               "devices": {"autoattachPodInterface": False, "disks": [{"name": "root", "disk": {"bus": "virtio"}}]}},
              volumes=[{"name": "root", "containerDisk": {"image": "img"}}])
    found = suggest(hand, Scope("default", catalog, ClusterConfig()), Hints())
    assert (found.verdict, found.instancetype, found.preference and found.preference.name) == (EXACT, None, "virtio")
    assert not found.attention
    assert get(found.vm, (*DOMAIN, "cpu")) == {"sockets": 1}, "the VM keeps its own sizing"


def test_a_setting_the_preference_would_change_stays_and_is_listed() -> None:
    hand = clone_json(FEDORA)
    hand["spec"]["template"]["spec"]["domain"]["devices"]["disks"][0]["disk"]["bus"] = "sata"
    found = suggest(hand, BUILTIN, Hints(systems=("fedora",)))
    assert found.verdict == EXACT and found.preference is not None and found.preference.name == "fedora"
    kept = {k.path[-1]: (k.value, k.instead) for k in found.kept}
    assert kept["bus"] == ("sata", "virtio")
    assert get(found.vm, (*DOMAIN, "devices", "disks", 0, "disk", "bus")) == "sata"


def test_a_vm_naming_an_instancetype_or_preference_is_left_alone() -> None:
    named = vm({}) | {"spec": {"preference": {"name": "fedora"}, "template": {"spec": {"domain": {}}}}}
    found = suggest(named, BUILTIN, Hints())
    assert (found.verdict, found.reason, found.vm) == (LEFT_ALONE, "it already names a preference", None)


def test_a_vm_kubevirt_refuses_as_it_is_is_refused() -> None:
    config = load_config({"network": {"permitBridgeInterfaceOnPodNetwork": False}})
    with pytest.raises(KubeVirtError, match="bridge interface is not enabled"):
        suggest(vm({"devices": {}}) | {"spec": {"template": {"spec": {"domain": {"devices": {}}}}}},
                Scope("default", BUILTIN.catalog, config), Hints())


def test_topology_counts_left_out_are_read_as_one() -> None:
    assert get(counted(vm({"cpu": {"cores": 2}})), (*DOMAIN, "cpu")) == {"cores": 2, "sockets": 1, "threads": 1}
    plain = vm({"memory": {"guest": "1Gi"}})
    assert counted(plain) is plain


def test_ties_go_to_cluster_scope_then_general_purpose_then_size_then_name() -> None:
    def it(kind: str, name: str, cpus: int) -> Candidate:
        return Candidate(kind, name, {"cpu": {"guest": cpus}, "memory": {"guest": "1Gi"}}, {})

    order = sorted([it("VirtualMachineInstancetype", "u1.a", 1), it("VirtualMachineClusterInstancetype", "b", 1),
                    it("VirtualMachineClusterInstancetype", "u1.big", 2), it("VirtualMachineClusterInstancetype",
                                                                               "u1.small", 1)], key=tie_break)
    assert [c.name for c in order] == ["u1.small", "u1.big", "b", "u1.a"]
    assert tie_break(None) < tie_break(order[0])


def test_a_firmware_the_preference_would_replace_is_kept_and_noted_where_it_differs() -> None:
    hand = clone_json(FEDORA)
    hand["spec"]["template"]["spec"]["domain"]["firmware"] = {"bootloader": {"bios": {}}}
    found = suggest(hand, BUILTIN, Hints(systems=("fedora",)))
    assert found.verdict == EXACT and found.preference is not None and found.preference.name == "fedora"
    bootloader = (*DOMAIN, "firmware", "bootloader")
    assert [(k.path, k.value, k.instead) for k in found.kept if k.path[:3] == DOMAIN[:3]] == [
        (bootloader, {"bios": {}}, {"efi": {"secureBoot": True}})]
    assert get(found.vm, bootloader) == {"bios": {}}


def test_the_core_sits_with_the_views_of_a_render() -> None:
    """suggest/ is pure: it imports neither the command line nor the reporters, and nothing below it imports it."""
    from test_layers import import_graph

    graph = import_graph()
    assert not {"cli", "reporters"} & graph["suggest"]
    assert [node for node, targets in graph.items() if "suggest" in targets] == ["cli"]


@pytest.mark.parametrize(("cpu", "preference"), [
    ({"cores": 4}, "cores"), ({"sockets": 1, "cores": 1, "threads": 4}, "threads"), ({"sockets": 4}, None),
    ({"sockets": 2, "cores": 2}, "spread"),
])
def test_the_preference_reproduces_the_vms_cpu_topology(cpu: dict[str, int], preference: str | None) -> None:
    catalog = Catalog()
    catalog.add({"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
                 "metadata": {"name": "four"}, "spec": {"cpu": {"guest": 4}, "memory": {"guest": "4Gi"}}})
    for topology in ("sockets", "cores", "threads", "spread"):
        catalog.add({"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterPreference",
                     "metadata": {"name": topology}, "spec": {"cpu": {"preferredCPUTopology": topology}}})
    found = suggest(vm({"cpu": cpu, "memory": {"guest": "4Gi"}}), Scope("default", catalog, ClusterConfig()), Hints())
    assert found.verdict == EXACT and found.instancetype is not None and found.instancetype.name == "four"
    assert (found.preference.name if found.preference else None) == preference


@pytest.mark.parametrize(("overcommit", "expected"), [(100, EXACT), (150, APPROXIMATE)])
def test_a_vm_sized_by_its_memory_request_is_read_as_the_webhook_reads_it(overcommit: int, expected: str) -> None:
    hand = vm({"cpu": {"cores": 1}, "resources": {"requests": {"memory": "4Gi"}}})
    scope = Scope("default", BUILTIN.catalog, ClusterConfig(memory_overcommit=overcommit))
    found = suggest(hand, scope, Hints())
    assert (found.verdict, found.instancetype and found.instancetype.name) == (expected, "u1.medium")
    assert get(found.vm, (*DOMAIN, "resources")) is MISSING  # the instancetype owns the memory now


def test_memory_read_fills_in_only_what_the_webhook_would() -> None:
    guest_only = vm({"memory": {"guest": "1Gi"}})
    assert memory_read(guest_only, 100, requested=False) is guest_only
    assert get(memory_read(guest_only, 100), (*DOMAIN, "resources", "requests", "memory")) == "1Gi"
    requested = memory_read(vm({"resources": {"requests": {"memory": "2048Mi"}}}), 100)
    assert get(requested, (*DOMAIN, "memory", "guest")) == "2Gi"
    assert memory_read(guest_only, 150) is guest_only


def test_a_preference_for_another_architecture_is_never_preferred() -> None:
    fedora_bios = vm({"cpu": {"cores": 1}, "memory": {"guest": "4Gi"}})
    found = suggest(fedora_bios, BUILTIN, Hints(systems=("fedora",)))
    assert found.preference is not None and found.preference.name == "fedora"  # not fedora.arm64
    assert found.verdict == APPROXIMATE  # the OS the VM names, before an exact fit: fedora adds EFI


@pytest.mark.parametrize(("system", "expected"), [
    ("fedora", "fedora"),
    ("rhel9", "rhel.9"),  # not rhel.7, which differs less from a VM that sets nothing
    ("rhel9.4", "rhel.9"),
])
def test_the_os_the_vm_names_outranks_an_exact_fit(system: str, expected: str) -> None:
    plain = vm({"cpu": {"cores": 1}, "memory": {"guest": "4Gi"}})
    found = suggest(plain, BUILTIN, Hints(systems=(system,)))
    assert found.preference is not None and found.preference.name == expected
    assert found.verdict in (EXACT, APPROXIMATE)


def test_no_preference_only_when_nothing_names_the_os() -> None:
    plain = vm({"cpu": {"cores": 1}, "memory": {"guest": "4Gi"}})
    assert suggest(plain, BUILTIN, Hints()).preference is None
    assert suggest(plain, BUILTIN, Hints(systems=("plan9",))).preference is None  # no preference for it


def test_a_preference_says_which_os_it_is_for() -> None:
    """The ``vm.kubevirt.io/os`` annotation a preference puts on the VMI (common-instancetypes'), else its
    ``instancetype.kubevirt.io/os-type`` label: a preference of one's own is the OS's too."""
    hints = Hints(systems=("fedora",))
    assert hints.score("corp-base", "fedora") == len("fedora")
    assert hints.score("corp-base", "") == 0
    assert hints.score("rhel.9", "rhel9") == 0
    assert declared_os({"annotations": {"vm.kubevirt.io/os": "rhel9"}}, {}) == "rhel9"
    assert declared_os({}, {"instancetype.kubevirt.io/os-type": "fedora"}) == "fedora"
