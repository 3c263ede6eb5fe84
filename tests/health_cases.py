"""The VM and VMI statuses both health checks are tested on (testdata/gitops-health/expected.yaml): Argo CD's own
test data for kubevirt.io, and KubeVirt statuses with RestartRequired, stopped as declared and
status.observedGeneration behind metadata.generation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import TESTDATA
from ruamel.yaml import YAML

HEALTH = TESTDATA / "gitops-health"


def _object(case: dict[str, Any]) -> dict[str, Any]:
    if "file" in case:
        data: dict[str, Any] = YAML(typ="safe").load((HEALTH / case["file"]).read_text())
        return data
    obj = case["object"]
    return {"apiVersion": "kubevirt.io/v1", "kind": obj.get("kind", "VirtualMachine"),
            "metadata": {"name": case["name"], "namespace": "default", **obj.get("metadata", {})},
            "spec": obj.get("spec", {}), **({"status": obj["status"]} if "status" in obj else {})}


def cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, object, expected) for every case."""
    table = YAML(typ="safe").load((HEALTH / "expected.yaml").read_text())
    return [(case.get("name") or Path(case["file"]).relative_to("argo-cd").as_posix(), _object(case), case)
            for case in table]
