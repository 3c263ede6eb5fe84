"""Finding the instancetype or preference spec a VM uses (KubeVirt's ``Find`` / ``FindPreference``).

Order (pkg/instancetype/find/spec.go, revision.go): the matcher's ``revisionName`` first (trusted
blindly), then the status reference (only when its revision's ``object-name`` label names the matcher's
object, bug #14595, from v1.5.2 and v1.6.0: ``release.revision_ref_names_the_matched_object``), then the live
object of the resolved kind.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..api.golang import go_json, go_type_name
from ..api.matchers import MatcherKind
from ..api.names import CATALOG_KINDS, CONTROLLER_REVISION, INSTANCETYPE_API_VERSION, OBJECT_NAME_LABEL, not_found
from ..api.releases import DEFAULT, Release
from ..api.scheme import is_registered
from ..api.versions import REMOVED, removed_hint
from ..errors import KubeVirtError
from ..records import dataclass

# The name Go gives the scheme virt-controller decodes revisions with: where runtime.NewScheme() is called
# (staging/src/kubevirt.io/client-go/kubevirt/scheme/register.go, line 44, vendored as kubevirt.io/client-go).
SCHEME = "kubevirt.io/client-go/kubevirt/scheme/register.go:44"


class Lookup(Protocol):
    """What expansion needs from a catalog: one object by kind, namespace and name."""

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None: ...


class NotFound(KubeVirtError):
    """KubeVirt's "not found" for an object a matcher or a revision reference names (kind, namespace, name
    kept so that a caller can add a hint after KubeVirt's message)."""

    def __init__(self, kind: str, namespace: str, name: str) -> None:
        super().__init__(not_found(kind, name))
        self.kind, self.namespace, self.name = kind, namespace, name


@dataclass(frozen=True)
class Found:
    """A resolved instancetype or preference spec and the Kind it was found as."""

    spec: dict[str, Any]
    kind: str
    name: str


def find_spec(matcher: MatcherKind, vm: dict[str, Any], namespace: str, lookup: Lookup,
              release: Release = DEFAULT) -> Found | None:
    """The spec ``vm``'s matcher selects, or None without a matcher; KubeVirt's error otherwise."""
    spec = vm.get("spec") or {}
    m = spec.get(matcher.field)
    if m is None:
        return None
    name = m.get("name") or ""
    revision = m.get("revisionName") or ""
    if revision:
        return _from_revision(matcher, _revision(lookup, namespace, revision), name)
    ref = ((vm.get("status") or {}).get(matcher.status_field) or {}).get("controllerRevisionRef") or {}
    if ref.get("name"):
        cr = _revision(lookup, namespace, ref["name"])
        labels = (cr.get("metadata") or {}).get("labels") or {}
        # v1.5.0 and v1.5.1 take the status reference whatever object its revision holds
        if not release.revision_ref_names_the_matched_object or (
                labels.get(OBJECT_NAME_LABEL) == name and OBJECT_NAME_LABEL in labels):
            return _from_revision(matcher, cr, name)
    kind, obj = find_object(matcher, m, namespace, lookup)
    return Found(obj.get("spec") or {}, kind, name)


def find_object(
    matcher: MatcherKind, m: dict[str, Any], namespace: str, lookup: Lookup
) -> tuple[str, dict[str, Any]]:
    """The Kind and live object matcher ``m`` names (not a revision); KubeVirt's error when there is none."""
    kind_text = m.get("kind") or ""
    kind = matcher.resolve(kind_text)
    if kind is None:
        raise KubeVirtError(matcher.unexpected(kind_text))
    name = m.get("name") or ""
    obj = lookup.get(kind, namespace, name)
    if obj is None:
        raise NotFound(kind, namespace, name)
    return kind, obj


def _revision(lookup: Lookup, namespace: str, name: str) -> dict[str, Any]:
    cr = lookup.get(CONTROLLER_REVISION, namespace, name)
    if cr is None:
        raise NotFound(CONTROLLER_REVISION, namespace, name)
    return cr


def _from_revision(matcher: MatcherKind, cr: dict[str, Any], name: str) -> Found:
    obj = decode_revision(cr)
    kind = obj.get("kind")
    if kind not in (matcher.namespaced, matcher.cluster):
        raise KubeVirtError(f"unexpected type in ControllerRevision: {go_type_name(obj)}")
    return Found(obj.get("spec") or {}, kind, name)


def decode_revision(cr: dict[str, Any]) -> dict[str, Any]:
    """The object stored in a ControllerRevision's ``data``, checked as the universal decoder would."""
    data = cr.get("data")
    if not isinstance(data, dict):
        raise KubeVirtError(f"unexpected type in ControllerRevision: {go_type_name(None)}")
    raw = go_json(data)
    if not data.get("kind"):
        raise KubeVirtError(f"failed to decode object in ControllerRevision: Object 'Kind' is missing in '{raw}'")
    if not data.get("apiVersion"):
        raise KubeVirtError(
            f"failed to decode object in ControllerRevision: Object 'apiVersion' is missing in '{raw}'"
        )
    if not is_registered(str(data["apiVersion"]), str(data["kind"])):
        raise KubeVirtError(
            "failed to decode object in ControllerRevision: "
            f'no kind "{data["kind"]}" is registered for version "{data["apiVersion"]}" in scheme '
            f'"{SCHEME}"{_hint(data["apiVersion"])}'
        )
    if data["apiVersion"] == INSTANCETYPE_API_VERSION and data["kind"] in CATALOG_KINDS:
        _check_payload(data)
    # Another registered type decodes fine; the caller's type check then rejects it.
    return data


def _hint(version: str) -> str:
    """After KubeVirt's message, what to do about a revision of a removed version."""
    return f" ({removed_hint(version)})" if version in REMOVED else ""


def _check_payload(data: dict[str, Any]) -> None:
    """A payload whose fields have the wrong JSON type cannot be decoded (KubeVirt unmarshals it into Go)."""
    from ..schema.fielderror import TYPE_INVALID
    from ..schema.openapi import validate
    from ..schema.tables import crd_schemas

    schema = crd_schemas().get(str(data.get("kind")))
    wrong = [e for e in validate(data, schema) if e.type == TYPE_INVALID] if schema is not None else []
    if wrong:
        raise KubeVirtError(f"failed to decode object in ControllerRevision: {wrong[0].detail}")
