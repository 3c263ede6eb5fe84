"""What a template leaks to every VM made from it: the checks a team runs before publishing one
(``template hygiene``). A template made from a running VM "does not generalize the source VM: all secrets,
credentials, and machine-specific identifiers from the source VM remain in the resulting template"
(openshift-docs#119463).

Each rule is one function over the template's VirtualMachine (placeholders kept), listed once in :data:`RULES`
with its id and name; a finding is a value (rule, message, field path, and the line inside a cloud-init text).
A value that references a parameter (``${X}``) is the template's to fill, never a finding. A rule is silenced
for one template by its annotation ``kubectl-instancetype.io/hygiene-ignore`` (ids or names, comma-separated),
or for a run by ``--ignore``.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator
from typing import Any

from .records import dataclass

IGNORE_ANNOTATION = "kubectl-instancetype.io/hygiene-ignore"
_PLACEHOLDER = re.compile(r"\$\{\{?[A-Za-z0-9_]+\}?\}")
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Finding:
    """One place a template leaks: the rule, what is wrong, the field (within the VM) and, inside a cloud-init
    text, the line of that text (0: the field itself)."""

    rule: str
    name: str
    message: str
    path: Path
    line: int = 0


def _literal(value: Any) -> bool:
    """A value every VM gets as it is: set, and no parameter in it."""
    return isinstance(value, (str, int)) and not isinstance(value, bool) and value != "" \
        and not (isinstance(value, str) and _PLACEHOLDER.search(value))


def _map(value: Any, key: str) -> dict[str, Any]:
    """``value[key]`` when both are maps, else an empty map."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


def _vmi(vm: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    return _map(_map(_map(vm, "spec"), "template"), "spec"), ("spec", "template", "spec")


# --- KIT006 cloud-init-secret -------------------------------------------------------------------------------------

_PASSWORD = re.compile(r"(?:^|[\s{,-])(password|passwd|plain_text_passwd|hashed_passwd)\s*:\s*"
                       r"(\$\{\{?\w+\}?\}|[^\s,}#]+)")
_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")
_PAIR = re.compile(r"^\s*-?\s*([^\s:#]+):(\S+)\s*$")  # chpasswd's user:password lines
_CLOUD_INIT = ("cloudInitNoCloud", "cloudInitConfigDrive")


def cloud_init_secret(vm: dict[str, Any]) -> Iterator[Finding]:
    """Passwords and private keys written into cloud-init user data (inline or base64): every VM of the
    template gets the same credential. A generated parameter or a Secret (``userDataSecretRef``) does not."""
    vmi, at = _vmi(vm)
    for i, volume in enumerate(vmi.get("volumes") or []):
        if not isinstance(volume, dict):
            continue
        for source in _CLOUD_INIT:
            config = volume.get(source)
            if not isinstance(config, dict):
                continue
            for field in ("userData", "userDataBase64"):
                text = config.get(field)
                if not isinstance(text, str):
                    continue
                encoded = field == "userDataBase64"
                if encoded:
                    try:
                        text = base64.b64decode(text, validate=False).decode("utf-8", "replace")
                    except (binascii.Error, ValueError):
                        continue
                path = (*at, "volumes", i, source, field)
                for line_no, message in _secret_lines(text):
                    yield Finding("KIT006", "cloud-init-secret",
                                  f"{message}: every VM made from the template gets it; use a parameter with "
                                  "generate: expression, or a Secret (userDataSecretRef)",
                                  path, 0 if encoded else line_no)


def _secret_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of cloud-config text holding a credential, and what each holds."""
    chpasswd = False
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.startswith((" ", "\t", "-")):  # a top-level key
            chpasswd = line.startswith("chpasswd:")
        password = _PASSWORD.search(line)
        pair = _PAIR.match(line) if chpasswd else None
        if password and _literal(password.group(2).strip().strip("'\"")):
            yield n, f"a password ({password.group(1)}) in the cloud-init user data"
        elif _PRIVATE_KEY.search(line):
            yield n, "a private key in the cloud-init user data"
        elif pair and _literal(pair.group(2)) and pair.group(2).upper() not in ("RANDOM", "R"):
            yield n, f"a password for {pair.group(1)} (chpasswd) in the cloud-init user data"


# --- KIT007 fixed-identifier --------------------------------------------------------------------------------------


def fixed_identifier(vm: dict[str, Any]) -> Iterator[Finding]:
    """Machine identifiers every VM of the template would share: firmware UUID and serial, MAC addresses, the
    hostname (of the VMI, or set by cloud-init) and the source VM's object identity."""
    vmi, at = _vmi(vm)
    domain = _map(vmi, "domain")
    firmware = _map(domain, "firmware")
    for key, what in (("uuid", "firmware UUID"), ("serial", "firmware serial number")):
        if _literal(firmware.get(key)):
            yield Finding("KIT007", "fixed-identifier", f"a fixed {what} ({firmware[key]}): every VM made from the "
                          "template gets the same; leave it out (KubeVirt assigns one) or make it a parameter",
                          (*at, "domain", "firmware", key))
    devices = _map(domain, "devices")
    for i, interface in enumerate(devices.get("interfaces") or []):
        if isinstance(interface, dict) and _literal(interface.get("macAddress")):
            yield Finding("KIT007", "fixed-identifier", f"a fixed MAC address ({interface['macAddress']}) on interface "
                          f"{interface.get('name', i)}: VMs made from the template collide on the network; leave it "
                          "out or make it a parameter", (*at, "domain", "devices", "interfaces", i, "macAddress"))
    if _literal(vmi.get("hostname")):
        yield Finding("KIT007", "fixed-identifier", f"a fixed hostname ({vmi['hostname']}): every VM made from the "
                      "template gets it; use a parameter (${NAME})", (*at, "hostname"))
    meta = _map(vm, "metadata")
    for key in ("uid", "resourceVersion", "creationTimestamp"):
        if meta.get(key):
            yield Finding("KIT007", "fixed-identifier", f"metadata.{key} of the VM the template was made from: "
                          "remove it", ("metadata", key))
    for i, volume in enumerate(vmi.get("volumes") or []):
        config = next((volume.get(s) for s in _CLOUD_INIT if isinstance(volume, dict)
                       and isinstance(volume.get(s), dict)), None)
        text = config.get("userData") if config else None
        if isinstance(text, str):
            source = next(s for s in _CLOUD_INIT if isinstance(volume.get(s), dict))
            for n, line in enumerate(text.splitlines(), start=1):
                match = re.match(r"^\s*(hostname|fqdn)\s*:\s*(\S+)\s*$", line)
                if match and _literal(match.group(2)):
                    yield Finding("KIT007", "fixed-identifier", f"a fixed {match.group(1)} ({match.group(2)}) in "
                                  "the cloud-init user data: every VM made from the template gets it; use a parameter",
                                  (*at, "volumes", i, source, "userData"), n)


# --- KIT008 pinned-over-instancetype ------------------------------------------------------------------------------

_SIZED = (("cpu", "sockets"), ("cpu", "cores"), ("cpu", "threads"), ("memory", "guest"),
          ("resources", "requests", "memory"), ("resources", "requests", "cpu"), ("resources", "limits", "memory"),
          ("resources", "limits", "cpu"))


def pinned_over_instancetype(vm: dict[str, Any]) -> Iterator[Finding]:
    """Values that defeat the instancetype a template offers: a revision of one cluster's instancetype or
    preference (``revisionName``: every VM made elsewhere points at a ControllerRevision that is not there),
    and sizes written into the VM beside an instancetype (KubeVirt refuses them; a size the template's user
    should choose belongs to the instancetype)."""
    spec = _map(vm, "spec")
    for which in ("instancetype", "preference"):
        matcher = spec.get(which)
        if isinstance(matcher, dict) and _literal(matcher.get("revisionName")):
            yield Finding("KIT008", "pinned-over-instancetype", f"spec.{which}.revisionName pins a ControllerRevision "
                          "of the cluster the template was made from: remove it (KubeVirt stores the revision)",
                          ("spec", which, "revisionName"))
    if not isinstance(spec.get("instancetype"), dict):
        return
    vmi, at = _vmi(vm)
    domain = _map(vmi, "domain")
    for steps in _SIZED:
        value: Any = domain
        for step in steps:
            value = value.get(step) if isinstance(value, dict) else None
        if value is not None:
            yield Finding("KIT008", "pinned-over-instancetype", f"domain.{'.'.join(steps)} is written beside an "
                          "instancetype, which supplies it: remove it", (*at, "domain", *steps))


Rule = Callable[[dict[str, Any]], Iterator[Finding]]
# id, name, short description, the check: each rule listed once
RULES: tuple[tuple[str, str, str, Rule], ...] = (
    ("KIT006", "cloud-init-secret", "A password or private key in a template's cloud-init user data",
     cloud_init_secret),
    ("KIT007", "fixed-identifier", "A machine identifier every VM made from the template would share",
     fixed_identifier),
    ("KIT008", "pinned-over-instancetype", "A value in the template that defeats the instancetype it offers",
     pinned_over_instancetype),
)


def findings(vm: Any, ignored: frozenset[str] = frozenset()) -> list[Finding]:
    """Every finding of every rule not ``ignored`` (ids or names) in a template's VirtualMachine."""
    if not isinstance(vm, dict):
        return []
    out: list[Finding] = []
    for rule_id, name, _short, check in RULES:
        if rule_id not in ignored and name not in ignored:
            out.extend(check(vm))
    return out


def ignored_by(annotations: Any) -> frozenset[str]:
    """The rules a template's annotation silences."""
    text = annotations.get(IGNORE_ANNOTATION) if isinstance(annotations, dict) else None
    return frozenset(part.strip() for part in text.split(",") if part.strip()) if isinstance(text, str) else frozenset()
