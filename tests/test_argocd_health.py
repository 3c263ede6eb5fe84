"""The Argo CD health check of ``drift -o argocd-health``, run as Argo CD runs it: the Lua chunk with the live
object as the global ``obj``, its returned table the health (a Lua runtime from PyPI, lupa)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import invoke_cli
from ruamel.yaml import YAML

from kubectl_instancetype.gitops.argocd_health import KEY, health_lua

lupa = pytest.importorskip("lupa")

RESTART = {"type": "RestartRequired", "status": "True",
           "message": "a non-live-updatable field was changed in the template spec"}
READY = {"type": "Ready", "status": "True"}


def health(obj: dict[str, Any], status: str = "Degraded") -> tuple[str, str]:
    lua = lupa.LuaRuntime(unpack_returned_tuples=True)
    lua.globals().obj = lua.table_from(obj, recursive=True)
    result = lua.execute(health_lua(status))
    return str(result["status"]), str(result["message"])


def vm(status: dict[str, Any] | None = None, **meta: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
                           "metadata": {"name": "web-1", "namespace": "default", **meta}, "spec": {}}
    if status is not None:
        out["status"] = status
    return out


@pytest.mark.parametrize(("obj", "expected"), [
    (vm(), ("Progressing", "No status available")),
    (vm({"conditions": [READY], "printableStatus": "Running", "created": True, "ready": True}),
     ("Healthy", "Running")),
    (vm({"conditions": [{"type": "Ready", "status": "False"}], "printableStatus": "Stopped"}),
     ("Suspended", "Stopped")),
    (vm({"conditions": [{"type": "Ready", "status": "False"}], "created": True, "printableStatus": "Starting"}),
     ("Progressing", "Starting")),
    (vm({"conditions": [READY, {"type": "Paused", "status": "True"}], "printableStatus": "Paused"}),
     ("Suspended", "Paused")),
    (vm({"conditions": [READY]}, deletionTimestamp="2026-01-01T00:00:00Z",
        finalizers=["kubevirt.io/virtualMachineControllerFinalize"]),
     ("Progressing", "Pending deletion; blocked by finalizers: kubevirt.io/virtualMachineControllerFinalize")),
    (vm({"conditions": [READY, RESTART], "printableStatus": "Running", "created": True}),
     ("Degraded", "RestartRequired: a non-live-updatable field was changed in the template spec (Running)")),
    (vm({"conditions": [READY, {**RESTART, "status": "False"}], "printableStatus": "Running"}),
     ("Healthy", "Running")),
    (vm({"conditions": [{"type": "Ready", "status": "False"}, RESTART], "printableStatus": "Stopped"}),
     ("Suspended", "Stopped")),
    (vm({"conditions": [READY, {"type": "RestartRequired", "status": "True", "reason": "Changed"}],
         "printableStatus": "Running"}),
     ("Degraded", "RestartRequired: Changed (Running)")),
])
def test_health(obj: dict[str, Any], expected: tuple[str, str]) -> None:
    assert health(obj) == expected


def test_progressing_variant() -> None:
    obj = vm({"conditions": [READY, RESTART], "printableStatus": "Running"})
    assert health(obj, "Progressing")[0] == "Progressing"
    with pytest.raises(ValueError):
        health_lua("Healthy")


def test_drift_prints_the_configmap(tmp_path: Any) -> None:
    stdout, stderr, code = invoke_cli(["drift", "-o", "argocd-health"], tmp_path)
    assert (code, stderr) == (0, "")
    cm = YAML(typ="safe").load(stdout)
    assert cm["metadata"]["name"] == "argocd-cm"
    assert cm["data"][KEY] == health_lua()
