"""http(s) catalog sources against a real HTTP server on 127.0.0.1: pins, the offline cache, limits."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from conftest import REFERENCE_BUNDLES, ROOT, needs_bundles

from kubectl_instancetype.catalog.remote import is_url, parse_source
from kubectl_instancetype.cli import main_group
from kubectl_instancetype.errors import InputError

BUNDLE = REFERENCE_BUNDLES / "VirtualMachineClusterInstancetypes.yaml"
TEAM = (ROOT / "testdata" / "catalog" / "dir" / "small.yaml").read_bytes()
VM = str(ROOT / "testdata" / "catalog" / "vm-team.yaml")
PREFERENCE = b"""apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterPreference
metadata: {name: team.linux}
spec: {cpu: {preferredCPUTopology: cores}}
"""
PAGES = {"/team.yaml": TEAM, "/pref.yaml": PREFERENCE, "/big.yaml": b"# " + b"x" * 5000 + b"\n",
         "/redirect": b"", "/latin1.yaml": b"# \xe9\n"}


class Handler(BaseHTTPRequestHandler):
    hits: ClassVar[dict[str, int]] = {}

    def do_GET(self) -> None:
        Handler.hits[self.path] = Handler.hits.get(self.path, 0) + 1
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "ftp://127.0.0.1/x.yaml")
            self.end_headers()
            return
        body = PAGES.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "kubectl-instancetype" / "catalogs"


def pinned(url: str, data: bytes) -> str:
    return f"{url}#sha256={hashlib.sha256(data).hexdigest()}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("text", "url"), [
    ("https://example.com/a.yaml", True), ("HTTP://x/y", True), ("ftp://x/y", True),
    ("catalog/", False), ("-", False), ("C:/dir/file.yaml", False),
])
def test_is_url(text: str, url: bool) -> None:
    assert is_url(text) is url


@pytest.mark.parametrize(("text", "message"), [
    ("ftp://host/x.yaml", "unsupported URL scheme 'ftp'"),
    ("file:///etc/passwd", "unsupported URL scheme 'file'"),
    ("https://host/x.yaml#sha256=abc", "#sha256=<64 hex digits>, not #sha256=abc"),
    ("https://host/x.yaml#md5=" + "0" * 32, "not #md5="),
])
def test_bad_sources(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("*", r"\*")):
        parse_source(text)


def test_pinned_url_is_fetched_once_then_works_offline(server: str, cache: Path) -> None:
    url = pinned(f"{server}/team.yaml", TEAM)
    before = Handler.hits.get("/team.yaml", 0)
    status, out, err = run("render", "-f", VM, "--catalog", url, "--catalog", pinned(f"{server}/pref.yaml", PREFERENCE))
    assert (status, err) == (0, "")
    assert "cores: 4" in out
    assert Handler.hits["/team.yaml"] == before + 1
    assert (cache / f"sha256-{hashlib.sha256(TEAM).hexdigest()}.yaml").read_bytes() == TEAM
    offline = pinned("http://127.0.0.1:9/team.yaml", TEAM)  # nothing listens on port 9
    preference = pinned(f"{server}/pref.yaml", PREFERENCE)
    status, out2, err = run("render", "-f", VM, "--catalog", offline, "--catalog", preference)
    assert (status, out2, err) == (0, out, "")
    assert Handler.hits["/team.yaml"] == before + 1


def test_damaged_cache_entry_is_fetched_again(server: str, cache: Path) -> None:
    url = pinned(f"{server}/team.yaml", TEAM)
    cache.mkdir(parents=True)
    (cache / f"sha256-{hashlib.sha256(TEAM).hexdigest()}.yaml").write_bytes(b"garbage")
    status, _, err = run("catalog", "list", "--catalog", url, "-l", "instancetype.kubevirt.io/class=team")
    assert (status, err) == (0, "")
    assert (cache / f"sha256-{hashlib.sha256(TEAM).hexdigest()}.yaml").read_bytes() == TEAM


def test_pin_mismatch_is_exit_3(server: str, cache: Path) -> None:
    url = f"{server}/team.yaml#sha256={'0' * 64}"
    status, _, err = run("render", "-f", VM, "--catalog", url)
    actual = hashlib.sha256(TEAM).hexdigest()
    assert status == 3
    pins = "0" * 64
    expected = f"error: content does not match its pin: sha256 is {actual}, the URL pins {pins}"
    assert f"{server}/team.yaml:1:1: {expected}" in err
    assert not cache.exists()


def test_unpinned_url_warns_with_the_pin_to_use(server: str, cache: Path) -> None:
    status, out, err = run("catalog", "list", "--no-builtin-catalog", "--catalog", f"{server}/team.yaml", "-o", "name")
    assert status == 0
    assert out == "virtualmachineclusterinstancetype.instancetype.kubevirt.io/team.small\n"
    digest = hashlib.sha256(TEAM).hexdigest()
    assert err == (f"warning: {server}/team.yaml is not pinned and was fetched without an integrity check; "
                   f"pin it as '{server}/team.yaml#sha256={digest}'\n")
    assert not cache.exists()


@pytest.mark.parametrize(("path", "args", "message"), [
    ("/missing.yaml", (), "error: cannot fetch: HTTP 404 Not Found"),
    ("/big.yaml", ("--max-input-bytes", "1000"), "error: refused: the response is larger than 1000 bytes"),
    ("/redirect", (), "error: cannot fetch: HTTP 302 redirect to a non-HTTP URL ftp://127.0.0.1/x.yaml"),
    ("/latin1.yaml", (), "error: not UTF-8 text (invalid continuation byte at byte 2)"),
])
def test_fetch_failures_are_exit_3(server: str, cache: Path, path: str, args: tuple[str, ...], message: str) -> None:
    status, _, err = run("render", "-f", f"{server}{path}", *args)
    assert status == 3
    assert err.endswith(f"{server}{path}:1:1: {message}\n"), err


def test_connection_refused_is_exit_3(cache: Path) -> None:
    status, _, err = run("render", "-f", VM, "--catalog", "http://127.0.0.1:9/x.yaml")
    assert status == 3
    assert "http://127.0.0.1:9/x.yaml:1:1: error: cannot fetch: " in err


@needs_bundles
def test_published_bundle_over_http(server: str, cache: Path) -> None:
    data = BUNDLE.read_bytes()
    PAGES["/bundle.yaml"] = b"---\n" + data
    status, out, err = run("catalog", "list", "--no-builtin-catalog", "--catalog", pinned(f"{server}/bundle.yaml",
                           PAGES["/bundle.yaml"]), "-o", "name")
    assert (status, err) == (0, "")
    assert len(out.splitlines()) == 65


def test_plain_render_imports_no_http_module() -> None:
    code = (
        "import sys\nfrom kubectl_instancetype.cli import main\n"
        "try:\n    main(['render', '-f', 'examples/vm.yaml'])\nexcept SystemExit as exc:\n    assert exc.code == 0\n"
        "bad = sorted(m for m in ('urllib.request', 'http.client', 'ssl', 'socket') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
