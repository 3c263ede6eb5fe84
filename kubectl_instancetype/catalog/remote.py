"""Catalog sources named by URL: ``https://…/bundle.yaml#sha256=<hex>`` (pure; :mod:`..cli.fetch` does the I/O).

A pinned URL names the SHA-256 of the exact bytes it must serve: a download with other bytes is refused, and
the bytes are kept in an on-disk cache under their digest so that the source then works offline. An unpinned
URL is fetched every time, with a warning that tells the digest to pin it with.
"""

from __future__ import annotations

import re
from functools import cache

from ..errors import InputError, Location
from ..records import dataclass

SCHEMES = ("http", "https")
PIN = "sha256="
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


@cache
def _hex_re() -> re.Pattern[str]:
    """A SHA-256 in hex (compiled on first use)."""
    return re.compile(r"^[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class RemoteSource:
    """A URL to fetch (without its fragment) and the SHA-256 it is pinned to, if any."""

    url: str
    sha256: str | None

    @property
    def display(self) -> str:
        """The name messages use for documents of this source (a password in it masked)."""
        return redact(self.url)


@cache
def _userinfo_re() -> re.Pattern[str]:
    """A URL's scheme and user name, and the password after them (compiled on first use)."""
    return re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/?#@]*?:)[^/?#@]*@")


def redact(url: str) -> str:
    """``url`` with the password of its user information masked (``https://user:***@host/…``): messages,
    warnings and reports never echo a credential given on the command line."""
    return _userinfo_re().sub(r"\1***@", url)


def is_url(path: str) -> bool:
    """Whether a ``-f``/``--catalog`` argument is a URL (``scheme://…``) rather than a path."""
    return _SCHEME.match(path) is not None


def parse_source(text: str) -> RemoteSource:
    """``text`` as a remote source; InputError for another scheme or a malformed pin."""
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    if scheme not in SCHEMES:
        raise InputError(f"unsupported URL scheme {scheme!r}: only http:// and https:// URLs are fetched",
                         Location(redact(text)))
    url, _, fragment = text.partition("#")
    if not fragment:
        return RemoteSource(url, None)
    digest = fragment[len(PIN):].lower() if fragment.startswith(PIN) else ""
    if not _hex_re().match(digest):
        raise InputError(f"a URL fragment must pin the content as #{PIN}<64 hex digits>, not #{fragment}",
                         Location(redact(url)))
    return RemoteSource(url, digest)


def sha256_hex(data: bytes) -> str:
    import hashlib  # only when a URL is fetched: OpenSSL's bindings cost a plain render 4 ms

    return hashlib.sha256(data).hexdigest()


def verify(source: RemoteSource, data: bytes) -> None:
    """Raise InputError (exit 3) when pinned ``source`` did not serve the bytes it is pinned to."""
    if source.sha256 is None:
        return
    actual = sha256_hex(data)
    if actual != source.sha256:
        raise InputError(f"content does not match its pin: sha256 is {actual}, the URL pins {source.sha256}",
                         Location(source.display))


def unpinned_warning(source: RemoteSource, data: bytes) -> str:
    return (f"{source.display} is not pinned and was fetched without an integrity check; "
            f"pin it as '{source.display}#{PIN}{sha256_hex(data)}'")


def cache_name(source: RemoteSource) -> str | None:
    """The file name of a pinned source in the cache directory (None: unpinned sources are not cached)."""
    return None if source.sha256 is None else f"sha256-{source.sha256}.yaml"
