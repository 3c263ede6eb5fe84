"""Kubernetes' ResourceQuota admission of Pods (kubectl_instancetype.quota), on hand-written Pods.

The expected messages are the API server's (plugin/resourcequota/controller.go, evaluator/core/pods.go).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kubectl_instancetype.quantity import parse_quantity
from kubectl_instancetype.quota.admission import Ledger, QuotaError, resource_quota
from kubectl_instancetype.quota.pods import is_extended, matching_resources, pod_limits, pod_requests, usage
from kubectl_instancetype.quota.resources import add, pretty, subtract


def container(name: str, requests: dict[str, Any] | None = None, limits: dict[str, Any] | None = None,
              **extra: Any) -> dict[str, Any]:
    resources = {k: v for k, v in (("requests", requests), ("limits", limits)) if v is not None}
    return {"name": name, "resources": resources, **extra}


def pod(*containers: dict[str, Any], init: tuple[dict[str, Any], ...] = (), **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"containers": list(containers), **spec}
    if init:
        body["initContainers"] = list(init)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"generateName": "virt-launcher-vm-"}, "spec": body}


def quota(name: str, hard: dict[str, Any], **spec: Any) -> Any:
    return resource_quota({"kind": "ResourceQuota", "metadata": {"name": name}, "spec": {"hard": hard, **spec}},
                          "default")


def shown(values: dict[str, Any]) -> dict[str, str]:
    return {name: str(value) for name, value in values.items()}


@pytest.mark.parametrize(("a", "b", "total", "difference"), [
    ("1Gi", "512Mi", "1536Mi", "512Mi"),
    ("1Gi", "500M", "1573741824", "573741824"),
    ("500M", "1Gi", "1573741824", "-573741824"),
    ("0", "1Gi", "1Gi", "-1Gi"),       # a zero takes the other's format
    ("100m", "1", "1100m", "-900m"),
    ("+1Gi", "0", "1Gi", "1Gi"),       # the cached spelling is dropped by any Add
    ("9223372036854775807", "1", "9223372036854775808", "9223372036854775806"),
])
def test_quantity_add_and_sub_as_go(a: str, b: str, total: str, difference: str) -> None:
    left, right = parse_quantity(a), parse_quantity(b)
    assert (str(add(left, right)), str(subtract(left, right))) == (total, difference)


@pytest.mark.parametrize(("spec", "requests", "limits"), [
    # the containers' sum
    ({"containers": [container("a", {"cpu": "100m", "memory": "1Gi"}), container("b", {"cpu": "1"})]},
     {"cpu": "1100m", "memory": "1Gi"}, {}),
    # a limit without a request is the request too (SetDefaults_Pod)
    ({"containers": [container("a", None, {"memory": "2Gi"})]}, {"memory": "2Gi"}, {"memory": "2Gi"}),
    # at least the largest init container
    ({"containers": [container("a", {"memory": "1Gi"})],
      "initContainers": [container("i", {"memory": "3Gi", "cpu": "10m"})]}, {"memory": "3Gi", "cpu": "10m"}, {}),
    # a sidecar (restartable init container) adds up, and is counted under the init containers after it
    ({"containers": [container("a", {"memory": "1Gi"})],
      "initContainers": [container("s", {"memory": "1Gi"}, restartPolicy="Always"),
                         container("i", {"memory": "1536Mi"})]}, {"memory": "2560Mi"}, {}),
    # the RuntimeClass overhead: on every request, on the limits that are set
    ({"containers": [container("a", {"memory": "1Gi", "cpu": "1"}, {"memory": "1Gi"})],
      "overhead": {"memory": "120Mi", "cpu": "250m"}},
     {"memory": "1144Mi", "cpu": "1250m"}, {"memory": "1144Mi"}),
    # pod-level resources replace the containers' cpu and memory
    ({"containers": [container("a", {"memory": "1Gi"})], "resources": {"requests": {"memory": "4Gi"}}},
     {"memory": "4Gi"}, {}),
])
def test_pod_requests_and_limits(spec: dict[str, Any], requests: dict[str, str], limits: dict[str, str]) -> None:
    subject = {"kind": "Pod", "spec": spec}
    assert (shown(pod_requests(subject)), shown(pod_limits(subject))) == (requests, limits)


def test_usage_names_every_quota_resource_a_pod_uses() -> None:
    launcher = pod(container("compute", {"cpu": "100m", "memory": "2262Mi", "hugepages-2Mi": "2Gi",
                                         "devices.kubevirt.io/kvm": "1", "nvidia.com/gpu": "1",
                                         "ephemeral-storage": "50M"},
                             {"devices.kubevirt.io/kvm": "1", "nvidia.com/gpu": "1", "memory": "3Gi"}))
    assert shown(usage(launcher)) == {
        "count/pods": "1", "pods": "1", "cpu": "100m", "requests.cpu": "100m", "memory": "2262Mi",
        "requests.memory": "2262Mi", "limits.memory": "3Gi", "ephemeral-storage": "50M",
        "requests.ephemeral-storage": "50M", "hugepages-2Mi": "2Gi", "requests.hugepages-2Mi": "2Gi",
        "requests.devices.kubevirt.io/kvm": "1", "requests.nvidia.com/gpu": "1"}


@pytest.mark.parametrize(("name", "extended"), [
    ("nvidia.com/gpu", True), ("devices.kubevirt.io/kvm", True), ("cpu", False), ("kubernetes.io/x", False),
    ("example.com/-bad", False), ("requests.example.com/x", False)])
def test_extended_resources(name: str, extended: bool) -> None:
    assert is_extended(name) is extended


def test_a_quota_counts_extended_resources_only_as_requests() -> None:
    assert matching_resources(["limits.nvidia.com/gpu", "requests.nvidia.com/gpu", "services", "limits.memory",
                               "requests.hugepages-1Gi", "hugepages-2Mi", "requests.storage"]) == [
        "requests.nvidia.com/gpu", "limits.memory", "requests.hugepages-1Gi", "hugepages-2Mi"]


def run(quotas: list[Any], pods: list[dict[str, Any]]) -> list[str]:
    ledger = Ledger.of(tuple(quotas))
    out = []
    for one in pods:
        verdict, ledger = ledger.admit(one)
        out.append(verdict.reason or "admitted")
    return out


LAUNCHER = pod(container("compute", {"cpu": "100m", "memory": "1Gi"}, {"memory": "2Gi"}))


@pytest.mark.parametrize(("quotas", "pods", "verdicts"), [
    ([quota("compute", {"limits.memory": "5Gi"})], [LAUNCHER, LAUNCHER, LAUNCHER],
     ["admitted", "admitted",
      "exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=4Gi, limited: limits.memory=5Gi"]),
    # the first refusal is the first to count: used starts at the quota controller's 0
    ([quota("compute", {"requests.memory": "512Mi", "requests.cpu": "1", "pods": "10"})], [LAUNCHER],
     ["exceeded quota: compute, requested: requests.memory=1Gi, used: requests.memory=0, "
      "limited: requests.memory=512Mi"]),
    # several resources over at once, sorted by name
    ([quota("q", {"cpu": "50m", "memory": "1"})], [LAUNCHER],
     ["exceeded quota: q, requested: cpu=100m,memory=1Gi, used: cpu=0,memory=0, limited: cpu=50m,memory=1"]),
    # a quota tracking limits.cpu refuses a container without one, whatever it has room for
    ([quota("compute", {"limits.cpu": "100", "limits.memory": "100Gi"})],
     [pod(container("compute", {"cpu": "1"}, {"memory": "1Gi"}), container("volumerootdisk", {"cpu": "1m"}))],
     ["failed quota: compute: must specify limits.cpu for: compute,volumerootdisk; "
      "limits.memory for: volumerootdisk"]),
    # a refused Pod uses nothing
    ([quota("pods", {"pods": "1"})], [LAUNCHER, LAUNCHER], ["admitted",
     "exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1"]),
    ([quota("objects", {"count/pods": "0"})], [LAUNCHER],
     ["exceeded quota: objects, requested: count/pods=1, used: count/pods=0, limited: count/pods=0"]),
    # scopes: a BestEffort quota does not apply to a Pod with requests; a PriorityClass one only to its class
    ([quota("be", {"pods": "0"}, scopes=["BestEffort"]),
      quota("gold", {"pods": "0"}, scopeSelector={"matchExpressions": [
          {"scopeName": "PriorityClass", "operator": "In", "values": ["gold"]}]})],
     [LAUNCHER, pod(container("compute", {"cpu": "1"}), priorityClassName="gold")],
     ["admitted", "exceeded quota: gold, requested: pods=1, used: pods=0, limited: pods=0"]),
    ([quota("t", {"pods": "0"}, scopes=["Terminating"]), quota("n", {"pods": "1"}, scopes=["NotTerminating"])],
     [pod(container("c"), activeDeadlineSeconds=0), LAUNCHER],
     ["exceeded quota: t, requested: pods=1, used: pods=0, limited: pods=0", "admitted"]),
    ([quota("x", {"pods": "0"}, scopes=["CrossNamespacePodAffinity"])],
     [LAUNCHER, pod(container("c"), affinity={"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 1, "podAffinityTerm": {"topologyKey": "k", "namespaceSelector": {}}}]}})],
     ["admitted", "exceeded quota: x, requested: pods=1, used: pods=0, limited: pods=0"]),
    # a constraint of a later quota is reported before an earlier quota is exceeded (CheckRequest's order)
    ([quota("a", {"pods": "0"}), quota("b", {"requests.memory": "10Gi"})], [pod(container("c", {"cpu": "1"}))],
     ["failed quota: b: must specify requests.memory for: c"]),
    # a quota on hugepages and devices
    ([quota("dev", {"requests.hugepages-2Mi": "2Gi", "requests.devices.kubevirt.io/kvm": "1"})],
     [pod(container("compute", {"hugepages-2Mi": "2Gi", "devices.kubevirt.io/kvm": "1"}))] * 2,
     ["admitted", "exceeded quota: dev, requested: requests.devices.kubevirt.io/kvm=1,requests.hugepages-2Mi=2Gi, "
      "used: requests.devices.kubevirt.io/kvm=1,requests.hugepages-2Mi=2Gi, "
      "limited: requests.devices.kubevirt.io/kvm=1,requests.hugepages-2Mi=2Gi"]),
])
def test_admission(quotas: list[Any], pods: list[dict[str, Any]], verdicts: list[str]) -> None:
    assert run(quotas, pods) == verdicts


def test_used_adds_up_in_the_first_pods_format() -> None:
    ledger = Ledger.of((quota("q", {"requests.memory": "100Gi"}),))
    for amount in ("1Gi", "500M"):
        _verdict, ledger = ledger.admit(pod(container("c", {"memory": amount})))
    assert pretty(ledger.used[0]) == "requests.memory=1573741824"


@pytest.mark.parametrize(("spec", "message"), [
    ({"hard": {"pods": "x"}}, "spec.hard[pods]: quantities must match the regular expression"),
    ({"hard": ["pods"]}, "spec.hard must be an object"),
    ({"scopes": "BestEffort"}, "spec.scopes and spec.scopeSelector.matchExpressions must be lists"),
    ({"scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "Gt"}]}},
     "'Gt' is not a valid scope selector operator"),
    ({"scopes": ["BestEffort"], "scopeSelector": {"matchExpressions": [
        {"scopeName": "NotBestEffort", "operator": "DoesNotExist"}]}}, "scope NotBestEffort: the operator must be"),
])
def test_quotas_the_api_server_would_not_store(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(QuotaError, match=re.escape(message)):
        resource_quota({"metadata": {"name": "q"}, "spec": spec}, "default")


@pytest.mark.parametrize(("overhead", "fixed", "result", "refusal"), [
    (None, {"memory": "120Mi", "cpu": "250m"}, {"memory": "120Mi", "cpu": "250m"}, ""),
    ({"memory": "125829120"}, {"memory": "120Mi"}, {"memory": "120Mi"}, ""),  # the same quantity
    ({"memory": "1Gi"}, {"memory": "120Mi"}, {"memory": "1Gi"},
     "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"),
    (None, None, None, ""),
    ({"memory": "1Gi"}, None, {"memory": "1Gi"},
     "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"),
])
def test_runtime_class_admission_sets_the_overhead(overhead: Any, fixed: Any, result: Any, refusal: str) -> None:
    from kubectl_instancetype.quota.runtimeclass import admitted

    subject = pod(container("compute", {"memory": "1Gi"}), runtimeClassName="kata",
                  **({"overhead": overhead} if overhead else {}))
    runtime_class = {"kind": "RuntimeClass", "handler": "kata", **({"overhead": {"podFixed": fixed}} if fixed else {})}
    out, said = admitted(subject, runtime_class)
    assert (out["spec"].get("overhead"), said) == (result, refusal)


def limit_range(*items: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "LimitRange", "metadata": {"name": "lr"}, "spec": {"limits": list(items)}}


def resources(subject: dict[str, Any]) -> list[Any]:
    spec = subject["spec"]
    return [c.get("resources") for c in (*spec["containers"], *spec.get("initContainers", ()))]


@pytest.mark.parametrize(("ranges", "resources_after", "refusal"), [
    # default limits and requests go to every container that lacks them, init containers included
    ([limit_range({"type": "Container", "default": {"cpu": "500m"}, "defaultRequest": {"cpu": "100m"}})],
     [{"requests": {"memory": "1Gi", "cpu": "100m"}, "limits": {"cpu": "500m"}},
      {"requests": {"cpu": "100m"}, "limits": {"cpu": "500m"}}], ""),
    # as stored: max is the default limit, the default limit the default request
    ([limit_range({"type": "Container", "max": {"memory": "2Gi"}})],
     [{"requests": {"memory": "1Gi"}, "limits": {"memory": "2Gi"}},
      {"requests": {"memory": "2Gi"}, "limits": {"memory": "2Gi"}}], ""),
    ([limit_range({"type": "Container", "max": {"memory": "512Mi"}})],
     [{"requests": {"memory": "1Gi"}, "limits": {"memory": "512Mi"}},
      {"requests": {"memory": "512Mi"}, "limits": {"memory": "512Mi"}}],
     "maximum memory usage per Container is 512Mi, but request is 1Gi"),
    ([limit_range({"type": "Container", "min": {"cpu": "200m"}, "default": {"cpu": "1"}})],
     [{"requests": {"memory": "1Gi", "cpu": "1"}, "limits": {"cpu": "1"}},
      {"requests": {"cpu": "1"}, "limits": {"cpu": "1"}}], ""),
    ([limit_range({"type": "Pod", "max": {"memory": "1Gi"}})],
     [{"requests": {"memory": "1Gi"}}, {}], "maximum memory usage per Pod is 1Gi.  No limit is specified"),
    ([limit_range({"type": "Container", "maxLimitRequestRatio": {"memory": "2"}, "default": {"memory": "4Gi"}})],
     [{"requests": {"memory": "1Gi"}, "limits": {"memory": "4Gi"}},
      {"requests": {"memory": "4Gi"}, "limits": {"memory": "4Gi"}}],
     "memory max limit to request ratio per Container is 2, but provided ratio is 4.000000"),
    # several broken constraints: Go's aggregate in brackets
    ([limit_range({"type": "Container", "min": {"memory": "2Gi", "cpu": "1"}})],
     [{"requests": {"memory": "1Gi", "cpu": "1"}}, {"requests": {"memory": "2Gi", "cpu": "1"}}],
     "minimum memory usage per Container is 2Gi, but request is 1Gi"),
])
def test_limit_ranger(ranges: list[Any], resources_after: list[Any], refusal: str) -> None:
    from kubectl_instancetype.quota.limitranger import admitted

    subject = pod(container("compute", {"memory": "1Gi"}), init=({"name": "init"},))
    out, said = admitted(subject, ranges)
    assert (resources(out), said) == (resources_after, refusal)


def test_limit_ranger_joins_several_refusals_as_go_does() -> None:
    from kubectl_instancetype.quota.limitranger import violations

    subject = pod(container("a", {"memory": "1Gi", "cpu": "100m"}))
    assert violations(subject, limit_range({"type": "Container", "min": {"memory": "2Gi", "cpu": "1"}})) == (
        "[minimum cpu usage per Container is 1, but request is 100m, "
        "minimum memory usage per Container is 2Gi, but request is 1Gi]")


def test_a_request_above_its_limit_is_invalid() -> None:
    from kubectl_instancetype.quota.podvalidation import invalid

    assert invalid(pod(container("compute", {"memory": "2316Mi"}, {"memory": "1Gi"}))) == (
        'spec.containers[0].resources.requests: Invalid value: "2316Mi": must be less than or equal to memory '
        "limit of 1Gi")
    assert invalid(pod(container("compute", {"memory": "1Gi"}, {"memory": "1Gi"}))) == ""


def test_a_quota_can_start_from_its_status() -> None:
    exported = resource_quota({"metadata": {"name": "compute"}, "spec": {"hard": {"pods": "3", "limits.memory": "8Gi"}},
                               "status": {"hard": {"pods": "3"}, "used": {"pods": "2"}}}, "ns")
    fresh, live = Ledger.of((exported,)), Ledger.of((exported,), from_status=True)
    assert pretty(fresh.used[0]) == "limits.memory=0,pods=0" and pretty(live.used[0]) == "limits.memory=0,pods=2"
    assert live.admit(LAUNCHER)[0].admitted
    assert live.admit(LAUNCHER)[1].admit(LAUNCHER)[0].reason == (
        "exceeded quota: compute, requested: pods=1, used: pods=3, limited: pods=3")


def test_unbounded_names_the_limits_a_running_container_does_not_set() -> None:
    from kubectl_instancetype.quota.pods import unbounded

    assert unbounded(pod(container("compute", {"cpu": "1"}, {"memory": "1Gi"}),
                         container("log", None, {"cpu": "15m", "memory": "60M"}))) == ("cpu",)
    # a regular init container is over when the Pod runs; a sidecar is not
    assert unbounded(pod(container("c", None, {"cpu": "1", "memory": "1Gi"}),
                         init=(container("i", {"cpu": "1"}),))) == ()
    assert unbounded(pod(container("c", None, {"cpu": "1", "memory": "1Gi"}),
                         init=(container("s", {"cpu": "1"}, restartPolicy="Always"),))) == ("cpu", "memory")
