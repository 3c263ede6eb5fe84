"""Golden VMIs of one VM under every cluster profile of testdata/config (``--update-goldens`` rewrites)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_instancetype.catalog import Catalog
from kubectl_instancetype.config import load_config
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.inputs.lists import flatten
from kubectl_instancetype.pipeline.stages import render_vmi
from kubectl_instancetype.yamlio import load_stream

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"

VM_FILE = TESTDATA / "vmi" / "vm.yaml"
PROFILES = ["default", *sorted(p.stem for p in (TESTDATA / "config").glob("*.yaml"))]


def _render(profile: str) -> dict[str, Any]:
    docs = list(flatten(load_stream(VM_FILE.read_text(encoding="utf-8"), str(VM_FILE))))
    catalog = Catalog()
    catalog.add_all([d for d in docs if d.data.get("kind") != "VirtualMachine"])
    vm = next(d.data for d in docs if d.data.get("kind") == "VirtualMachine")
    config_file = TESTDATA / "config" / f"{profile}.yaml"
    data = (
        next(iter(load_stream(config_file.read_text(encoding="utf-8"), str(config_file)))).data
        if (config_file.exists())
        else {}
    )
    try:
        return {"vmi": render_vmi(vm, "default", catalog, load_config(data, str(config_file)))}
    except KubeVirtError as exc:
        return {"error": exc.message, "stage": exc.stage}


@pytest.mark.parametrize("profile", PROFILES)
def test_profile(profile: str, update_goldens: bool) -> None:
    golden: Path = TESTDATA / "vmi" / f"{profile}.json"
    actual = _render(profile)
    if update_goldens:
        golden.write_text(json.dumps(actual, indent=2) + "\n", encoding="utf-8")
    assert actual == json.loads(golden.read_text(encoding="utf-8"))
