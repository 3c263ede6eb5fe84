"""The VM admission webhooks (pipeline/vm_*_webhook.py, spec §9) and the object webhooks: test vectors TV-83 … TV-87.

TV-86's update rules (a changed name with an unchanged revisionName) are not modelled: the tool only
renders VMs as created, so only its create-time half (failure policies on named matchers) is encoded.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_instancetype.api.matchers import INSTANCETYPE_MATCHER, PREFERENCE_MATCHER, MatcherKind
from kubectl_instancetype.catalog.admission import LAUNCH_SECURITY_WARNING
from kubectl_instancetype.catalog.admission import admit as admit_object
from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.config import DEFAULT_CONFIG, load_config
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.pipeline import vm_validating_webhook
from kubectl_instancetype.pipeline.stages import render_vm, render_vmi, run
from kubectl_instancetype.pipeline.vm_mutating_webhook import matcher_problems, preferred_defaults

Spec = dict[str, Any]
NS = "default"
V1BETA1 = "instancetype.kubevirt.io/v1beta1"
IT_NS, IT_CL = "VirtualMachineInstancetype", "VirtualMachineClusterInstancetype"
P_NS, P_CL = "VirtualMachinePreference", "VirtualMachineClusterPreference"


def catalog(*objects: tuple[str, str, Spec]) -> Catalog:
    lookup = Catalog(default_namespace=NS)
    for kind, name, spec in objects:
        namespace = {"namespace": NS} if kind in (IT_NS, P_NS) else {}
        lookup.add({"apiVersion": V1BETA1, "kind": kind, "metadata": {"name": name, **namespace}, "spec": spec})
    return lookup


def vm(it: Spec | None = None, pref: Spec | None = None, template: Spec | None = None, **spec: Any) -> Spec:
    body: Spec = {"runStrategy": "Halted", "template": {"spec": template if template is not None else {"domain": {}}},
                  **spec}
    if it is not None:
        body["instancetype"] = it
    if pref is not None:
        body["preference"] = pref
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm", "namespace": NS},
            "spec": body}


def admit(machine: Spec, namespace: str, lookup: Catalog, cfg: Any) -> None:
    """The validating webhook alone, after the lookup."""
    run((vm_validating_webhook.admit,), machine, namespace, lookup, cfg)


def mutate(machine: Spec, namespace: str, lookup: Catalog) -> Spec:
    """The instance type part of the mutating webhook."""
    return run((preferred_defaults,), machine, namespace, lookup, DEFAULT_CONFIG)


def rejection(machine: Spec, lookup: Catalog) -> KubeVirtError:
    with pytest.raises(KubeVirtError) as caught:
        admit(machine, NS, lookup, DEFAULT_CONFIG)
    assert caught.value.stage == "admit"
    return caught.value


IT_2CPU: Spec = {"cpu": {"guest": 2}, "memory": {"guest": "128Mi"}}
CORES: Spec = {"cpu": {"preferredCPUTopology": "cores"}}


def test_tv83_conflicts_become_one_cause_each() -> None:
    lookup = catalog((IT_NS, "it", IT_2CPU), (P_NS, "p", CORES))
    machine = vm({"name": "it", "kind": IT_NS}, {"name": "p", "kind": P_NS},
                 {"domain": {"cpu": {"sockets": 1}, "memory": {"guest": "1Gi"}}})
    error = rejection(machine, lookup)
    assert error.paths == ("spec.template.spec.domain.cpu.sockets", "spec.template.spec.domain.memory.guest")
    assert error.message == (
        "VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type, "
        "VM field(s) spec.template.spec.domain.memory.guest conflicts with selected instance type"
    )


@pytest.mark.parametrize(
    ("it", "pref"),
    [
        ({"name": "missing", "kind": IT_NS}, None),
        ({"name": "missing", "kind": IT_CL}, None),
        ({"name": "missing"}, None),
        ({"name": "it", "kind": "bar"}, None),
        (None, {"name": "missing", "kind": P_NS}),
        (None, {"name": "missing", "kind": P_CL}),
    ],
)
def test_tv84_missing_instancetype_or_preference_is_admitted(it: Spec | None, pref: Spec | None) -> None:
    lookup = catalog((IT_NS, "it", IT_2CPU))
    machine = vm(it, pref, {"domain": {"cpu": {"sockets": 4}}})  # would conflict if the lookup succeeded
    admit(machine, NS, lookup, DEFAULT_CONFIG)  # no exception: admitted


NEEDS_1GI: Spec = {"requirements": {"memory": {"guest": "1Gi"}}}
NEEDS_2CPU: Spec = {"requirements": {"cpu": {"guest": 2}}}
NO_BRIDGE = load_config({"network": {"permitBridgeInterfaceOnPodNetwork": False}})
MEMORY_0 = ("failure checking preference requirements: insufficient Memory resources of 0 provided by "
            "VirtualMachine, preference requires 1Gi")


# pkg/instancetype/webhooks/vm/admitter.go ApplyToVM: a failed lookup is logged and the other object is
# still applied and checked; the lookup error is expand's or virt-controller's, after admission.
@pytest.mark.parametrize(
    ("it", "pref", "template", "cfg", "message"),
    [
        # no instance type: the requirements are checked against the VM's own (defaulted) resources
        ({"name": "missing"}, {"name": "p"}, {"domain": {}}, DEFAULT_CONFIG, MEMORY_0),
        ({"name": "it", "kind": "bar"}, {"name": "p"}, {"domain": {}}, DEFAULT_CONFIG, MEMORY_0),
        ({"name": "missing"}, {"name": "p"}, {"domain": {"memory": {"guest": "512Mi"}}}, DEFAULT_CONFIG,
         "failure checking preference requirements: insufficient Memory resources of 512Mi provided by "
         "VirtualMachine, preference requires 1Gi"),
        ({"name": "missing"}, {"name": "cpu2"}, {"domain": {}}, DEFAULT_CONFIG,
         "failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by "
         "VirtualMachine, preference requires 2 vCPU provided as sockets"),
        # no preference: the instance type still conflicts with the VM
        ({"name": "it", "kind": IT_NS}, {"name": "missing"}, {"domain": {"cpu": {"sockets": 4}}}, DEFAULT_CONFIG,
         "VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type"),
        # the cluster defaults refuse the pod network whatever the lookups found
        ({"name": "missing"}, None, {"domain": {}}, NO_BRIDGE, "bridge interface is not enabled in kubevirt-config"),
        (None, {"name": "missing"}, {"domain": {}}, NO_BRIDGE, "bridge interface is not enabled in kubevirt-config"),
        (None, None, {"domain": {}}, NO_BRIDGE, "bridge interface is not enabled in kubevirt-config"),
    ],
)
def test_admission_goes_on_past_a_failed_lookup(
    it: Spec | None, pref: Spec | None, template: Spec, cfg: Any, message: str
) -> None:
    lookup = catalog((IT_NS, "it", IT_2CPU), (P_CL, "p", NEEDS_1GI), (P_CL, "cpu2", NEEDS_2CPU))
    for render in (render_vm, render_vmi):
        with pytest.raises(KubeVirtError) as caught:
            render(vm(it, pref, template), NS, lookup, cfg)
        assert (caught.value.stage, caught.value.message) == ("admit", message)


@pytest.mark.parametrize(
    ("it", "pref", "domain"),
    [({"name": "missing"}, {"name": "p"}, {"memory": {"guest": "1Gi"}}), ({"name": "it"}, {"name": "missing"}, {})],
)
def test_a_vm_admission_lets_through_meets_the_lookup_error(it: Spec, pref: Spec, domain: Spec) -> None:
    lookup = catalog((IT_CL, "it", IT_2CPU), (P_CL, "p", NEEDS_1GI))
    machine = vm(it, pref, {"domain": domain})
    for render, stage in ((render_vm, "expand"), (render_vmi, "controller")):
        with pytest.raises(KubeVirtError) as caught:
            render(machine, NS, lookup, DEFAULT_CONFIG)
        assert caught.value.stage == stage and caught.value.message.endswith('"missing" not found')


def test_a_vm_without_matchers_is_admitted_and_unchanged() -> None:
    # A pod network needs its interface: KubeVirt adds none beside a network the VM names, and refuses
    # "spec.template.spec.networks[0].name 'default' not found." (pkg/network/admitter/netiface.go).
    devices = {"interfaces": [{"name": "default", "masquerade": {}}]}
    machine = vm(template={"domain": {"devices": devices}, "networks": [{"name": "default", "pod": {}}]})
    assert render_vm(machine, NS, catalog(), NO_BRIDGE) == machine


SPREAD_3 = ("3 vCPUs provided by the instance type are not divisible by the Spec.PreferSpreadSocketToCoreRatio "
            "or Spec.CPU.PreferSpreadOptions.Ratio of 2 provided by the preference")


@pytest.mark.parametrize("topology", ["spread", "preferSpread"])
def test_tv85_spread_check_comes_first_and_alone(topology: str) -> None:
    lookup = catalog((IT_CL, "it", {"cpu": {"guest": 3}, "memory": {"guest": "1Gi"}}),
                     (P_CL, "p", {"cpu": {"preferredCPUTopology": topology}}))
    machine = vm({"name": "it"}, {"name": "p"}, {"domain": {"cpu": {"sockets": 4}}})
    assert rejection(machine, lookup).message == SPREAD_3


@pytest.mark.parametrize("topology", ["spread", "preferSpread"])
def test_tv85_preference_only_vm_is_not_spread_checked(topology: str) -> None:
    lookup = catalog((P_CL, "p", {"cpu": {"preferredCPUTopology": topology}}))
    admit(vm(None, {"name": "p"}), NS, lookup, DEFAULT_CONFIG)  # no exception: admitted


@pytest.mark.parametrize(
    ("it", "pref", "template", "message"),
    [
        # requirements see the cluster defaults: no domain.cpu has become one socket
        (None, {"requirements": {"cpu": {"guest": 2}}}, {"domain": {}},
         "insufficient CPU resources of 1 vCPU provided by VirtualMachine, preference requires 2 vCPU provided as "
         "sockets"),
        (IT_2CPU, {"requirements": {"memory": {"guest": "1Gi"}}}, {"domain": {}},
         "insufficient Memory resources of 128Mi provided by instance type, preference requires 1Gi"),
        (None, {"requirements": {"architecture": "arm64"}}, {"domain": {}},
         "preference requires architecture arm64 but amd64 is being requested"),
    ],
)
def test_requirements_are_checked_after_defaults(it: Spec | None, pref: Spec, template: Spec, message: str) -> None:
    lookup = catalog((P_CL, "p", pref), *([(IT_CL, "it", it)] if it else []))
    machine = vm({"name": "it"} if it else None, {"name": "p"}, template)
    assert rejection(machine, lookup).message == f"failure checking preference requirements: {message}"


EITHER = "Either Name or InferFromVolume should be provided within the {}"
NAME_SET = "Name already set, should be cleared before setting inferFromVolume"
KIND_SET = "Kind already set, should be cleared before setting inferFromVolume"


@pytest.mark.parametrize("matcher", [INSTANCETYPE_MATCHER, PREFERENCE_MATCHER])
@pytest.mark.parametrize(
    ("value", "problems"),
    [
        ({"name": "n"}, []),
        ({"name": "n", "inferFromVolumeFailurePolicy": "Ignore"}, []),  # TV-86
        ({"name": "n", "inferFromVolumeFailurePolicy": "Reject"}, []),  # TV-86
        ({"inferFromVolume": "v"}, []),
        ({}, [EITHER]),
        ({"kind": "VirtualMachineInstancetype"}, [EITHER]),
        ({"name": "n", "inferFromVolume": "v"}, [NAME_SET]),
        ({"inferFromVolume": "v", "kind": "k"}, [KIND_SET]),
        ({"name": "n", "inferFromVolumeFailurePolicy": "ignore"},
         ["Invalid value 'ignore' for InferFromVolumeFailurePolicy"]),
        ({"name": "n", "kind": "k", "inferFromVolume": "v", "inferFromVolumeFailurePolicy": ""},
         [NAME_SET, KIND_SET, "Invalid value '' for InferFromVolumeFailurePolicy"]),
    ],
)
def test_matcher_problems(matcher: MatcherKind, value: Spec, problems: list[str]) -> None:
    machine = vm(**{matcher.field: value})
    assert matcher_problems(matcher, machine) == [p.format(matcher.matcher_name) for p in problems]


@pytest.mark.parametrize(
    ("it", "pref", "message"),
    [
        ({}, {}, EITHER.format("InstancetypeMatcher")),  # the preference is only checked when the first is fine
        ({"name": "n", "inferFromVolume": "v", "kind": "k"}, None, f"{NAME_SET}, {KIND_SET}"),
        ({"name": "n"}, {"inferFromVolume": "v", "kind": "k"}, KIND_SET),
    ],
)
def test_mutate_rejects_bad_matchers(it: Spec, pref: Spec | None, message: str) -> None:
    with pytest.raises(KubeVirtError) as caught:
        mutate(vm(it, pref), NS, catalog())
    assert (caught.value.stage, caught.value.message) == ("mutate", message)


STORAGE_PREF: Spec = {"preferredArchitecture": "arm64", "machine": {"preferredMachineType": "virt-9.0"},
                      "volumes": {"preferredStorageClassName": "fast"}}
DVTS = [{"metadata": {"name": "a"}, "spec": {"pvc": {}, "storage": {"storageClassName": "slow"}}},
        {"metadata": {"name": "b"}, "spec": {"storage": {"storageClassName": None}}},
        {"metadata": {"name": "c"}, "spec": {"source": {"blank": {}}}}]


DVTS_FILLED = [
    {"metadata": {"name": "a"}, "spec": {"pvc": {"storageClassName": "fast"}, "storage": {"storageClassName": "slow"}}},
    {"metadata": {"name": "b"}, "spec": {"storage": {"storageClassName": "fast"}}},
    {"metadata": {"name": "c"}, "spec": {"source": {"blank": {}}}},
]


@pytest.mark.parametrize(
    ("template", "expected_template"),
    [
        ({"domain": {}}, {"domain": {"machine": {"type": "virt-9.0"}}, "architecture": "arm64"}),
        ({"domain": {"machine": {"type": "q35"}}, "architecture": "s390x"},
         {"domain": {"machine": {"type": "q35"}}, "architecture": "s390x"}),
    ],
)
def test_mutate_writes_preferred_defaults(template: Spec, expected_template: Spec) -> None:
    machine = vm(None, {"name": "p"}, template, dataVolumeTemplates=copy.deepcopy(DVTS))
    before = copy.deepcopy(machine)
    out = mutate(machine, NS, catalog((P_CL, "p", STORAGE_PREF)))
    assert machine == before
    assert out["spec"]["template"]["spec"] == expected_template
    assert out["spec"]["dataVolumeTemplates"] == DVTS_FILLED


def test_mutate_ignores_a_failing_preference_lookup() -> None:
    machine = vm(None, {"name": "missing"})
    assert mutate(machine, NS, catalog()) == machine


OVERCOMMIT = "spec.memory.overcommitPercent"
TOPOLOGY = "spec.cpu.preferredCPUTopology"
RATIO_2 = "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads"
SPREAD_CT = {"preferredCPUTopology": "spread", "spreadOptions": {"across": "CoresThreads"}}


def deprecated(old: str, new: str) -> str:
    return f"PreferredCPUTopology {old} is deprecated for removal in a future release, please use {new} instead"


@pytest.mark.parametrize(
    ("kind", "spec", "causes", "warnings"),
    [
        (IT_CL, {"memory": {"guest": "1Gi", "overcommitPercent": -15}},
         [(OVERCOMMIT, f"{OVERCOMMIT} '-15': must be in range between 0 and 100.")], []),
        (IT_NS, {"memory": {"guest": "1Gi", "overcommitPercent": 150}},
         [(OVERCOMMIT, f"{OVERCOMMIT} '150': must be in range between 0 and 100.")], []),
        (IT_CL, {"memory": {"guest": "1Gi", "overcommitPercent": 15, "hugepages": {"pageSize": "1Gi"}}},
         [(OVERCOMMIT, f"{OVERCOMMIT} and spec.memory.hugepages should not be requested together.")], []),
        (IT_CL, {"launchSecurity": {"sev": {}}}, [], [LAUNCH_SECURITY_WARNING]),
        (P_CL, {"cpu": {"preferredCPUTopology": "diagonal"}},
         [(TOPOLOGY, "unknown preferredCPUTopology diagonal")], []),
        (P_NS, {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "Nope"}}},
         [("spec.cpu.spreadOptions.across", "across Nope is not supported")], []),
        (P_CL, {"cpu": {**SPREAD_CT, "spreadOptions": {"across": "CoresThreads", "ratio": 3}}},
         [("spec.cpu.spreadOptions.ratio", RATIO_2)], []),
        (P_CL, {"preferSpreadSocketToCoreRatio": 3, "cpu": SPREAD_CT}, [("spec.cpu.spreadOptions.ratio", RATIO_2)], []),
        (P_CL, {"cpu": {"preferredCPUTopology": "preferSockets"}}, [], [deprecated("preferSockets", "sockets")]),
        (P_CL, {"cpu": {"preferredCPUTopology": "preferCores"}}, [], [deprecated("preferCores", "cores")]),
        (P_CL, {"cpu": {"preferredCPUTopology": "preferThreads"}}, [], [deprecated("preferThreads", "threads")]),
        (P_CL, {"cpu": {"preferredCPUTopology": "preferSpread"}}, [], [deprecated("preferSpread", "spread")]),
        (P_CL, {"cpu": {"preferredCPUTopology": "preferAny"}}, [], [deprecated("preferAny", "any")]),
    ],
)
def test_tv87_object_webhooks(kind: str, spec: Spec, causes: list[tuple[str, str]], warnings: list[str]) -> None:
    verdict = admit_object({"apiVersion": V1BETA1, "kind": kind, "metadata": {"name": "x"}, "spec": spec})
    assert [(c.field, c.message) for c in verdict.causes] == causes
    assert list(verdict.warnings) == warnings
