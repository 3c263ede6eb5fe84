"""Issue #16: ``--write``, ``--output-dir``, ``--diff`` and ``diff --base`` never damage a file, never write
outside the tree they were given, and never end in a traceback. One regression test per reproducer.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio.load import load_stream

VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm1
spec:
  instancetype:
    name: u1.medium
  template:
    spec:
      domain:
        devices: {}
"""
LIST = "apiVersion: v1\nkind: List\nitems: []\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(main_group, list(args), prog_name="kubectl instancetype")


def expanded(text: str) -> bool:
    """Whether the VirtualMachine documents of ``text`` carry no instancetype reference any more."""
    vms = [d.data for d in load_stream(text, "t") if d.data.get("kind") == "VirtualMachine"]
    return bool(vms) and all("instancetype" not in vm["spec"] for vm in vms)


def test_empty_document_before_a_vm_does_not_shift_the_numbering(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(f"--- #\n---\n{VM}---\n{LIST}")
    result = run("render", "--write", str(path))
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert expanded(text)
    assert text.endswith(f"---\n{LIST}")  # the List is untouched, byte for byte
    assert [d.data["kind"] for d in load_stream(text, "t")] == ["VirtualMachine", "List"]


def test_empty_document_before_the_only_vm(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"--- #\n---\n{VM}")
    assert run("render", "--diff", str(path)).exit_code == 0
    result = run("render", "--write", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith("--- #\n---\n")
    assert expanded(path.read_text())
