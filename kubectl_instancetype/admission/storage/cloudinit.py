"""The cloud-init checks of ``validateVolumes`` (vmi-create-admitter.go): one user data source and one network
data source at most, at least one of them, each within 2 KiB, base64 that decodes.

Inline data is capped so that edits do not ship large objects to many nodes; larger data belongs in a Secret.
"""

from __future__ import annotations

from ...config import ClusterConfig
from ..cause import Cause, FieldPath
from .spec import Obj, mapping, text

CLOUD_INIT_USER_MAX_LEN = 2048
CLOUD_INIT_NETWORK_MAX_LEN = 2048
SOURCES = ("cloudInitNoCloud", "cloudInitConfigDrive")  # the first one set is checked
SECRET_REFS = {"userData": "secretRef", "networkData": "networkDataSecretRef"}
_ALPHABET = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def go_base64_len(data: str) -> tuple[int, bool]:
    """``base64.StdEncoding.DecodeString``: how many bytes it returns and whether it succeeds. Like Go it
    skips CR and LF, wants padding, accepts non-zero trailing bits and, on an error, returns the bytes of the
    quanta before the bad one (whose length KubeVirt still compares with the limit)."""
    src = data.encode("utf-8", "surrogatepass")
    n, si = 0, 0
    while True:
        si, got, ok, done = _quantum(src, si)
        n += got
        if not ok or done:
            return n, ok


def _quantum(src: bytes, si: int) -> tuple[int, int, bool, bool]:
    """``decodeQuantum``: (next index, bytes, ok, at the end)."""
    j = 0
    while j < 4:
        if si == len(src):
            return (si, 0, j == 0, True)
        c = chr(src[si])
        si += 1
        if c in _ALPHABET:
            j += 1
            continue
        if c in "\r\n":
            continue
        if c != "=" or j in (0, 1):
            return si, 0, False, True
        if j == 2:  # "==" wanted
            si = _skip_newlines(src, si)
            if si == len(src) or src[si] != ord("="):
                return si, 0, False, True
            si += 1
        si = _skip_newlines(src, si)
        return si, j - 1, si == len(src), True  # bytes after the padding are trailing garbage
    return si, 3, True, False


def _skip_newlines(src: bytes, si: int) -> int:
    while si < len(src) and src[si] in b"\r\n":
        si += 1
    return si


def _utf8_len(value: str) -> int:
    return len(value.encode("utf-8", "surrogatepass"))


def _data(field: FieldPath, source: Obj, kind: str, what: str) -> tuple[int, int, list[Cause]]:
    """The number of sources of ``what`` (``userData`` or ``networkData``), its length, and the base64
    cause: a secret reference with a name, base64 text, plain text (the last one set gives the length)."""
    count, length, causes = 0, 0, []
    if text(mapping(source.get(SECRET_REFS[what])).get("name")):
        count += 1
    encoded = text(source.get(f"{what}Base64"))
    if encoded:
        count += 1
        length, ok = go_base64_len(encoded)
        if not ok:
            at = field.child(kind, f"{what}Base64")
            causes.append(at.cause(f"{at}.{kind}.{what}Base64 is not a valid base64 value."))
    plain = text(source.get(what))
    if plain:
        count += 1
        length = _utf8_len(plain)
    return count, length, causes


def cloud_init(field: FieldPath, volume: Obj, cfg: ClusterConfig) -> list[Cause]:
    """The cloud-init data checks of the volume at ``field``."""
    kind = next((k for k in SOURCES if volume.get(k) is not None), None)
    if kind is None:
        return []
    source, at = mapping(volume.get(kind)), field.child(kind)
    users, user_len, causes = _data(field, source, kind, "userData")
    if users > 1:
        causes.append(at.cause(f"{at} must have only one userdatasource set."))
    if user_len > CLOUD_INIT_USER_MAX_LEN:
        causes.append(at.cause(f"{at} userdata exceeds {CLOUD_INIT_USER_MAX_LEN} byte limit. Should use "
                               "UserDataSecretRef for larger data."))
    networks, network_len, network_causes = _data(field, source, kind, "networkData")
    causes.extend(network_causes)
    if networks > 1:
        causes.append(at.cause(f"{at} must have only one networkdata source set."))
    if network_len > CLOUD_INIT_NETWORK_MAX_LEN:
        causes.append(at.cause(f"{at} networkdata exceeds {CLOUD_INIT_NETWORK_MAX_LEN} byte limit. Should use "
                               "NetworkDataSecretRef for larger data."))
    if users == 0 and networks == 0:
        causes.append(at.cause(f"{at} must have at least one userdatasource or one networkdatasource set."))
    return causes
