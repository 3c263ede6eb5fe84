"""What a diff does to the node-level requests and limits (gitops.node_resources), in the text, JSON and
Markdown views of ``diff``, over hand-written launcher Pods."""

from __future__ import annotations

import json
from typing import Any

from kubectl_instancetype.gitops import report
from kubectl_instancetype.gitops.node_resources import NodeResources, moves, of_pod
from kubectl_instancetype.gitops.vmdiff import VMState, compare


def pod(memory: str, cpu: str = "200m", limit: str | None = None) -> NodeResources:
    resources: dict[str, Any] = {"requests": {"cpu": cpu, "memory": memory}}
    if limit:
        resources["limits"] = {"memory": limit}
    return of_pod({"spec": {"containers": [{"name": "compute", "resources": resources}]}})


def state(memory: str, node: NodeResources | None) -> VMState:
    return VMState("vms/web.yaml", "u1.medium", "", 1, memory, f"memory: {memory}\n", "", "key-" + memory, node=node)


def test_moves_name_the_resources_that_change() -> None:
    assert [m.sentence() for m in moves(pod("4422Mi", limit="8Gi"), pod("8518Mi", limit="16Gi"))] == [
        "requests memory 4422Mi → 8518Mi (+4Gi)", "limits memory 8Gi → 16Gi (+8Gi)"]
    assert [m.sentence() for m in moves(None, pod("1Gi", "100m"))] == [
        "requests cpu - → 100m (+100m)", "requests memory - → 1Gi (+1Gi)"]
    assert moves(pod("1Gi"), pod("1024Mi")) == []


def changes() -> list[Any]:
    before = {("default", "web"): state("4Gi", pod("4422Mi")), ("default", "db"): state("2Gi", pod("2326Mi"))}
    after = {("default", "web"): state("8Gi", pod("8518Mi", "400m")), ("default", "db"): state("2Gi", pod("2326Mi"))}
    return compare(before, after, "main")


def test_text_names_each_vm_and_the_total() -> None:
    out = report.text(changes(), "main")
    assert "  node: requests cpu 200m → 400m (+200m)\n  node: requests memory 4422Mi → 8518Mi (+4Gi)\n" in out
    assert out.endswith("node total: requests cpu 400m → 600m (+200m)\n"
                        "node total: requests memory 6748Mi → 10844Mi (+4Gi)\n"
                        "1 of 2 VirtualMachines change against main\n")


def test_json_has_each_side_and_the_total() -> None:
    out = json.loads(report.as_json(changes(), "main"))
    web = next(vm for vm in out["vms"] if vm["name"] == "web")
    assert web["after"]["node"] == {"requests": {"cpu": "400m", "memory": "8518Mi"}, "limits": {}}
    assert out["node_total"][1] == {"kind": "requests", "resource": "memory", "before": "6748Mi",
                                    "after": "10844Mi", "delta": "+4Gi"}


def test_markdown_has_a_node_table() -> None:
    out = report.markdown(changes(), "main")
    assert ("| VM | resource | before | after | change |\n| --- | --- | --- | --- | --- |\n"
            "| `default/web` | requests cpu | 200m | 400m | +200m |\n"
            "| `default/web` | requests memory | 4422Mi | 8518Mi | +4Gi |\n"
            "| **all VMs** | requests cpu | 400m | 600m | +200m |\n") in out


def test_without_pods_the_views_are_as_before() -> None:
    plain = {("default", "web"): state("4Gi", None)}
    grown = {("default", "web"): state("8Gi", None)}
    found = compare(plain, grown, "main")
    assert "node" not in report.text(found, "main") and "node" not in report.as_json(found, "main")
    assert "Node-level" not in report.markdown(found, "main")
