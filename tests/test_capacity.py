"""The capacity report (kubectl_instancetype.capacity) over hand-written launcher Pods: admission in file order,
totals of the admitted Pods, each quota's use and headroom, and the three views."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import TESTDATA, check_golden

from kubectl_instancetype import schemas
from kubectl_instancetype.capacity import views
from kubectl_instancetype.capacity.model import Launcher, PlacedQuota, report, starts
from kubectl_instancetype.errors import Location
from kubectl_instancetype.quota.admission import resource_quota


def pod(memory: str, limit: str | None = None, **extra: str) -> dict[str, Any]:
    limits = {"devices.kubevirt.io/kvm": "1", **({"memory": limit} if limit else {})}
    return {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [
        {"name": "compute", "resources": {"requests": {"cpu": "100m", "memory": memory, **extra}, "limits": limits}}]}}


def launcher(name: str, one: dict[str, Any] | None, namespace: str = "team-a", started: bool = True,
             error: str = "") -> Launcher:
    return Launcher(namespace, name, Location("vms.yaml", 1, 1), one, error, started)


QUOTA = PlacedQuota(resource_quota({"metadata": {"name": "compute", "namespace": "team-a"},
                                    "spec": {"hard": {"limits.memory": "6Gi", "pods": "10"}}}, "default"),
                    Location("quota.yaml", 1, 1))
LAUNCHERS = [launcher("web-1", pod("2262Mi", "3Gi")), launcher("web-2", pod("2262Mi", "3Gi")),
             launcher("web-3", pod("2262Mi", "3Gi")), launcher("db", pod("4Gi", "4Gi", **{"hugepages-2Mi": "1Gi"})),
             launcher("off", pod("1Gi", "1Gi"), started=False), launcher("bad", None, error="admission refused"),
             launcher("other", pod("1Gi"), namespace="team-b")]


def test_vms_are_admitted_in_file_order_until_a_quota_is_exhausted() -> None:
    made = report(LAUNCHERS, [QUOTA])
    team_a, team_b = made.namespaces
    assert [(r.launcher.name, r.status) for r in team_a.rows] == [
        ("web-1", "admitted"), ("web-2", "admitted"), ("web-3", "refused"), ("db", "refused"), ("off", "stopped"),
        ("bad", "failed")]
    assert team_a.rows[2].reason == ("exceeded quota: compute, requested: limits.memory=3Gi, used: "
                                     "limits.memory=6Gi, limited: limits.memory=6Gi")
    assert {k: str(v) for k, v in team_a.requests.items()} == {
        "cpu": "200m", "memory": "4524Mi", "devices.kubevirt.io/kvm": "2"}
    assert {k: str(v) for k, v in team_a.quotas[0].remaining().items()} == {"limits.memory": "0", "pods": "8"}
    assert [r.status for r in team_b.rows] == ["admitted"] and team_b.quotas == ()


def test_all_counts_the_stopped_vms() -> None:
    made = report([launcher("off", pod("1Gi", "1Gi"), started=False)], [QUOTA], all_vms=True)
    assert [r.status for r in made.rows()] == ["admitted"]


def test_which_vms_start() -> None:
    assert [starts({"spec": spec}) for spec in (
        {"runStrategy": "Always"}, {"runStrategy": "RerunOnFailure"}, {"runStrategy": "Once"},
        {"runStrategy": "Halted"}, {"runStrategy": "Manual"}, {"running": True}, {"running": False}, {})] == [
        True, True, True, False, False, True, False, False]


def test_text_view(update_goldens: bool) -> None:
    out = views.text(report(LAUNCHERS[:4] + LAUNCHERS[6:], [QUOTA]))
    check_golden(TESTDATA / "capacity" / "views", {"table.txt": out}, update_goldens)


def test_json_view_is_versioned() -> None:
    out = json.loads(views.as_json(report(LAUNCHERS, [QUOTA])))
    assert (out["apiVersion"], out["kind"], out["summary"]) == (
        "kubectl-instancetype.io/v1", "CapacityReport",
        {"vms": 7, "admitted": 3, "refused": 2, "stopped": 1, "failed": 1})
    web3 = out["namespaces"][0]["vms"][2]
    assert web3["refusal"]["quota"] == "compute" and web3["limits"] == {"devices.kubevirt.io/kvm": "1",
                                                                        "memory": "3Gi"}
    assert out["namespaces"][0]["quotas"][0]["remaining"] == {"limits.memory": "0", "pods": "8"}
    # a live migration's target Pod is one more launcher Pod: no limits.memory is left for it
    assert out["namespaces"][0]["vms"][0]["migration"] == {"admitted": False, "message": (
        "exceeded quota: compute, requested: limits.memory=3Gi, used: limits.memory=6Gi, limited: limits.memory=6Gi")}
    assert out["namespaces"][1]["vms"][0]["migration"] == {"admitted": True, "message": None}


def test_markdown_escapes_every_manifest_string() -> None:
    hostile = launcher("a|b`<img src=x>_*", pod("1Gi"), namespace="ns|x")
    out = views.markdown(report([hostile], []))
    assert "a\\|b\\`\\<img src=x\\>\\_\\*" in out and "#### Namespace ns\\|x" in out
    assert not re.search(r"(?<!\\)[<`]", out.removeprefix(views.MARKER))


def test_json_view_follows_the_shipped_schema() -> None:
    import jsonschema

    schema = schemas.schema("CapacityReport")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(views.as_json(report(LAUNCHERS, [QUOTA]))), schema)


def test_text_escapes_control_characters() -> None:
    out = views.text(report([launcher("web\x1b[31m\nx", pod("1Gi"), namespace="ns\x07")], []))
    assert "\x1b" not in out and "\x07" not in out and "web\\x1b[31m\\nx" in out


def test_markdown_stays_within_the_comment_cap() -> None:
    many = [launcher(f"web-{i}", pod("2262Mi", "3Gi")) for i in range(2000)]
    made = report(many, [QUOTA])
    whole = views.markdown(made, cap=10**9)
    assert whole.startswith(views.MARKER + "\n") and "| web-1999 |" in whole and len(whole) > views.COMMENT_LIMIT
    short = views.markdown(made)
    assert len(short) <= views.COMMENT_LIMIT and "| web-1999 |" not in short and "| TOTAL (admitted) |" in short
    assert "left out to keep this comment within GitHub's limit" in short
