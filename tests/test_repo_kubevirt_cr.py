"""``--repo-catalog`` also reads the KubeVirt CR the repository tracks: the cluster's feature gates and release
(``status.observedKubeVirtVersion``), as pre-commit runs the hooks with only the changed files."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, invoke_cli

VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web
spec:
  runStrategy: Always
  instancetype:
    name: u1.meduim
  preference:
    name: fedora
  template:
    spec:
      domain:
        devices: {}
"""
CR = """\
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata:
  name: kubevirt
  namespace: kubevirt
  finalizers:
  - foregroundDeleteKubeVirt
spec:
  configuration: {}
status:
  observedKubeVirtVersion: v1.5.0
"""
# v1.5's VM webhook refuses a VM whose instancetype it cannot find; later releases go on without it.
V15 = ('vms/web.yaml:7:3: error: VirtualMachine default/web: Failure to find instancetype: '
       'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.meduim" not found '
       '(did you mean "u1.medium"?)\n')
NEWEST = ("vms/web.yaml:9:3: error: VirtualMachine default/web: failure checking preference requirements: insufficient "
          "Memory resources of 0 provided by VirtualMachine, preference requires 2Gi\n"
          'vms/web.yaml:7:3: note: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.meduim" not found '
          '(did you mean "u1.medium"?)\n')


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    where = tmp_path / "repo"
    (where / "vms").mkdir(parents=True)
    (where / "cluster").mkdir()
    (where / "vms" / "web.yaml").write_text(VM)
    (where / "cluster" / "kubevirt.yaml").write_text(CR)
    git(where, "init", "-q", "-b", "main")
    git(where, "add", ".")
    return where


@pytest.mark.parametrize("command", ["validate", "render"])
def test_the_tracked_kubevirt_cr_is_the_clusters_configuration(command: str, repo: Path) -> None:
    assert invoke_cli([command, "vms/web.yaml"], repo) == ("", NEWEST, 1)
    assert invoke_cli([command, "vms/web.yaml", "--repo-catalog"], repo) == ("", V15, 1)


def test_a_named_configuration_wins(repo: Path) -> None:
    (repo / "newer.yaml").write_text(CR.replace("v1.5.0", "v1.8.0"))
    args = ["validate", "vms/web.yaml", "--repo-catalog"]
    assert invoke_cli([*args, "--kubevirt-config", "newer.yaml"], repo) == ("", NEWEST, 1)
    assert invoke_cli([*args, "newer.yaml"], repo) == ("", NEWEST, 1)  # a CR among the inputs
    assert invoke_cli([*args, "cluster/kubevirt.yaml"], repo) == ("", V15, 1)


def test_of_several_tracked_crs_none_is_chosen(repo: Path) -> None:
    (repo / "cluster" / "staging.yaml").write_text(CR.replace("v1.5.0", "v1.8.0"))
    git(repo, "add", ".")
    note = ("note: --repo-catalog: 2 KubeVirt CRs tracked (cluster/kubevirt.yaml, cluster/staging.yaml): none is "
            "read as the cluster's configuration; name one with --kubevirt-config\n")
    assert invoke_cli(["validate", "vms/web.yaml", "--repo-catalog"], repo) == ("", note + NEWEST, 1)
    excluded = ["validate", "vms/web.yaml", "--repo-catalog", "--exclude", "staging.yaml"]
    assert invoke_cli(excluded, repo) == ("", V15, 1)


def test_only_the_repositorys_own_regular_files_are_read(repo: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A tracked link out of the repository is not followed; a FIFO where a tracked file was is not opened
    (it would block): neither is a CR."""
    import os

    from kubectl_instancetype.cli.repo import repo_kubevirt_crs

    (tmp_path / "elsewhere.yaml").write_text(CR)
    (repo / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    (repo / "fifo.yaml").write_text("")
    git(repo, "add", "-A")
    (repo / "fifo.yaml").unlink()
    os.mkfifo(repo / "fifo.yaml")
    monkeypatch.chdir(repo)
    assert repo_kubevirt_crs(("vms/web.yaml",), ()) == (("cluster/kubevirt.yaml",), ())
    assert repo_kubevirt_crs(("cluster/kubevirt.yaml",), ()) == ((), ("cluster/kubevirt.yaml",))
    assert repo_kubevirt_crs((), ("kubevirt.yaml",)) == ((), ())
