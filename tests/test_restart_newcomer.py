"""``diff --restart-impact`` on the restart-impact reproducers (testdata/newcomer-t6 N1-N5, testdata/repros-t6
W1-W2, copied from the shared reliability reproducers): what a team gating merges on restart impact needs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import invoke_cli

ROOT = Path(__file__).resolve().parent.parent / "testdata"
N = ROOT / "newcomer-t6"
W = ROOT / "repros-t6"
DIFF = ["--kubevirt-version", "main", "diff", "--restart-impact"]
CONFIG = ["--kubevirt-config", "kubevirt.yaml"]


def run(folder: Path, *args: str) -> tuple[str, str, int]:
    return invoke_cli([*DIFF, *args], folder)


def as_json(folder: Path, *args: str) -> dict[str, Any]:
    stdout, _, _ = run(folder, *args, "-o", "json")
    return dict(json.loads(stdout))


def test_n1_empty_objects_require_a_restart() -> None:
    """BIOS -> EFI, SMM and a TPM added ({} values), rng: {} added: RestartRequired, --fail-on restart exits 1."""
    for base, head, paths in (("base.yaml", "head.yaml", {"spec.template.spec.domain.devices.tpm",
                                                          "spec.template.spec.domain.firmware.bootloader.efi"}),
                              ("base-rng-only.yaml", "head-rng-only.yaml", {"spec.template.spec.domain.devices.rng"})):
        _, stderr, code = run(N / "N1", *CONFIG, "--base", base, head, "--fail-on", "restart")
        assert code == 1, stderr
        answer = as_json(N / "N1", *CONFIG, "--base", base, head)
        assert answer["outcome"] == "restart-required"
        assert paths <= {c["path"] for c in answer["vms"][0]["causes"]}


def test_n2_halted_and_deleted_are_their_own_outcomes() -> None:
    answer = as_json(N / "N2", *CONFIG, "--base", "base", "head")
    outcomes = {vm["name"]: vm["outcome"] for vm in answer["vms"]}
    assert outcomes == {"batch-1": "shuts-down", "legacy-3": "deleted"}
    assert answer["summary"]["shuts-down"] == 1 and answer["summary"]["deleted"] == 1
    stdout, stderr, code = run(N / "N2", *CONFIG, "--base", "base", "head", "--fail-on", "stop")
    assert code == 1
    assert "1 shut down, 1 deleted" in stdout
    assert "head/batch-1.yaml:9:3: error: VirtualMachine prod/batch-1: shuts down" in stderr
    _, _, code = run(N / "N2", *CONFIG, "--base", "base", "head", "--fail-on", "error")
    assert code == 0


def test_n3_non_migratable_hotplug_waits_for_a_restart() -> None:
    stdout, _, _ = run(N / "N3", *CONFIG, "--vmi-not-migratable", "--base", "base.yaml", "head.yaml")
    first = stdout.splitlines()[0]
    assert "reaches the guest at the next restart" in first
    assert "next migration" not in first


def test_n4_names_the_interface_field_and_the_fix() -> None:
    stdout, _, _ = run(N / "N4", *CONFIG, "--base", "base.yaml", "head.yaml")
    assert ("because spec.template.spec.domain.devices.interfaces[1].model: — → virtio (preference fedora "
            "(spec.devices.preferredInterfaceModel)); write `model: virtio` on this interface in the VM: then it is "
            "live") in stdout
    answer = as_json(N / "N4", *CONFIG, "--base", "base.yaml", "head-with-model.yaml")
    assert answer["outcome"] == "live-update"


def test_n5_findings_at_the_changed_field() -> None:
    _, _, code = run(N / "N5", *CONFIG, "--base", "base.yaml", "head.yaml", "--fail-on", "restart",
                     "--output-format", "github")
    assert code == 1
    head = (N / "N5" / "head.yaml").read_text().splitlines()
    assert head[10].strip().startswith("name: cx1.large")  # line 11: spec.instancetype.name
    answer = as_json(N / "N5", *CONFIG, "--base", "base.yaml", "head.yaml")
    assert answer["vms"][0]["location"] == "head.yaml:11:5"
    assert {c["location"] for c in answer["vms"][0]["causes"]} == {"head.yaml:11:5"}


def test_n5_github_annotation_line() -> None:
    _, stderr, _ = run(N / "N5", *CONFIG, "--base", "base.yaml", "head.yaml", "--fail-on", "restart",
                       "--output-format", "github")
    assert "::error file=head.yaml,line=11,col=5::" in stderr


def test_w1_refused_head_is_an_error_not_a_removal() -> None:
    folder = W / "W1-refused-head-vm-reported-removed"
    answer = as_json(folder, "--base", "base.yaml", "head.yaml")
    vm = answer["vms"][0]
    assert (answer["outcome"], vm["situation"], vm["source"]) == ("error", "running", "head.yaml")
    assert "quantities must match" in answer["error"]["message"]
    stdout, _, _ = run(folder, "--base", "base.yaml", "head.yaml", "-o", "markdown")
    assert "refused on update: admission webhook" in stdout
    _, _, code = run(folder, "--base", "base.yaml", "head.yaml", "--fail-on", "error")
    assert code == 1


def test_w2_missing_instancetype_is_an_error() -> None:
    folder = W / "W2-missing-instancetype-no-change"
    for case in "abc":
        answer = as_json(folder, "--base", f"{case}-base.yaml", f"{case}-head.yaml")
        assert answer["outcome"] == "error", case
        assert '"u1.mediun" not found' in answer["error"]["message"], case


def test_n11_template_change_reaches_new_vms_only() -> None:
    """A VirtualMachineTemplate's change is no live update: KubeVirt never updates VMs made from it."""
    folder = ROOT / "restart-template"
    answer = as_json(folder, "--base", "base.yaml", "head.yaml")
    vm = answer["vms"][0]
    assert (vm["outcome"], vm["situation"]) == ("no-change", "template")
    assert "reaches only VMs created from it after the merge" in vm["summary"]
    _, _, code = run(folder, "--base", "base.yaml", "head.yaml", "--fail-on", "live")
    assert code == 0


N14_VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: w
spec:
  runStrategy: Always
  instancetype:
    name: u1.small
  template:
    spec:
      domain:
        cpu:
          model: host-model
          maxSockets: 4
        devices: {}
"""
N14_SAID = ("spec.template.spec.domain.cpu.{}: {} is a value KubeVirt computes when the VM starts; committed, it is "
            "pinned, and adding or changing it on a running VM flags RestartRequired although the guest does not "
            "change (kubevirt#17610)")


def test_n14_one_wording_for_a_start_time_value(tmp_path: Path) -> None:
    """render and validate (a committed value equal to KubeVirt's) and diff --restart-impact (a value a change
    adds) warn in the same words, from one place (pipeline/restart_defaults.message)."""
    (tmp_path / "base.yaml").write_text(N14_VM.replace("          model: host-model\n          maxSockets: 4\n", ""))
    (tmp_path / "head.yaml").write_text(N14_VM)
    said = [N14_SAID.format("maxSockets", 4), N14_SAID.format("model", "host-model")]
    for command in (["validate", "head.yaml"], ["render", "-f", "head.yaml"]):
        _, err, code = invoke_cli(command, tmp_path)
        assert (err, code) == (f"head.yaml:14:11: warning: VirtualMachine default/w: {said[0]}\n"
                               f"head.yaml:13:11: warning: VirtualMachine default/w: {said[1]}\n", 0)
    out, err, code = invoke_cli(["diff", "--restart-impact", "--base", "base.yaml", "head.yaml"], tmp_path)
    assert "".join(f"  warning: {s}\n" for s in said) in out and code == 1, err


def test_removed_bridge_nic_names_the_hot_unplug() -> None:
    """A bridge NIC removed from a running VM requires a restart; kept with state: absent it is unplugged live
    (testdata/restart-nic-removed: conformance-restart net-remove-0000's BASE, the interface and network deleted)."""
    answer = as_json(ROOT / "restart-nic-removed", "--no-builtin-catalog", "--base", "base.yaml", "head.yaml")
    cause = answer["vms"][0]["causes"][0]
    assert (answer["outcome"], cause["path"]) == ("restart-required", "spec.template.spec.domain.devices.interfaces[1]")
    assert cause["fix"] == ("keep interface `blue` with `state: absent` instead of removing it: then it is unplugged "
                            "live")
