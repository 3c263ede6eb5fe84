"""``--write`` is atomic: a process killed at any moment leaves each file with its old or its new content.

The test starts real ``render --write`` processes on a large file and kills them (SIGKILL, so no clean-up
code runs) after increasing delays, then compares the file with the two possible contents.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

VM = """\
# vm {i}
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i}
spec:
  runStrategy: Always
  instancetype:
    name: u1.medium  # keep this comment
  preference:
    name: fedora
  template:
    spec:
      domain:
        devices: {{}}
      volumes:
      - name: root
        containerDisk:
          image: quay.io/containerdisks/fedora:41
"""


def _command(path: Path) -> list[str]:
    return [sys.executable, "-m", "kubectl_instancetype", "render", "--write", "-f", str(path)]


@pytest.mark.slow
def test_killed_write_leaves_old_or_new_content(tmp_path: Path) -> None:
    old = "---\n".join(VM.format(i=i) for i in range(400))
    reference = tmp_path / "reference.yaml"
    reference.write_text(old)
    subprocess.run(_command(reference), check=True, capture_output=True)
    new = reference.read_text()
    assert new != old
    target = tmp_path / "vms.yaml"
    outcomes = set()
    for delay in (0.05, 0.15, 0.3, 0.45, 0.6, 0.8, 1.0, 1.3, 1.7, 2.5):
        target.write_text(old)
        os.chmod(target, 0o640)
        proc = subprocess.Popen(_command(target), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        content = target.read_text()
        assert content in (old, new), f"partial file after {delay}s"
        assert target.stat().st_mode & 0o777 == 0o640
        outcomes.add("new" if content == new else "old")
    # Stray temporary files of killed writers are hidden dot-files next to the target, never the target.
    assert {p.name for p in tmp_path.iterdir() if not p.name.startswith(".")} == {"reference.yaml", "vms.yaml"}
    assert outcomes <= {"old", "new"}
