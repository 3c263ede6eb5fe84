"""Golden pull-request comments of ``diff --restart-impact -o markdown``: a resize within the hot-plug headroom,
an instancetype series change, a preference change, a NIC added, a change only to a catalog object, and a
stopped VM (testdata/restart-comments/<case>/{base,head}.yaml -> comment.md; --update-goldens rewrites them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_golden, invoke_cli

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "restart-comments"
CASES = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
ARGS = ["--kubevirt-version", "main", "--no-builtin-catalog", "diff", "--restart-impact", "--base", "base.yaml",
        "head.yaml", "-o", "markdown"]


@pytest.mark.parametrize("name", CASES)
def test_comment(name: str, update_goldens: bool) -> None:
    stdout, stderr, code = invoke_cli(ARGS, ROOT / name)
    assert stderr == ""
    assert code in (0, 1)
    check_golden(ROOT / name, {"comment.md": stdout}, update_goldens)


def test_fail_on_restart(tmp_path: Path) -> None:
    _, stderr, code = invoke_cli([*ARGS[:-2], "-o", "json", "--fail-on", "restart"], ROOT / "series")
    assert code == 1
    # at the field that decided it (N5): the instancetype's name, whose object supplies the changed fields
    assert stderr == ("head.yaml:91:5: error: VirtualMachine default/app-35: restart required: a non-live-updatable "
                      "field was changed in the template spec; because spec.template.spec.domain.memory.hugepages: "
                      "— → {\"pageSize\": \"2Mi\"} (instancetype m1.2xlarge (spec.memory.hugepages))\n")
    _, stderr, code = invoke_cli([*ARGS[:-2], "-o", "json", "--fail-on", "restart"], ROOT / "resize")
    assert (code, stderr) == (0, "")


def test_vmi_flags_need_restart_impact(tmp_path: Path) -> None:
    _, stderr, code = invoke_cli(["diff", "--fail-on", "restart", "--base", "x"], tmp_path)
    assert code == 2
    assert "--fail-on, --vmi-arch and --vmi-not-migratable go with --restart-impact" in stderr


def test_git_revisions_and_text(tmp_path: Path) -> None:
    """--base REV in a repository: the running VM as the revision started it, the working tree applied."""
    from conftest import git

    source = ROOT / "resize"
    (tmp_path / "vm.yaml").write_text((source / "base.yaml").read_text())
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "vm.yaml")
    git(tmp_path, "commit", "-qm", "base")
    (tmp_path / "vm.yaml").write_text((source / "head.yaml").read_text())
    stdout, stderr, code = invoke_cli(["--kubevirt-version", "main", "--no-builtin-catalog", "diff", "--restart-impact",
                                       "--base", "HEAD", "vm.yaml", "--fail-on", "restart"], tmp_path)
    assert (code, stderr) == (0, "")
    assert stdout.startswith(
        "default/jump-38 (vm.yaml:102:5): live update: CPU sockets 2 → 4, guest memory 8Gi → 16Gi; completes at the "
        "next migration (no workloadUpdateMethods)\nrestart impact: 0 restart required, 1 live-updated, 0 without "
        "effect on the running VM\n")


def test_long_comment_keeps_the_most_severe_first() -> None:
    from kubectl_instancetype.gitops.restart_impact import VMImpact
    from kubectl_instancetype.gitops.restart_report import markdown
    from kubectl_instancetype.pipeline.restart import Impact

    rows = [VMImpact("ns", f"vm-{i}", "vms.yaml", Impact("live-update", cpu=("1", "2"))) for i in range(50)]
    rows.append(VMImpact("ns", "vm-x", "vms.yaml", Impact("restart-required", "Reduction of CPU socket count "
                                                                              "requires a restart")))
    text = markdown(rows, "main", cap=1200)
    assert len(text) <= 1400
    assert text.index("`ns/vm-x`") < text.index("`ns/vm-0`")
    assert "more VMs left out to keep this comment short; `kubectl instancetype diff --restart-impact --base main`" \
        in text
