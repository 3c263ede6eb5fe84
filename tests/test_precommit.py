"""The shipped pre-commit hooks, run for real by the ``pre-commit`` package on a temporary git repository.

``pre-commit try-repo`` runs the hooks of this checkout (its working tree) on the staged files, as a commit
would; a second run uses a ``.pre-commit-config.yaml`` with ``args`` and ``files``, as users write it. The
hooks are ``language: python``: pre-commit installs this package into its own virtualenv with pip (from the
index pip is configured with), once per test session.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TESTDATA

from kubectl_instancetype.yamlio.load import load_stream

PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
# What pre-commit needs of this repository to install and run the hooks
HOOK_SOURCES = (".pre-commit-hooks.yaml", "kubectl_instancetype", "setup.cfg", "pyproject.toml", "README.md", "LICENSE")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("precommit"),  # one worker installs the hooks' environment
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not on PATH"),
]


def test_manifest_is_valid_and_names_both_hooks() -> None:
    hooks = load_stream((ROOT / ".pre-commit-hooks.yaml").read_text(), "hooks")[0].data
    assert [h["id"] for h in hooks] == ["instancetype-validate", "instancetype-check", "instancetype-render"]
    assert all(h["types_or"] == ["yaml", "json"] and h["language"] == "python" for h in hooks)
    subprocess.run([*PRE_COMMIT, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")], check=True)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One PRE_COMMIT_HOME for the module, so the hook environment is installed once."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the hooks are made of in this checkout's working tree (the hooks' manifest and the package's sources,
    without what git ignores) as the one commit of a repository of its own. Every run of the module names that
    revision, so pre-commit installs the hooks' environment once (a checkout with changes would be a new revision
    at every ``try-repo``, each installing the package anew), and each ``try-repo`` clones a few hundred files,
    not the whole checkout with its corpora."""
    snapshot = tmp_path_factory.mktemp("hooks")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
                             *HOOK_SOURCES],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted in the working tree is still in the index
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=snapshot, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=snapshot, check=True)
    subprocess.run([*GIT, "commit", "-qm", "the working tree", "--no-verify"], cwd=snapshot, check=True)
    return snapshot


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(TESTDATA / "gitops" / "repo", tmp_path / "repo")
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=tmp_path / "repo", check=True)
    subprocess.run([*GIT, "add", "."], cwd=tmp_path / "repo", check=True)
    return tmp_path / "repo"


def pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run([*PRE_COMMIT, *args], cwd=repo, env=env, capture_output=True, text=True)


def commit(repo: Path) -> None:
    subprocess.run([*GIT, "commit", "-qm", "vms", "--no-verify"], cwd=repo, check=True)


def test_try_repo_check_fails_render_fixes_check_passes(repo: Path, home: Path, hooks: Path) -> None:
    failing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-check")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "vms/team-a/web.yaml\n" in failing.stdout and "2 files would be rewritten" in failing.stdout
    render = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-render")
    assert render.returncode == 1  # pre-commit fails a hook that modifies files
    assert "files were modified by this hook" in render.stdout
    expected = (TESTDATA / "gitops" / "write.diff").read_text()
    diff = subprocess.run(["git", "-c", "diff.noprefix=false", "diff", "--no-color"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout
    assert diff == expected  # the same minimal change as render --write
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    passing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-check")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    commit(repo)


def test_the_hooks_take_json_files(repo: Path, home: Path, hooks: Path) -> None:
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "api"},
          "spec": {"instancetype": {"name": "acme.small"}, "runStrategy": "Always",
                   "template": {"spec": {"domain": {"devices": {}}}}}}
    (repo / "vms" / "api.json").write_text(json.dumps(vm, indent=2) + "\n")
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    failing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-check", "--files", "vms/api.json",
                       "catalog/instancetypes.yaml")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "vms/api.json\n" in failing.stdout and "1 file would be rewritten" in failing.stdout


CONFIG = """\
repos:
- repo: {root}
  rev: {rev}
  hooks:
  - id: instancetype-check
    args: [--catalog, catalog/, --no-builtin-catalog]
    files: ^vms/
"""


def test_config_with_args_and_files_fails_on_a_conflict(repo: Path, home: Path, hooks: Path) -> None:
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, capture_output=True, text=True, check=True)
    (repo / ".pre-commit-config.yaml").write_text(CONFIG.format(root=hooks, rev=rev.stdout.strip()))
    subprocess.run([sys.executable, "-m", "kubectl_instancetype", "render", "-f", "vms", "-R", "--catalog", "catalog",
                    "--write"], cwd=repo, check=True, capture_output=True)
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    passing = pre_commit(repo, home, "run")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    commit(repo)
    db = repo / "vms" / "team-a" / "db.yaml"
    db.write_text(db.read_text().replace("  runStrategy: Always\n", "  runStrategy: Always\n  instancetype:\n"
                                         "    name: acme.small\n"))  # conflicts with the expanded cpu
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    failing = pre_commit(repo, home, "run")
    assert failing.returncode == 1
    assert "vms/team-a/db.yaml:" in failing.stdout and "conflicts with selected instance type" in failing.stdout


def test_validate_keeps_references_and_finds_catalogs_in_unchanged_files(repo: Path, home: Path, hooks: Path) -> None:
    """A repository that keeps spec.instancetype references (KubeVirt's normal way), its catalog committed and
    unchanged: the validate hook passes a changed VM without wanting it expanded, and names a misspelt one."""
    commit(repo)
    web = repo / "vms" / "team-a" / "web.yaml"
    web.write_text(web.read_text().replace("    app: web\nspec:", "    app: web\n    tier: front\nspec:"))
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    passing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-validate")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "instancetype validate" in passing.stdout and "Passed" in passing.stdout
    assert web.read_text().count("acme.small") == 1  # the reference is kept: nothing was expanded
    commit(repo)
    web.write_text(web.read_text().replace("name: acme.small", "name: acme.smal"))
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    failing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-validate")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert ("vms/team-a/web.yaml:15:3: error: VirtualMachine default/web: failure checking preference requirements: "
            "insufficient Memory resources of 0 provided by VirtualMachine, preference requires 2Gi\n"
            'vms/team-a/web.yaml:13:3: note: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "acme.smal" '
            'not found (did you mean "acme.small"?)\n') in failing.stdout
    # The hooks read the settings of .kubectl-instancetype.yaml (found from the repository's root, where
    # pre-commit runs them): a file it excludes is not checked.
    (repo / ".kubectl-instancetype.yaml").write_text("exclude: [vms/team-a/web.yaml]\n")
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    configured = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-validate")
    assert configured.returncode == 0, configured.stdout + configured.stderr


def readme_config() -> str:
    """The example ``.kubectl-instancetype.yaml`` of the README's "The config file" section, as printed there."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### The config file"):]
    block = section[section.index("```yaml\n") + len("```yaml\n"):]
    return block[:block.index("```\n")]


def test_the_readmes_config_example_works_with_every_hook(repo: Path, home: Path, hooks: Path) -> None:
    """Its ``render:`` table made every other hook exit 2 ("unknown setting 'render'"): each command reads its
    own table and ignores the others'. The files it names are made; its URL stays a comment."""
    config = readme_config()
    assert config.startswith("# .kubectl-instancetype.yaml\n") and "\nrender:" in config and "\nvalidate:" in config
    (repo / ".kubectl-instancetype.yaml").write_text(config)
    (repo / "cluster").mkdir()
    (repo / "cluster" / "kubevirt.yaml").write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n"
                                                    "  name: kubevirt\n  namespace: kubevirt\nspec: {}\n")
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    validate = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-validate")
    assert validate.returncode == 0, validate.stdout + validate.stderr
    failing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-check")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    # the config's output-format (github) puts the report alone on standard error: each out-of-date file a result
    assert "Error:" not in failing.stdout, failing.stdout
    assert all(f"::error file=vms/team-a/{name},line=1,col=1::not up to date" in failing.stdout
               for name in ("db.yaml", "web.yaml")), failing.stdout
    render = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-render")
    assert render.returncode == 1 and "files were modified by this hook" in render.stdout, render.stdout
    assert "namespace: apps" not in (repo / "vms" / "team-a" / "web.yaml").read_text()  # a default, not written
    subprocess.run([*GIT, "add", "."], cwd=repo, check=True)
    passing = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-check")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    again = pre_commit(repo, home, "try-repo", str(hooks), "instancetype-validate")
    assert again.returncode == 0, again.stdout + again.stderr
