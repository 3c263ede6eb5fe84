"""action.yml, the GitHub Action: its inputs and steps, and the steps' script run as a runner runs them.

The steps run `ci/github/action` with the environment a GitHub runner gives (GITHUB_*, RUNNER_TEMP, the
inputs as KIT_*), in a real git repository, with the real CLI. The pull-request comment goes to a GitHub
API stand-in on 127.0.0.1 that keeps comments as GitHub does (list, create, update).
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, git
from hosts import PLUGINS, VENV_BIN, documents, schema_check

ACTION = ROOT / "action.yml"
SCRIPT = ROOT / "ci" / "github" / "action"
MARKER = "<!-- kubectl-instancetype diff -->"
EXAMPLE = PLUGINS / "argocd" / "example"


def action() -> dict[str, Any]:
    (doc,) = documents(ACTION.read_text())
    return doc


def test_action_is_a_composite_action_whose_inputs_are_all_used() -> None:
    doc = action()
    assert doc["runs"]["using"] == "composite" and doc["name"] and doc["description"]
    text = ACTION.read_text()
    used = set(re.findall(r"\$\{\{[^}]*\binputs\.([a-z-]+)", text))
    assert used == set(doc["inputs"])
    for name, spec in doc["inputs"].items():
        assert spec["description"] and isinstance(spec.get("default"), str), name


@pytest.mark.slow
def test_action_matches_githubs_schema() -> None:
    done = schema_check("vendor.github-actions", ACTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_input_is_spliced_into_a_shell_script() -> None:
    """Inputs reach the steps as environment variables only: `${{ }}` in `run:` would be script injection."""
    subcommands = []
    for step in action()["runs"]["steps"]:
        if "run" in step:
            assert "${{" not in step["run"] and step["shell"] == "bash"
            found = re.fullmatch(r'"\$GITHUB_ACTION_PATH/ci/github/action" (\w+)', step["run"])
            assert found, step["run"]
            subcommands.append(found.group(1))
    assert subcommands == ["install", "check", "comment", "gate"]
    unknown = subprocess.run([str(SCRIPT), "--write"], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and "usage:" in unknown.stderr


def test_comment_step_runs_on_pull_requests_only() -> None:
    steps = {step.get("id"): step for step in action()["runs"]["steps"]}
    for name in ("comment", "gate"):
        assert "github.event_name == 'pull_request'" in steps[name]["if"]
        assert steps[name]["env"]["KIT_BASE"] == "${{ github.event.pull_request.base.sha }}"
    assert "inputs.fail-on != ''" in steps["gate"]["if"]  # no fail-on, no gate
    assert steps["gate"]["env"]["KIT_FAIL_ON"] == "${{ inputs.fail-on }}"
    assert "if" not in steps["check"]  # the check always runs and decides the job


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository of VMs, as actions/checkout leaves it: the VM, its instancetype, one commit."""
    where = tmp_path / "repo"
    (where / "vms").mkdir(parents=True)
    shutil.copy(EXAMPLE / "vm.yaml", where / "vms" / "web.yaml")
    shutil.copy(EXAMPLE / "instancetype.yaml", where / "vms" / "instancetype.yaml")
    git(where, "init", "-q", "-b", "main")
    git(where, "add", ".")
    git(where, "commit", "-qm", "base")
    return where


def runner_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """What a runner gives a composite step: GITHUB_*, RUNNER_TEMP, the step's env; the CLI on PATH."""
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    return {**os.environ, "PATH": os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")]),
            "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_ACTION_PATH": str(ROOT), "RUNNER_TEMP": str(temp),
            "GITHUB_REPOSITORY": "example/vms", "GITHUB_EVENT_NAME": "pull_request",
            **{f"KIT_{name.upper()}": value for name, value in inputs.items()}}


def step(subcommand: str, repo: Path, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), subcommand], cwd=repo, env=environment, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_check_fails_until_the_files_are_rendered(repo: Path, tmp_path: Path) -> None:
    environment = runner_env(tmp_path, paths="vms", check="render-check")
    first = step("check", repo, environment)
    assert first.returncode == 1 and "vms/web.yaml" in first.stdout + first.stderr
    subprocess.run([str(VENV_BIN / "kubectl-instancetype"), "render", "--write", "-R", "vms"], cwd=repo, check=True)
    again = step("check", repo, environment)
    assert again.returncode == 0, again.stderr


@pytest.mark.slow
def test_the_default_check_is_the_read_only_validate(repo: Path, tmp_path: Path) -> None:
    """As the README's pre-commit recommendation (instancetype-validate): references stay references."""
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    done = step("check", repo, runner_env(tmp_path, paths="vms"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert before == {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert action()["inputs"]["check"]["default"] == ""  # validate, unless output-dir names rendered files


@pytest.mark.slow
def test_output_dir_means_render_check(repo: Path, tmp_path: Path) -> None:
    """output-dir only makes sense with render --check: given alone it chooses it (as before check existed);
    with check validate it is a mistake, said as one."""
    done = step("check", repo, runner_env(tmp_path, paths="vms", output_dir="rendered"))
    assert done.returncode == 1 and "rendered" in done.stdout + done.stderr  # not there yet
    both = step("check", repo, runner_env(tmp_path, paths="vms", output_dir="rendered", check="validate"))
    assert both.returncode == 2 and "output-dir is for check render-check" in both.stderr


@pytest.mark.slow
def test_sarif_is_written_for_the_upload_step(repo: Path, tmp_path: Path) -> None:
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("name: fedora", "name: no-such-os"))
    outputs = tmp_path / "github-output"
    environment = {**runner_env(tmp_path, paths="vms", upload_sarif="true"), "GITHUB_OUTPUT": str(outputs)}
    done = step("check", repo, environment)
    assert done.returncode == 1 and "::error file=vms/web.yaml" in done.stderr  # annotations as well
    sarif = tmp_path / "runner-temp" / "kubectl-instancetype.sarif"
    assert outputs.read_text() == f"sarif-file={sarif}\n"
    result = json.loads(sarif.read_text())["runs"][0]["results"][0]
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "vms/web.yaml", "uriBaseId": "%SRCROOT%"}
    named = step("check", repo, {**environment, "KIT_UPLOAD_SARIF": "false", "KIT_SARIF_FILE": "out.sarif"})
    assert named.returncode == 1 and json.loads((repo / "out.sarif").read_text())["version"] == "2.1.0"


def test_the_upload_step_uploads_what_the_check_wrote() -> None:
    steps = {step.get("id"): step for step in action()["runs"]["steps"]}
    upload = steps["upload-sarif"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.check.outputs.sarif-file }}"
    assert "!cancelled()" in upload["if"] and "inputs.upload-sarif == 'true'" in upload["if"]


@pytest.mark.slow
def test_kubevirt_version_is_passed(repo: Path, tmp_path: Path) -> None:
    assert step("check", repo, runner_env(tmp_path, paths="vms", kubevirt_version="1.7")).returncode == 0
    unknown = step("check", repo, runner_env(tmp_path, paths="vms", kubevirt_version="0.9"))
    assert unknown.returncode == 2 and "0.9" in unknown.stderr


@pytest.mark.slow
def test_check_only_resolves_when_files_stay_unexpanded(repo: Path, tmp_path: Path) -> None:
    done = step("check", repo, runner_env(tmp_path, paths="vms", require_up_to_date="false"))
    assert (done.returncode, done.stdout) == (0, ""), done.stderr


@pytest.mark.slow
def test_check_fails_the_job_on_a_refused_vm(repo: Path, tmp_path: Path) -> None:
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("name: fedora", "name: no-such-os"))
    for up_to_date in ("true", "false"):
        done = step("check", repo, runner_env(tmp_path, paths="vms", require_up_to_date=up_to_date))
        assert done.returncode == 1
        assert 'virtualmachineclusterpreferences.instancetype.kubevirt.io "no-such-os" not found' in done.stderr
        assert "::error file=vms/web.yaml,line=11,col=3::VirtualMachine default/web" in done.stdout + done.stderr


@pytest.mark.slow
def test_check_passes_each_input_as_its_option(repo: Path, tmp_path: Path) -> None:
    (repo / "catalog").mkdir()
    (repo / "vms" / "instancetype.yaml").rename(repo / "catalog" / "instancetype.yaml")
    (repo / "kubevirt.yaml").write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n  name: kv\n"
                                        "spec:\n  configuration: {}\n")
    inputs = {"paths": "vms\n", "catalogs": "catalog/ ", "kubevirt_config": "kubevirt.yaml", "arch": "arm64",
              "namespace": "team-a", "builtin_catalog": "true", "require_up_to_date": "true",
              "output_dir": "rendered"}
    assert step("check", repo, runner_env(tmp_path, **inputs)).returncode == 1  # rendered/ is not there yet
    subprocess.run([str(VENV_BIN / "kubectl-instancetype"), "render", "-R", "vms", "--catalog", "catalog/",
                    "--kubevirt-config", "kubevirt.yaml", "--arch", "arm64", "--output-dir", "rendered"],
                   cwd=repo, check=True)
    done = step("check", repo, runner_env(tmp_path, **inputs))
    assert done.returncode == 0, done.stderr
    arch = step("check", repo, runner_env(tmp_path, **{**inputs, "arch": "x86"}))
    assert arch.returncode == 2 and "'x86' is not one of" in arch.stderr  # click's own check of --arch
    builtin = step("check", repo, runner_env(tmp_path, **{**inputs, "builtin_catalog": "false"}))
    assert builtin.returncode == 1 and '"fedora" not found' in builtin.stderr
    (repo / "kubevirt.yaml").write_text("apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata:\n  name: kv\n"
                                        "spec:\n  configuration: 5\n")
    config = step("check", repo, runner_env(tmp_path, **inputs))
    # The API server refuses that CR before its configuration is read: a refusal, exit 1 (--validate).
    assert config.returncode == 1 and 'spec.configuration in body must be of type object: "integer"' in config.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), [
    ("paths", "--write"), ("paths", "vms --write"), ("catalogs", "--write"), ("catalogs", "* --write"),
    ("kubevirt_config", "--write"), ("namespace", "--write"), ("arch", "--write"), ("output_dir", "-w"),
    ("builtin_catalog", "false --write"), ("require_up_to_date", "--write"), ("check", "--write"),
    ("kubevirt_version", "--write"), ("upload_sarif", "--write"),
])
def test_inputs_never_become_options(name: str, value: str, repo: Path, tmp_path: Path) -> None:
    """An input that looks like an option stays a value: nothing is written, the check fails (render --check, where
    output-dir is used)."""
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    done = step("check", repo, runner_env(tmp_path, **{"paths": "vms", "check": "render-check", name: value}))
    assert done.returncode != 0
    after = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before


class GitHubAPI(http.server.BaseHTTPRequestHandler):
    """The three issue-comment endpoints the comment step uses, keeping comments in `comments`."""

    comments: list[dict[str, Any]]
    requests: list[tuple[str, str]]

    def reply(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def allowed(self) -> bool:
        self.requests.append((self.command, self.path))
        token = self.headers.get("Authorization")
        if token == "Bearer read-only" and self.command != "GET":  # a fork's pull request
            self.reply(403, {"message": "Resource not accessible by integration"})
            return False
        if token not in ("Bearer test-token", "Bearer read-only"):
            self.reply(401, {"message": "Bad credentials"})
            return False
        return True

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        return data

    def do_GET(self) -> None:
        if self.allowed():
            page = int(re.search(r"[?&]page=(\d+)", self.path).group(1))  # type: ignore[union-attr]
            self.reply(200, self.comments[(page - 1) * 100:page * 100])

    def do_POST(self) -> None:
        if self.allowed():
            comment = {"id": 1000 + len(self.comments), "body": self.body()["body"], "html_url": "https://x/c"}
            self.comments.append(comment)
            self.reply(201, comment)

    def do_PATCH(self) -> None:
        if self.allowed():
            comment_id = int(self.path.rsplit("/", 1)[1])
            (comment,) = [c for c in self.comments if c["id"] == comment_id]
            comment["body"] = self.body()["body"]
            self.reply(200, comment)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def github() -> Iterator[tuple[str, type[GitHubAPI]]]:
    handler = type("Handler", (GitHubAPI,), {"comments": [{"id": 1, "body": "LGTM"}], "requests": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_comment_creates_then_updates_one_comment(repo: Path, tmp_path: Path,
                                                  github: tuple[str, type[GitHubAPI]]) -> None:
    url, api = github
    base = git(repo, "rev-parse", "HEAD")
    vm = repo / "vms" / "web.yaml"
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7, "base": {"sha": base}}}))
    environment = {**runner_env(tmp_path, paths="vms", base=base), "GITHUB_API_URL": url,
                   "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_TOKEN": "test-token"}
    unchanged = step("comment", repo, environment)
    assert unchanged.returncode == 0, unchanged.stderr
    assert [c["body"] for c in api.comments] == ["LGTM"]  # no VM changes and no earlier comment: none made

    vm.write_text(vm.read_text().replace("name: fedora", "name: centos.stream9"))
    first = step("comment", repo, environment)
    assert first.returncode == 0, first.stderr
    assert len(api.comments) == 2 and api.comments[1]["body"].startswith(MARKER)
    assert "centos.stream9" in api.comments[1]["body"] and "web" in api.comments[1]["body"]

    vm.write_text(vm.read_text().replace("name: centos.stream9", "name: rhel.9"))
    second = step("comment", repo, environment)
    assert second.returncode == 0, second.stderr
    assert len(api.comments) == 2 and "rhel.9" in api.comments[1]["body"]  # the same comment, updated
    assert [m for m, _ in api.requests if m != "GET"] == ["POST", "PATCH"]


@pytest.mark.slow
def test_comment_without_write_access_warns(repo: Path, tmp_path: Path, github: tuple[str, type[GitHubAPI]]) -> None:
    url, _ = github
    vm = repo / "vms" / "web.yaml"
    base = git(repo, "rev-parse", "HEAD")
    vm.write_text(vm.read_text().replace("name: fedora", "name: centos.stream9"))
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7}}))
    environment = {**runner_env(tmp_path, paths="vms", base=base), "GITHUB_API_URL": url,
                   "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_TOKEN": "read-only"}
    done = step("comment", repo, environment)
    assert done.returncode == 0 and done.stdout.startswith("::warning title=kubectl-instancetype::")
    assert "HTTP 403" in done.stdout
    wrong = step("comment", repo, {**environment, "GITHUB_TOKEN": "wrong"})
    assert wrong.returncode == 1 and "HTTP 401" in wrong.stderr  # bad credentials are an error


@pytest.mark.slow
def test_install_puts_the_tool_on_the_runners_path(tmp_path: Path) -> None:
    """pip installs the action's own checkout into a virtualenv; its bin/ goes to $GITHUB_PATH."""
    environment = {**runner_env(tmp_path), "GITHUB_PATH": str(tmp_path / "github_path"),
                   "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    done = step("install", tmp_path, environment)
    assert done.returncode == 0, done.stderr
    (added,) = (tmp_path / "github_path").read_text().splitlines()
    assert (Path(added) / "kubectl-instancetype").exists() and "kubectl-instancetype" in done.stdout


@pytest.mark.slow
def test_readme_workflow_uses_the_actions_inputs(tmp_path: Path) -> None:
    """The README's copy-paste workflow: valid YAML whose `with:` keys (commented ones too) are inputs."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### GitHub Actions"):readme.index("### GitLab CI")]
    (block,) = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)
    (workflow,) = documents(block)
    (tmp_path / "vms.yaml").write_text(block)
    done = schema_check("vendor.github-workflows", tmp_path / "vms.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    (use,) = [s for s in workflow["jobs"]["kubectl-instancetype"]["steps"] if "kubectl-instancetype@" in s["uses"]]
    named = set(use["with"]) | set(re.findall(r"#\s*([a-z-]+):", block))
    assert named <= set(action()["inputs"])
    assert workflow["permissions"]["pull-requests"] == "write"


@pytest.mark.slow
def test_comment_fetches_the_base_into_a_shallow_checkout(repo: Path, tmp_path: Path,
                                                          github: tuple[str, type[GitHubAPI]]) -> None:
    """actions/checkout clones one commit deep: the base commit is fetched before the diff."""
    url, api = github
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "pr")
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("name: fedora", "name: centos.stream9"))
    git(repo, "commit", "-qam", "pr")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", "--branch=pr", f"file://{repo}", str(clone))
    assert subprocess.run(["git", "cat-file", "-e", f"{base}^{{commit}}"], cwd=clone).returncode != 0
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7}}))
    environment = {**runner_env(tmp_path, paths="vms", base=base), "GITHUB_API_URL": url,
                   "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_TOKEN": "test-token"}
    done = step("comment", clone, environment)
    assert done.returncode == 0, done.stderr
    assert "centos.stream9" in api.comments[-1]["body"]


@pytest.mark.slow
def test_check_reads_the_config_file(repo: Path, tmp_path: Path) -> None:
    """The catalog named only in .kubectl-instancetype.yaml (found from the workspace), or in the file the
    config input names."""
    (repo / "catalog").mkdir()
    (repo / "vms" / "instancetype.yaml").rename(repo / "catalog" / "instancetype.yaml")
    missing = step("check", repo, runner_env(tmp_path, paths="vms", require_up_to_date="false"))
    assert missing.returncode == 1, missing.stderr
    (repo / ".kubectl-instancetype.yaml").write_text("catalog: [catalog/]\n")
    found = step("check", repo, runner_env(tmp_path, paths="vms", require_up_to_date="false"))
    assert (found.returncode, found.stdout) == (0, ""), found.stderr
    (repo / ".kubectl-instancetype.yaml").rename(repo / "ci.yaml")
    named = step("check", repo, runner_env(tmp_path, paths="vms", require_up_to_date="false", config="ci.yaml"))
    assert (named.returncode, named.stdout) == (0, ""), named.stderr


@pytest.mark.slow
def test_comment_with_restart_impact(repo: Path, tmp_path: Path, github: tuple[str, type[GitHubAPI]]) -> None:
    url, api = github
    base = git(repo, "rev-parse", "HEAD")
    vm = repo / "vms" / "web.yaml"
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7, "base": {"sha": base}}}))
    environment = {**runner_env(tmp_path, paths="vms", base=base), "GITHUB_API_URL": url,
                   "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_TOKEN": "test-token",
                   "KIT_RESTART_IMPACT": "true"}
    vm.write_text(vm.read_text().replace("name: fedora", "name: centos.stream9"))
    done = step("comment", repo, environment)
    assert done.returncode == 0, done.stderr
    body = api.comments[-1]["body"]
    assert body.startswith(MARKER) and "### Will this restart running VMs?" in body
    wrong = step("comment", repo, {**environment, "KIT_RESTART_IMPACT": "yes"})
    assert wrong.returncode == 2 and "restart-impact must be true or false, not 'yes'" in wrong.stderr


def test_the_base_fetching_is_documented() -> None:
    """That the action fetches the base commit itself (a shallow checkout is enough) is said where a user
    reads: the comment and fail-on inputs, and the README's section."""
    inputs = action()["inputs"]
    assert "fetches that one commit itself" in inputs["comment"]["description"]
    assert "fetched as for comment" in inputs["fail-on"]["description"]
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### GitHub Actions"):readme.index("### GitLab CI")]
    assert "fetch-depth" in section and "fail-on" in section


@pytest.mark.slow
@pytest.mark.parametrize(("level", "status"), [("restart", 1), ("live", 1), ("error", 0)])
def test_gate_fails_the_job_on_the_restart_impact(level: str, status: int, repo: Path, tmp_path: Path) -> None:
    """A pull request that turns off the serial console (not live-updatable: RestartRequired) fails fail-on
    restart and live, with an annotation at the VM's file; fail-on error lets it through. The base commit is
    fetched into a one-commit-deep clone, as for the comment."""
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "pr")
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("devices: {}", "devices: {autoattachSerialConsole: false}"))
    git(repo, "commit", "-qam", "pr")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", "--branch=pr", f"file://{repo}", str(clone))
    done = step("gate", clone, runner_env(tmp_path, paths="vms", base=base, fail_on=level))
    assert done.returncode == status, done.stderr
    assert ("::error file=vms/web.yaml," in done.stdout + done.stderr) == bool(status)


@pytest.mark.slow
def test_gate_leaves_the_level_to_diff(repo: Path, tmp_path: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    wrong = step("gate", repo, runner_env(tmp_path, paths="vms", base=base, fail_on="--write"))
    assert wrong.returncode == 2 and "Invalid value for '--fail-on': '--write' is not one of" in wrong.stderr
    empty = step("gate", repo, runner_env(tmp_path, paths="vms", base=base, fail_on=""))
    assert empty.returncode == 2 and "fail-on is empty" in empty.stderr


@pytest.mark.slow
def test_comment_when_the_config_file_sets_fail_on(repo: Path, tmp_path: Path,
                                                  github: tuple[str, type[GitHubAPI]]) -> None:
    """diff's exit 0 under the config's fail-on says only that no VM reaches the level: a change that restarts
    nothing is still commented, and no change still makes no comment."""
    url, api = github
    (repo / ".kubectl-instancetype.yaml").write_text("diff:\n  restart-impact: true\n  fail-on: error\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "config")
    base = git(repo, "rev-parse", "HEAD")
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7}}))
    environment = {**runner_env(tmp_path, paths="vms", base=base), "GITHUB_API_URL": url,
                   "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_TOKEN": "test-token"}
    unchanged = step("comment", repo, environment)
    assert unchanged.returncode == 0 and [c["body"] for c in api.comments] == ["LGTM"], unchanged.stderr
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("devices: {}", "devices: {autoattachSerialConsole: false}"))
    done = step("comment", repo, environment)
    assert done.returncode == 0, done.stderr
    assert len(api.comments) == 2 and "autoattachSerialConsole" in api.comments[-1]["body"]
