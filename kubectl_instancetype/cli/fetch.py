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

from ..catalog.remote import RemoteSource, cache_name, unpinned_warning, verify
from ..errors import InputError, Location

TIMEOUT_SECONDS = 30.0
CACHE_SUBDIR = ("kubectl-instancetype", "catalogs")


def cache_dir() -> Path:
    """Where pinned downloads are kept (XDG base directory specification)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, *CACHE_SUBDIR)


def fetch_text(source: RemoteSource, max_bytes: int, warnings: list[str],
               timeout: float = TIMEOUT_SECONDS) -> str:
    """The text ``source`` serves: from the cache when pinned and cached, else downloaded and checked."""
    name = cache_name(source)
    cached = _cached(cache_dir() / name, source) if name else None
    if cached is not None:
        return _decode(cached, source)
    data = download(source.url, max_bytes, timeout)
    verify(source, data)
    if name:
        _store(cache_dir() / name, data)
    else:
        warnings.append(unpinned_warning(source, data))
    return _decode(data, source)


def _cached(path: Path, source: RemoteSource) -> bytes | None:
    """The cached bytes when they are there and still match the pin (a damaged entry is fetched again)."""
    try:
        data = path.read_bytes()
    except OSError:
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
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(source.url)) from None


def download(url: str, max_bytes: int, timeout: float) -> bytes:
    """At most ``max_bytes`` from ``url`` (http/https only, redirects too); InputError on any failure."""
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(_redirect_handler())
    try:
        with opener.open(url, timeout=timeout) as response:
            data: bytes = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        raise InputError(f"cannot fetch: HTTP {exc.code} {exc.reason}", Location(url)) from None
    except urllib.error.URLError as exc:
        raise InputError(f"cannot fetch: {exc.reason}", Location(url)) from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot fetch: {exc or type(exc).__name__}", Location(url)) from None
    if len(data) > max_bytes:
        raise InputError(f"refused: the response is larger than {max_bytes} bytes", Location(url))
    return data


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
