""".ci/: the CI script and the host-tools fetcher it runs before the tests."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import hosts
import pytest
from conftest import ROOT, load_script

HOST_TOOLS = ROOT / ".ci" / "host-tools"


def host_tools_module() -> ModuleType:
    return load_script(HOST_TOOLS, "host_tools")


def test_tests_look_where_host_tools_puts_them() -> None:
    module = host_tools_module()
    assert {layer.dirname for layer in module.LAYERS.values()} == set(hosts.LAYERS.values())
    assert module.LAYERS["v32"].helm.startswith("v3.") and module.LAYERS["v35"].helm.startswith("v4.")
    assert module.cache_dir() == hosts.cache_dir()


def test_host_tools_prints_only_assignments_of_runnable_tools() -> None:
    """Run as .ci/run runs it (from the cache when it is there: CI fetched it just before the tests)."""
    if not all(os.access(hosts.cache_dir() / layer / "helm", os.X_OK) for layer in hosts.LAYERS.values()):
        hosts.missing("the host-tools cache")
    done = subprocess.run([sys.executable, str(HOST_TOOLS)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assigned = dict(shlex.split(line.removeprefix("export "))[0].split("=", 1) for line in done.stdout.splitlines())
    assert set(assigned) == {"KIT_HELM3", "KIT_HELM4", "KIT_KUBECTLS", "KIT_HOST_BIN"}
    assert hosts.helm_major(assigned["KIT_HELM3"]) == 3 and hosts.helm_major(assigned["KIT_HELM4"]) == 4
    versions = [subprocess.run([path, "version", "--client"], capture_output=True, text=True, timeout=60).stdout
                for path in assigned["KIT_KUBECTLS"].split(os.pathsep)]
    assert ["v1.32." in versions[0], "v1.35." in versions[1]] == [True, True]
    assert os.access(os.path.join(assigned["KIT_HOST_BIN"], "kubectl"), os.X_OK)



@pytest.mark.slow
def test_ci_run_fails_when_pytest_runs_no_test(tmp_path: Path) -> None:
    """.ci/run's last lines, with the real pytest in a directory without tests: exit 5, said so."""
    script = (ROOT / ".ci" / "run").read_text()
    tail = script[script.index("# The README's test command"):]
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + tail], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PATH": path}, timeout=120)
    assert done.returncode == 5 and "ci: pytest ran no test" in done.stderr, done.stdout + done.stderr
