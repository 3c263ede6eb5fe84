"""What the capacity report takes from a render (capacity.sources): VMs with their Pods, a pool's replicas, the
Pods and ResourceQuotas of the files, LimitRanger and RuntimeClass admission."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.capacity.sources import counted
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.render import Item
from kubectl_instancetype.yamlio import load_stream

STREAM = """\
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: ns}
spec: {hard: {pods: "2"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: ns}
spec: {limits: [{type: Container, default: {memory: 1Gi}}]}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: web, namespace: ns}
spec: {runStrategy: Halted, template: {spec: {}}}
---
apiVersion: pool.kubevirt.io/v1alpha1
kind: VirtualMachinePool
metadata: {name: workers, namespace: ns}
spec: {replicas: 2, virtualMachineTemplate: {spec: {running: true, template: {spec: {}}}}}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: broken}
spec: {runStrategy: Always, template: {spec: {}}}
---
apiVersion: v1
kind: Pod
metadata: {generateName: job-, namespace: ns}
spec: {runtimeClassName: kata, containers: [{name: c, resources: {requests: {memory: 1Gi}}}]}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {memory: 160Mi}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: bad, namespace: ns}
spec: {hard: {pods: many}}
"""
LAUNCHER = {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "compute"}]}}


def items() -> list[Item]:
    out = []
    for doc in load_stream(STREAM, "all.yaml"):
        kind = doc.data["kind"]
        if kind == "VirtualMachine" and doc.data["metadata"]["name"] == "broken":
            out.append(Item(doc, None, True, KubeVirtError("VirtualMachine default/broken: failed to render launch "
                                                           "manifest: didn't find PVC data")))
        elif kind in ("VirtualMachine", "VirtualMachinePool"):
            out.append(Item(doc, LAUNCHER, True))
        else:
            out.append(Item(doc, doc.data, False))
    return out


def test_what_is_counted() -> None:
    found = counted(items(), "default")
    summary: list[tuple[Any, ...]] = [(x.kind, x.namespace, x.name, x.started, x.pod is not None, x.error)
                                      for x in found.launchers]
    assert summary == [
        ("VirtualMachine", "ns", "web", False, True, ""),
        ("VirtualMachinePool", "ns", "workers-0", True, True, ""),
        ("VirtualMachinePool", "ns", "workers-1", True, True, ""),
        ("VirtualMachine", "default", "broken", True, False, "failed to render launch manifest: didn't find PVC data"),
        ("Pod", "ns", "job-", True, True, "")]
    assert found.launchers[-1].pod is not None
    assert found.launchers[-1].pod["spec"]["overhead"] == {"memory": "160Mi"}  # RuntimeClass admission
    assert [(q.quota.name, str(q.location)) for q in found.quotas] == [("compute", "all.yaml:1:1")]
    assert [p.message for p in found.problems] == [
        "VirtualMachine default/broken: failed to render launch manifest: didn't find PVC data",
        "ResourceQuota bad: spec.hard[pods]: quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]
    assert found.notices == ()
    # LimitRanger: the namespace's default memory limit goes to the containers that set none
    assert [(x.name, x.pod["spec"]["containers"][0]["resources"].get("limits")) for x in found.launchers
            if x.pod is not None and x.namespace == "ns"][-1] == ("job-", {"memory": "1Gi"})


def test_a_runtime_class_not_in_the_files_is_named_once() -> None:
    kept = [i for i in items() if i.document.data["kind"] != "RuntimeClass"]
    found = counted(kept + kept[-2:-1], "default")
    assert [n.message for n in found.notices] == [
        "RuntimeClass 'kata' is not in the files: the overhead it may set is not counted"]


GARBAGE: list[Any] = [None, 5, "x", [1], {"a": 1}, True]
POD_PATHS = [("spec",), ("spec", "containers"), ("spec", "containers", 0), ("spec", "containers", 0, "resources"),
             ("spec", "containers", 0, "resources", "requests"), ("spec", "containers", 0, "resources", "limits"),
             ("spec", "containers", 0, "resources", "requests", "cpu"), ("spec", "overhead"), ("spec", "affinity"),
             ("spec", "priorityClassName"), ("spec", "activeDeadlineSeconds"), ("spec", "resources"),
             ("spec", "initContainers"), ("spec", "runtimeClassName")]
QUOTA_PATHS = [("spec",), ("spec", "hard"), ("spec", "scopes"), ("spec", "scopeSelector"),
               ("spec", "scopeSelector", "matchExpressions"), ("spec", "scopeSelector", "matchExpressions", 0),
               ("spec", "hard", "pods"), ("status",), ("status", "used")]


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    import copy

    out = copy.deepcopy(data)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize("path", POD_PATHS + QUOTA_PATHS)
def test_garbage_never_crashes_the_report(path: tuple[Any, ...]) -> None:
    """Whatever a Pod or ResourceQuota of the files holds, the report is made (or the object is an input error)."""
    from kubectl_instancetype.capacity import views
    from kubectl_instancetype.capacity.model import report

    good_pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
                "spec": {"runtimeClassName": "kata", "priorityClassName": "gold", "containers": [
                    {"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2"}}}]}}
    good_quota = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns"},
                  "spec": {"hard": {"pods": "1", "limits.cpu": "1"}, "scopes": ["NotBestEffort"], "scopeSelector": {
                      "matchExpressions": [{"scopeName": "PriorityClass", "operator": "In", "values": ["gold"]}]}},
                  "status": {"used": {"pods": "0"}}}
    runtime_class = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata"},
                     "handler": "kata", "overhead": {"podFixed": {"memory": "160Mi"}}}
    limit_range = {"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "l", "namespace": "ns"},
                   "spec": {"limits": [{"type": "Container", "default": {"memory": "2Gi"}}]}}
    target = good_pod if path in POD_PATHS else good_quota
    for value in GARBAGE:
        data = [_set(target, path, value) if doc is target else doc
                for doc in (good_quota, limit_range, runtime_class, good_pod)]
        docs = [d for text in data for d in load_stream(__import__("json").dumps(text), "g.yaml")]
        found = counted([Item(doc, doc.data, False) for doc in docs], "default")
        for from_status in (False, True):
            made = report(found.launchers, found.quotas, from_status=from_status)
            views.text(made), views.as_json(made), views.markdown(made)
