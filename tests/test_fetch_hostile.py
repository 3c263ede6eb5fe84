"""Downloads from hostile HTTP servers (issue #16, items 10 and 16): malformed responses are input errors
(exit 3, one line), one deadline bounds the whole download, a body short of its Content-Length is refused.

A raw TCP server on 127.0.0.1 answers each request with canned bytes, so every malformation is real.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.cli.fetch import download
from kubectl_instancetype.errors import InputError

BODY = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
RESPONSES: dict[str, bytes] = {
    "bad-chunking": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n",
    "too-many-headers": b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(150)) + b"\r\n" + BODY,
    "long-header": b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\n" + BODY,
    "bad-status": b"HTTX/1.1 abc\r\n\r\n" + BODY,
    "no-status": b"",
    "truncated": b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + BODY,
    "bad-length": b"HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n" + BODY,
    "huge-length": b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n" + BODY,
    "chunked-cut": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\nabc",
    "ok": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
}


def _serve(conn: socket.socket) -> None:
    with conn:
        request = b""
        while b"\r\n\r\n" not in request:
            data = conn.recv(4096)
            if not data:
                return
            request += data
        path = request.split(b" ")[1].decode().strip("/")
        if path == "drip":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            try:
                for _ in range(200):
                    conn.sendall(b"#")
                    time.sleep(0.1)
            except OSError:
                return
            return
        if path == "drip-headers":
            try:
                for _ in range(200):
                    conn.sendall(b"HTTP/1.1 200 OK\r\n"[:1] if _ == 0 else b"H")
                    time.sleep(0.1)
            except OSError:
                return
            return
        try:
            conn.sendall(RESPONSES[path])
        except OSError:
            return


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=_serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    listener.close()


def test_a_good_response(server: str) -> None:
    assert download(f"{server}/ok", 10_000, 5) == BODY


@pytest.mark.parametrize("name", sorted(set(RESPONSES) - {"ok"}))
def test_malformed_responses_are_input_errors(server: str, name: str) -> None:
    with pytest.raises(InputError, match=r"cannot fetch|refused"):
        download(f"{server}/{name}", 10_000, 5)


@pytest.mark.parametrize("name", sorted(set(RESPONSES) - {"ok"}))
def test_malformed_responses_through_the_cli(server: str, name: str) -> None:
    result = CliRunner().invoke(main_group, ["render", "-f", f"{server}/{name}"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 3, result.output
    assert len(result.stderr.splitlines()) == 1 and ": error: " in result.stderr


@pytest.mark.parametrize("name", ["drip", "drip-headers"])
def test_one_deadline_for_the_whole_download(server: str, name: str) -> None:
    start = time.monotonic()
    with pytest.raises(InputError, match="within 1 s"):
        download(f"{server}/{name}", 1_000_000, 1.0)
    assert time.monotonic() - start < 3


def test_a_truncated_body_is_refused_even_unpinned(server: str) -> None:
    with pytest.raises(InputError, match="ended after 51 of its 500 bytes"):
        download(f"{server}/truncated", 10_000, 5)
