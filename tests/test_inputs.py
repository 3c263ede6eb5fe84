"""Reading -f sources: directory walks, symbolic links leading out of a tree, size bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_instancetype.cli.inputs import Source, expand_paths, read_text
from kubectl_instancetype.errors import InternalLimitError


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.yaml").write_text("kind: x\n")
    (repo / "sub" / "a.yaml").write_text("kind: a\n")
    (repo / "notes.txt").write_text("not a manifest\n")
    (repo / "link.yaml").symlink_to(outside / "secret.yaml")
    (repo / "outdir").symlink_to(outside, target_is_directory=True)
    (repo / "inner.yml").symlink_to(repo / "sub" / "a.yaml")
    return repo


def names(tree: Path, recursive: bool, follow: bool = False) -> list[str]:
    return [str(Path(s.path).relative_to(tree)) for s in expand_paths((str(tree),), recursive, follow)]


def test_links_out_of_the_tree_are_skipped(tree: Path) -> None:
    # inner.yml is an alias of sub/a.yaml, which the walk lists itself: read once (#16, item 21)
    assert names(tree, recursive=True) == ["sub/a.yaml"]


def test_links_are_followed_when_asked(tree: Path) -> None:
    # link.yaml is an alias of outdir/secret.yaml once outdir is followed
    assert names(tree, recursive=True, follow=True) == ["outdir/secret.yaml", "sub/a.yaml"]


def test_without_recursion_only_the_top_level(tree: Path) -> None:
    assert names(tree, recursive=False) == ["inner.yml"]


def test_a_named_file_is_read_even_through_a_link(tree: Path) -> None:
    assert [s.path for s in expand_paths((str(tree / "link.yaml"),), False)] == [str(tree / "link.yaml")]


def test_reading_is_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a" * 10_000)
    with pytest.raises(InternalLimitError, match="larger than the limit of 100 bytes"):
        read_text(Source(str(big), "big.yaml"), max_bytes=100)


VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: linked
spec:
  runStrategy: Always
  instancetype:
    name: u1.small
  template:
    spec:
      domain:
        devices: {}
"""


@pytest.mark.parametrize("follow", [False, True])
def test_write_leaves_files_behind_links_alone_unless_asked(tmp_path: Path, follow: bool) -> None:
    from click.testing import CliRunner

    from kubectl_instancetype.cli import main_group

    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    (outside / "vm.yaml").write_text(VM)
    (repo / "vm.yaml").symlink_to(outside / "vm.yaml")
    args = ["render", "--write", "-R", "-f", str(repo)] + (["--follow-symlinks"] if follow else [])
    result = CliRunner().invoke(main_group, args)
    assert result.exit_code == 0, result.stderr
    assert ((outside / "vm.yaml").read_text() != VM) is follow
    assert (repo / "vm.yaml").is_symlink()
