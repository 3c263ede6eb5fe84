"""Shared fixtures: where the repository and its test data live.

The KubeVirt corpora are copies kept in testdata/ by scripts/refresh-corpus; only the reference
common-instancetypes bundles come from the steering repository beside a checkout (tests that need
them skip, saying why, on a fresh clone).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# CI runs bounded property tests; HYPOTHESIS_PROFILE=fuzz digs deeper when there is time.
settings.register_profile("ci", max_examples=60)
settings.register_profile("fuzz", max_examples=3000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
SHARED = ROOT.parent / "shared"
CONFORMANCE = TESTDATA / "conformance"
VALIDATION = TESTDATA / "validation"
REFERENCE_BUNDLES = SHARED / "catalog"
needs_bundles = pytest.mark.skipif(
    not REFERENCE_BUNDLES.is_dir(), reason=f"the common-instancetypes reference bundles are not in {REFERENCE_BUNDLES}"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens", action="store_true", default=False, help="rewrite golden files under testdata/"
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


# The CLI raises Python's recursion limit for deeply nested documents (cli.RECURSION_LIMIT); raising it
# once here keeps hypothesis from warning that a test changed it.
def _raise_recursion_limit() -> None:
    import sys

    from kubectl_instancetype.cli import RECURSION_LIMIT

    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


_raise_recursion_limit()


def invoke_cli(args: list[str], cwd: Path, env: dict[str, str] | None = None,
               stdin: str | None = None) -> tuple[str, str, int]:
    """``kubectl instancetype ARGS`` through click's runner in ``cwd`` (outside GitHub Actions' annotations):
    stdout, stderr and the exit status."""
    from click.testing import CliRunner

    from kubectl_instancetype.cli import main_group

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main_group, args, prog_name="kubectl instancetype",
                                    env={"GITHUB_ACTIONS": None, **(env or {})}, input=stdin)
    finally:
        os.chdir(here)
    return result.stdout, result.stderr, result.exit_code


def check_golden(folder: Path, actual: dict[str, str], update: bool) -> None:
    """Each ``actual`` text equals the file of its name in ``folder`` (rewritten first with --update-goldens)."""
    if update:
        for name, text in actual.items():
            (folder / name).write_text(text)
    for name, text in actual.items():
        assert text == (folder / name).read_text(), f"{folder.name}: {name} differs"


def load_script(path: Path, name: str) -> ModuleType:
    """A Python file of the repo that is no package module (a script without ``.py``, a corpus runner), loaded
    as module ``name`` (registered, as dataclasses look their module up)."""
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def git(repo: Path, *args: str) -> str:
    """``git ARGS`` in ``repo`` with a fixed identity; its standard output, stripped."""
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"})
    return done.stdout.strip()
