"""``validateAccessCredentials`` (vmi-create-admitter.go): each access credential is one type with one source
and one propagation method, and a cloud-init propagation needs its cloud-init volume."""

from __future__ import annotations

from ..cause import Cause, FieldPath
from .spec import Obj, is_set, items, mapping


def _ssh_public_key(at: FieldPath, key: Obj, volumes: list[Obj]) -> list[Cause]:
    here = at.child("sshPublicKey")
    method = mapping(key.get("propagationMethod"))
    causes, methods = [], 0
    for kind, volume_kind in (("noCloud", "cloudInitNoCloud"), ("configDrive", "cloudInitConfigDrive")):
        if is_set(method, kind):
            methods += 1
            if not any(is_set(v, volume_kind) for v in volumes):
                causes.append(here.child("propagationMethod").cause(
                    f"{at} requires a {kind} volume to exist when the {kind} propagationMethod is in use."))
    if is_set(method, "qemuGuestAgent"):
        if not items(mapping(method.get("qemuGuestAgent")).get("users")):
            causes.append(here.child("propagationMethod", "qemuGuestAgent", "users").cause(
                f"{at} requires at least one user to be present in the users list"))
        methods += 1
    return [*causes, *_one_source_one_method(at, here, key, methods)]


def _user_password(at: FieldPath, password: Obj) -> list[Cause]:
    methods = int(is_set(mapping(password.get("propagationMethod")), "qemuGuestAgent"))
    return _one_source_one_method(at, at.child("userPassword"), password, methods)


def _one_source_one_method(at: FieldPath, here: FieldPath, credential: Obj, methods: int) -> list[Cause]:
    causes = []
    if not is_set(mapping(credential.get("source")), "secret"):
        causes.append(here.child("source").cause(f"{at} must have exactly one source set"))
    if methods != 1:
        causes.append(here.child("propagationMethod").cause(f"{at} must have exactly one propagationMethod set"))
    return causes


def validate_access_credentials(field: FieldPath, credentials: list[Obj], volumes: list[Obj]) -> list[Cause]:
    """``validateAccessCredentials`` at ``field`` (``spec.accessCredentials``)."""
    causes: list[Cause] = []
    for idx, credential in enumerate(credentials):
        at = field.index(idx)
        if is_set(credential, "sshPublicKey"):
            causes.extend(_ssh_public_key(at, mapping(credential.get("sshPublicKey")), volumes))
        if is_set(credential, "userPassword"):
            causes.extend(_user_password(at, mapping(credential.get("userPassword"))))
        if is_set(credential, "sshPublicKey") + is_set(credential, "userPassword") != 1:
            causes.append(at.cause(f"{at} must have exactly one access credential type set"))
    return causes
