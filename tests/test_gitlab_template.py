"""ci/gitlab/kubectl-instancetype.gitlab-ci.yml: its jobs, and their scripts run as a GitLab runner runs them.

A runner joins a job's before_script and script into one shell script and runs it in the clone with the
predefined CI_* variables. The tests do the same in a real git repository with the real CLI (already
installed: the `pip install` line is the one line left out), and the merge-request note goes to a GitLab
API stand-in on 127.0.0.1 that keeps notes as GitLab does.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ROOT, git
from hosts import PLUGINS, VENV_BIN, documents, schema_check

from kubectl_instancetype.cli import main_group

TEMPLATE = ROOT / "ci" / "gitlab" / "kubectl-instancetype.gitlab-ci.yml"
MARKER = "<!-- kubectl-instancetype diff -->"
EXAMPLE = PLUGINS / "argocd" / "example"


def template() -> dict[str, Any]:
    (doc,) = documents(TEMPLATE.read_text())
    return doc


def test_template_has_the_jobs_and_the_junit_report() -> None:
    doc = template()
    jobs = {name for name, job in doc.items() if isinstance(job, dict) and "script" in job}
    assert jobs == {"kubectl-instancetype-check", "kubectl-instancetype-diff"}
    for name in jobs:
        assert doc[name]["extends"] == ".kubectl-instancetype"
    check = doc["kubectl-instancetype-check"]
    (report,) = set(re.findall(r"--junit-xml (\S+)", "\n".join(check["script"])))
    assert check["artifacts"]["reports"]["junit"] == report and check["artifacts"]["when"] == "always"
    assert doc["kubectl-instancetype-diff"]["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert set(doc["variables"]) == set(re.findall(r"\$\{?(KIT_[A-Z_]+)", TEMPLATE.read_text())) - {
        "KIT_GITLAB_TOKEN"}  # every variable a script reads has a default, except the secret


@pytest.mark.slow
def test_template_matches_gitlabs_schema() -> None:
    done = schema_check("vendor.gitlab-ci", TEMPLATE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_options_the_template_uses_exist() -> None:
    """Every option in the scripts is one the CLI's parser knows (the command's own --help lists it)."""
    doc = template()
    for job in ("kubectl-instancetype-check", "kubectl-instancetype-diff"):
        text = "\n".join(doc[".kubectl-instancetype"]["before_script"] + doc[job]["script"])
        for command, args in re.findall(r"kubectl-instancetype (render|diff) ([^\n>]*)", text):
            known = CliRunner().invoke(main_group, [command, "--help"]).output
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", args):
                assert option in known, f"{command} {option}"
        for option in re.findall(r'"(--[a-z-]+)=', text):
            assert option in CliRunner().invoke(main_group, ["render", "--help"]).output, option


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    where = tmp_path / "repo"
    (where / "vms").mkdir(parents=True)
    shutil.copy(EXAMPLE / "vm.yaml", where / "vms" / "web.yaml")
    shutil.copy(EXAMPLE / "instancetype.yaml", where / "vms" / "instancetype.yaml")
    git(where, "init", "-q", "-b", "main")
    git(where, "add", ".")
    git(where, "commit", "-qm", "base")
    return where


def run_job(name: str, repo: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    """The job's before_script (less the pip install) and script as one shell script, as a runner runs them."""
    doc = template()
    before = [line for line in doc[".kubectl-instancetype"]["before_script"] if "pip install" not in line]
    script = "set -eo pipefail\n" + "\n".join(before + doc[name]["script"])
    environment = {**os.environ, "PATH": os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")]),
                   "CI": "true", "GITLAB_CI": "true", "CI_PROJECT_DIR": str(repo),
                   **{k: str(v) for k, v in doc["variables"].items()}, **doc[name].get("variables", {}),
                   **variables}
    return subprocess.run(["bash", "-c", script], cwd=repo, env=environment, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_check_job_writes_the_junit_report(repo: Path) -> None:
    done = run_job("kubectl-instancetype-check", repo, KIT_PATHS="vms", KIT_REQUIRE_UP_TO_DATE="false")
    assert done.returncode == 0, done.stderr
    assert "<testsuite" in (repo / "kubectl-instancetype.xml").read_text()
    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("name: fedora", "name: no-such-os"))
    refused = run_job("kubectl-instancetype-check", repo, KIT_PATHS="vms")
    assert refused.returncode == 1 and '"no-such-os" not found' in refused.stderr
    assert "<failure" in (repo / "kubectl-instancetype.xml").read_text()


class GitLabNotes(http.server.BaseHTTPRequestHandler):
    """GitLab's merge-request notes endpoints (list, create, update), keeping notes in `notes`."""

    notes: list[dict[str, Any]]
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
        if self.headers.get("PRIVATE-TOKEN") != "glpat-test":
            self.reply(401, {"message": "401 Unauthorized"})
            return False
        if not self.path.startswith("/api/v4/projects/42/merge_requests/7/notes"):
            self.reply(404, {"message": "404 Not found"})
            return False
        return True

    def body(self) -> str:
        text: str = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["body"]
        return text

    def do_GET(self) -> None:
        if self.allowed():
            page = int(re.search(r"[?&]page=(\d+)", self.path).group(1))  # type: ignore[union-attr]
            self.reply(200, self.notes[(page - 1) * 100:page * 100])

    def do_POST(self) -> None:
        if self.allowed():
            note = {"id": 500 + len(self.notes), "body": self.body()}
            self.notes.append(note)
            self.reply(201, note)

    def do_PUT(self) -> None:
        if self.allowed():
            (note,) = [n for n in self.notes if n["id"] == int(self.path.rsplit("/", 1)[1])]
            note["body"] = self.body()
            self.reply(200, note)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def gitlab() -> Iterator[tuple[str, type[GitLabNotes]]]:
    handler = type("Handler", (GitLabNotes,), {"notes": [{"id": 1, "body": "Looks good"}], "requests": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v4", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_diff_job_keeps_one_merge_request_note(repo: Path, gitlab: tuple[str, type[GitLabNotes]]) -> None:
    url, api = gitlab
    mr = {"CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_DIFF_BASE_SHA": git(repo, "rev-parse", "HEAD"),
          "CI_API_V4_URL": url, "CI_PROJECT_ID": "42", "CI_MERGE_REQUEST_IID": "7", "KIT_PATHS": "vms"}
    unchanged = run_job("kubectl-instancetype-diff", repo, **mr, KIT_GITLAB_TOKEN="glpat-test")
    assert unchanged.returncode == 0, unchanged.stderr
    assert [n["body"] for n in api.notes] == ["Looks good"]  # nothing changed, no earlier note: none made

    vm = repo / "vms" / "web.yaml"
    vm.write_text(vm.read_text().replace("name: fedora", "name: centos.stream9"))
    first = run_job("kubectl-instancetype-diff", repo, **mr, KIT_GITLAB_TOKEN="glpat-test")
    assert first.returncode == 0, first.stderr
    assert len(api.notes) == 2 and api.notes[1]["body"].startswith(MARKER)
    assert "centos.stream9" in api.notes[1]["body"]
    assert (repo / "kubectl-instancetype-diff.md").read_text() in api.notes[1]["body"]

    vm.write_text(vm.read_text().replace("name: centos.stream9", "name: rhel.9"))
    second = run_job("kubectl-instancetype-diff", repo, **mr, KIT_GITLAB_TOKEN="glpat-test")
    assert second.returncode == 0, second.stderr
    assert len(api.notes) == 2 and "rhel.9" in api.notes[1]["body"]
    assert [m for m, _ in api.requests if m != "GET"] == ["POST", "PUT"]

    without = run_job("kubectl-instancetype-diff", repo, **mr)
    assert without.returncode == 0 and "KIT_GITLAB_TOKEN is not set" in without.stdout
    assert "rhel.9" in without.stdout  # the diff is in the job's log


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), [("KIT_PATHS", "--write"), ("KIT_CATALOGS", "--write"),
                                             ("KIT_ARCH", "--write"), ("KIT_KUBEVIRT_CONFIG", "-w"),
                                             ("KIT_PATHS", "vms $(touch pwned) `touch pwned`")])
def test_variables_never_become_options(name: str, value: str, repo: Path) -> None:
    """A variable that looks like an option, or a command, stays a value: nothing is written or run."""
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    run_job("kubectl-instancetype-diff", repo, **{"KIT_PATHS": "vms", name: value,
                                                  "CI_MERGE_REQUEST_DIFF_BASE_SHA": git(repo, "rev-parse", "HEAD")})
    after = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert {p for p in after if p not in before} <= {repo / "kubectl-instancetype-diff.md"}
    assert all(after[p] == before[p] for p in before)


@pytest.mark.slow
def test_readme_sets_variables_the_template_reads(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### GitLab CI"):readme.index("## Errors and exit status")]
    block = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)[0]
    (config,) = documents(block)
    (tmp_path / ".gitlab-ci.yml").write_text(block)
    done = schema_check("vendor.gitlab-ci", tmp_path / ".gitlab-ci.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert config["include"][0]["remote"].endswith("/ci/gitlab/kubectl-instancetype.gitlab-ci.yml")
    named = set(config["variables"]) | set(re.findall(r"#\s*(KIT_[A-Z_]+):", block))
    assert named <= set(template()["variables"])
