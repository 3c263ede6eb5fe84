"""Fetching ``http(s)://`` catalog sources, through an on-disk cache for pinned ones.

The HTTP modules are imported here, on first use only: a render that names no URL never loads them. The
cache lives in ``$XDG_CACHE_HOME/kubectl-instancetype/catalogs`` (``~/.cache/…`` by default); a pinned URL
whose bytes are cached is never fetched again, so it works offline.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ..catalog.remote import RemoteSource, cache_name, redact, unpinned_warning, verify
from ..errors import InputError, Location

TIMEOUT_SECONDS = 30.0
CACHE_SUBDIR = ("kubectl-instancetype", "catalogs")
_deadline: list[float] = []  # one deadline for every download of the run, set by the first one


def _remaining(timeout: float) -> float:
    """What is left of the run's download deadline (``timeout`` from the first download on): ten URLs
    that each answer in 29 s cannot make a run wait five minutes."""
    import time

    if not _deadline:
        _deadline.append(time.monotonic() + timeout)
    return max(0.0, min(timeout, _deadline[0] - time.monotonic()))


def cache_dir() -> Path:
    """Where pinned downloads are kept (XDG base directory specification: a relative ``XDG_CACHE_HOME`` is
    invalid and ignored, else ``XDG_CACHE_HOME=.`` caches inside the working tree, read as input next run)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, *CACHE_SUBDIR)


def fetch_text(source: RemoteSource, max_bytes: int, warnings: list[str],
               timeout: float = TIMEOUT_SECONDS) -> str:
    """The text ``source`` serves: from the cache when pinned and cached, else downloaded and checked."""
    name = cache_name(source)
    cached = _cached(cache_dir() / name, source, max_bytes) if name else None
    if cached is not None:
        return _decode(cached, source)
    data = download(source.url, max_bytes, _remaining(timeout))
    verify(source, data)
    if name:
        _store(cache_dir() / name, data)
    else:
        warnings.append(unpinned_warning(source, data))
    return _decode(data, source)


def _cached(path: Path, source: RemoteSource, max_bytes: int) -> bytes | None:
    """The cached bytes when they are there and still match the pin (a damaged entry is fetched again).

    Only a regular file is read, never through a link (a cache restored from elsewhere may hold a FIFO or a
    link to ``/dev/zero``), and at most ``max_bytes`` of it: a larger entry cannot match its pin anyway.
    """
    import stat

    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            data = handle.read(max_bytes + 1)
    except OSError:
        return None
    if len(data) > max_bytes:
        return None
    try:
        verify(source, data)
    except InputError:
        return None
    return data


def _store(path: Path, data: bytes) -> None:
    """Write the cache entry atomically; a cache that cannot be written only costs a later download."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".download-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        return


def _decode(data: bytes, source: RemoteSource) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(source.display)) from None


def download(url: str, max_bytes: int, timeout: float) -> bytes:
    """At most ``max_bytes`` from ``url`` (http/https only, redirects too); InputError on any failure.

    ``timeout`` is one deadline for the whole download (name lookup, connection, headers and body), not
    a bound on each socket read: a server that drips a byte a second is cut off. The download runs in a
    daemon thread so that no phase can outlast the deadline; a body shorter than its Content-Length is
    refused, pinned or not.
    """
    import threading

    outcome: list[bytes | BaseException] = []
    worker = threading.Thread(target=lambda: outcome.append(_attempt(url, max_bytes, timeout)), daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        raise InputError(f"cannot fetch: no complete response within {timeout:g} s", Location(redact(url)))
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result


def _attempt(url: str, max_bytes: int, timeout: float) -> bytes | BaseException:
    """The body of ``url``, or the exception that ends the download (raised by the caller's thread)."""
    import http.client
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(_redirect_handler())
    try:
        with opener.open(url, timeout=timeout) as response:
            expected = _content_length(response, url, max_bytes)
            data = _read_body(response, max_bytes)
    except urllib.error.HTTPError as exc:
        return InputError(f"cannot fetch: HTTP {exc.code} {exc.reason}", Location(redact(url)))
    except urllib.error.URLError as exc:
        return InputError(f"cannot fetch: {_masked(str(exc.reason), url)}", Location(redact(url)))
    except InputError as exc:
        return exc
    except (OSError, ValueError, http.client.HTTPException) as exc:  # malformed responses of every kind
        return InputError(f"cannot fetch: {_describe(exc, url)}", Location(redact(url)))
    except BaseException as exc:  # re-raised in the caller's thread: a bug, reported as one
        return exc
    if len(data) > max_bytes:
        return InputError(f"refused: the response is larger than {max_bytes} bytes", Location(redact(url)))
    if expected is not None and len(data) < expected:
        return InputError(f"cannot fetch: the response ended after {len(data)} of its {expected} bytes",
                          Location(redact(url)))
    return data


def _content_length(response: Any, url: str, max_bytes: int) -> int | None:
    """The announced body length (None when chunked or not given); a larger one than allowed is refused."""
    header = response.headers.get("Content-Length")
    if header is None or response.headers.get("Transfer-Encoding"):
        return None
    if not header.strip().isdigit():
        raise InputError(f"cannot fetch: invalid Content-Length {header[:40]!r}", Location(redact(url)))
    length = int(header)
    if length > max_bytes:
        raise InputError(f"refused: the response is larger than {max_bytes} bytes", Location(redact(url)))
    return length


def _read_body(response: Any, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total <= max_bytes:
        chunk: bytes = response.read(min(65536, max_bytes + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _describe(exc: BaseException, url: str = "") -> str:
    text = _masked(str(exc).strip(), url)
    name = type(exc).__name__
    return f"{name}: {text[:200]}" if text else name


def _masked(text: str, url: str) -> str:
    """``text`` (an exception's) without the password of ``url`` (urllib echoes it: "nonnumeric port")."""
    userinfo = url.partition("://")[2].partition("/")[0].rpartition("@")[0]
    password = userinfo.partition(":")[2]
    return text.replace(password, "***") if password else text


def _redirect_handler() -> Any:
    """A redirect handler that follows redirects to http(s) URLs only."""
    import urllib.error
    import urllib.request
    from urllib.parse import urlsplit

    class HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
            if urlsplit(newurl).scheme.lower() not in ("http", "https"):
                raise urllib.error.HTTPError(newurl, code, f"redirect to a non-HTTP URL {newurl}", headers, fp)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return HttpOnlyRedirects()
