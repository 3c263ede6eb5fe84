"""``diff --restart-impact`` and a VM named only by ``metadata.generateName``: matched across revisions by its
generateName as ``diff`` matches it, and answered as what it is: no running VM's document (each ``kubectl create``
makes another VM of a new name; ``kubectl apply`` refuses it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke_cli

VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  generateName: web-
spec:
  instancetype:
    name: u1.small
  runStrategy: Always
  template:
    spec:
      domain:
        devices: {}
"""
OTHER = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n"
ARGS = ["--kubevirt-version", "main", "diff", "--restart-impact", "--base", "base.yaml", "head.yaml"]
NAME = "default/web-<assigned by the cluster>"
SAID = "named only by metadata.generateName: "
APPLY = '; kubectl apply refuses it ("from web-: cannot use generate name with apply")'
CASES = {
    "head only": (OTHER, VM, "head.yaml:1:1",
                  "each kubectl create makes a new VM from HEAD, and no running VM is touched"),
    "both": (VM, VM.replace("u1.small", "u1.medium"), "head.yaml:1:1",
             "each kubectl create makes a new VM from HEAD; the VMs created from BASE have names of their own and "
             "keep what they run with"),
    "base only": (VM, OTHER, "base.yaml:1:1",
                  "no longer created from this file; the VMs created from it have names of their own and are "
                  "neither deleted nor changed"),
}


def _files(tmp_path: Path, base: str, head: str) -> None:
    (tmp_path / "base.yaml").write_text(base)
    (tmp_path / "head.yaml").write_text(head)


@pytest.mark.parametrize("case", CASES)
def test_text(case: str, tmp_path: Path) -> None:
    base, head, where, reach = CASES[case]
    _files(tmp_path, base, head)
    out, err, status = invoke_cli([*ARGS, "--fail-on", "live"], tmp_path)
    assert status == 0, err
    assert out.startswith(f"{NAME} ({where}): generated: {SAID}{reach}{APPLY}\n"
                          "restart impact: 0 restart required, 0 live-updated, 1 without effect on the running VM\n"
                          f"VirtualMachine {NAME} (")
    if head is VM or case == "both":  # diff's own note, one for the VM of HEAD
        assert err.endswith(f"head.yaml:1:1: note: VirtualMachine {NAME}: diff matches VMs across revisions by "
                            "name, and this one has none (each kubectl create makes another VM): it is compared "
                            "with the VM of the same generateName\n")


@pytest.mark.parametrize("case", CASES)
def test_json_and_markdown(case: str, tmp_path: Path) -> None:
    base, head, where, reach = CASES[case]
    _files(tmp_path, base, head)
    out, _err, status = invoke_cli([*ARGS, "-o", "json"], tmp_path)
    vm = json.loads(out)["vms"][0]
    assert (status, vm["name"], vm["outcome"], vm["situation"], vm["location"]) == (
        1, "web-<assigned by the cluster>", "no-change", "generated", where)  # a change: diff says 1
    assert vm["applies"] == SAID + reach + APPLY
    out, _err, status = invoke_cli([*ARGS, "-o", "markdown"], tmp_path)
    assert f"- · `{NAME}`: generated: {SAID}{reach}{APPLY}\n" in out


def test_refused_on_create_is_an_error(tmp_path: Path) -> None:
    """A HEAD VM of that kind that the API server refuses is refused, as any other VM is (W1)."""
    _files(tmp_path, VM, VM.replace("  generateName: web-\n", "  generateName: web-\n  labels: {'a b': c}\n"))
    out, _err, status = invoke_cli([*ARGS, "-o", "json", "--fail-on", "error"], tmp_path)
    vm = json.loads(out)["vms"][0]
    assert (status, vm["outcome"]) == (1, "error"), out
