"""One document through kubectl and the API server's create path, in the server's order.

kubectl: the document must be an object with ``apiVersion`` and ``kind``, and a kind/version of KubeVirt's
groups must be served by a CRD (REST mapping). The server (apiextensions-apiserver ``customresource_handler``,
``rest.BeforeCreate``, ``customResourceStrategy.Validate``): metadata decoded as ObjectMeta, unknown fields
pruned (refused under ``strict``, warned under ``warn``), non-nullable nulls dropped, defaults filled in, the
namespace set (``default``, or the caller's) or cleared, ``status`` dropped, then metadata, schema,
list-type and CEL validation; a refusal carries every error. Between decoding and validation the server
calls KubeVirt's mutating webhook for the kind (:mod:`.mutating`): its refusal is the answer, and its patch is
what the CRD validates.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import go_json
from ..api.versions import removed_version_problem
from ..records import dataclass, field
from . import mutating, names, objectmeta, openapi, prune, registry, scale
from .fielderror import FieldError, Path, dotted
from .objectmeta import json_kind
from .tables import MAIN, crd_schemas

STRICT, WARN, IGNORE = "strict", "warn", "ignore"
MODES = (STRICT, WARN, IGNORE)
ACCEPTED, REFUSED, NOT_VALIDATED = "accepted", "refused", "not-validated"
KUBECTL, DECODE, ADMISSION, VALIDATE = "kubectl", "decode", "admission", "validate"


@dataclass(frozen=True)
class Options:
    """How to validate: kubectl's ``--validate`` mode, the request's namespace, whether the removed
    instancetype versions are let through (for the command that converts them), and the KubeVirt release
    whose schemas the server holds (one of :data:`.tables.RELEASES`): a field the release does not know is an
    unknown field, refused under ``strict`` and pruned with a warning under ``warn``."""

    mode: str = STRICT
    namespace: str = "default"
    accept_removed: bool = False
    release: str = MAIN
    # kinds read as the cluster stores them rather than as a manifest to apply: under ``strict`` their unknown
    # fields are pruned with a warning (``warn``), as the object virt-controller reads holds none
    as_stored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem:
    """One refusal line: where (a JSON path of the document) and the message."""

    path: Path
    message: str


@dataclass(frozen=True)
class Admission:
    """The answer for one document.

    ``obj`` is what the rest of the tool uses (``data`` with unknown fields and non-nullable nulls gone, or
    ``data`` itself when nothing changed), ``stored`` the object as the server would store it.
    """

    verdict: str
    stage: str = ""
    obj: Any = None
    stored: Any = None
    problems: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    pruned: tuple[str, ...] = ()
    errors: tuple[FieldError, ...] = field(default=(), repr=False)
    denial: mutating.Denial | None = None


def refused(stage: str, problems: list[Problem], **more: Any) -> Admission:
    return Admission(REFUSED, stage, problems=tuple(problems), **more)


def removed_version(data: dict[str, Any]) -> Problem | None:
    """The REST mapping refusal of a version KubeVirt removed, with its hint; None when not removed.

    Worded in one place for every layer (:func:`..api.versions.removed_version_problem`);
    ``Options.accept_removed`` lets such objects through unvalidated (they are converted later).
    """
    text = removed_version_problem(data)
    return Problem(("apiVersion",), text) if text else None


def _type_meta_missing(data: Any) -> Admission | None:
    """kubectl's decoding of a document into an object (apimachinery ``UnstructuredJSONScheme``): it needs a
    string ``kind`` and an ``apiVersion`` ``schema.ParseGroupVersion`` reads (at most one '/'), else the kind
    counts as missing; the message quotes the whole document as kubectl sent it (:func:`go_json`)."""
    if not isinstance(data, dict):
        message = f"json: cannot unmarshal {json_kind(data)} into Go value of type unstructured.detector"
        return refused(KUBECTL, [Problem((), message)])
    kind, api_version = data.get("kind"), data.get("apiVersion")
    if not isinstance(kind, str) or not kind or (isinstance(api_version, str) and api_version.count("/") > 1):
        path: Path = ("kind",) if isinstance(kind, str) and kind else ()
        return refused(KUBECTL, [Problem(path, f"Object 'Kind' is missing in '{go_json(data)}'")])
    if not isinstance(api_version, str) or not api_version:
        path = ("apiVersion",) if api_version is not None else ()
        return refused(KUBECTL, [Problem(path, f"Object 'apiVersion' is missing in '{go_json(data)}'")])
    return None


DEFAULT_OPTIONS = Options()


def admit(data: Any, options: Options = DEFAULT_OPTIONS) -> Admission:
    """What kubectl and the API server answer for one decoded document (``data`` is left untouched)."""
    missing = _type_meta_missing(data)
    if missing is not None:
        return missing
    kind, api_version = str(data["kind"]), str(data["apiVersion"])
    group, version = registry.split_api_version(api_version)
    if group not in registry.GROUPS:
        return Admission(NOT_VALIDATED, obj=data, stored=data)
    crd = registry.lookup(group, kind)
    if crd is None:
        return refused(KUBECTL, [Problem(("kind",), registry.no_match(kind, api_version))])
    if version not in crd.versions:
        removed = removed_version(data)
        if removed is not None and options.accept_removed:
            return Admission(NOT_VALIDATED, obj=data, stored=data)
        return refused(KUBECTL, [removed or Problem(("apiVersion",), registry.no_match(kind, api_version))])
    if kind not in crd_schemas(options.release):
        return Admission(NOT_VALIDATED, obj=data, stored=data)
    return _create(data, crd, version, options)


def _create(data: dict[str, Any], crd: registry.CRD, version: str, options: Options) -> Admission:
    kind, schema = crd.kind, crd_schemas(options.release)[crd.kind]
    meta = objectmeta.decode(data.get("metadata"), options.mode != IGNORE)
    warnings = [Problem(("apiVersion",), crd.deprecated[version])] if version in crd.deprecated else []
    prefix = f'{kind} in version "{version}" cannot be handled as a {kind}: '
    if meta.error is not None:
        where: Path = ("metadata", meta.error_field) if meta.error_field else ("metadata",)
        return refused(DECODE, [Problem(where, prefix + meta.error)], warnings=tuple(warnings))
    obj, unknown, null = prune.prune(data, schema)
    unknown = [*meta.unknown, *unknown]
    if null:
        obj = prune.drop_nulls(obj, schema)
    metadata = obj.get("metadata")
    if isinstance(metadata, dict) and not metadata.keys() <= objectmeta.FIELDS.keys():
        obj = {**obj, "metadata": {k: v for k, v in metadata.items() if k in objectmeta.FIELDS}}
    pruned = tuple(dotted(p) for p in unknown) if options.mode != IGNORE else ()
    if unknown and options.mode == STRICT:
        problems = [Problem(p, f'{prefix}strict decoding error: unknown field "{dotted(p)}"') for p in unknown]
        return refused(DECODE, problems, warnings=tuple(warnings), pruned=pruned)
    if options.mode == WARN:
        warnings += [Problem(p, f'unknown field "{dotted(p)}"') for p in unknown]
    # create.go: mutatingAdmission.Admit, after decoding and before rest.BeforeCreate's validation
    denial = mutating.deny(obj, kind, options.release)
    if denial is not None:
        return refused(ADMISSION, [Problem(denial.causes[0][0], denial.status)], warnings=tuple(warnings),
                       pruned=pruned, denial=denial)
    obj = mutating.patch(obj, kind, schema, options.release)
    return _validate(obj, meta.meta, crd, options, warnings, pruned)


def _stored(obj: dict[str, Any], meta: dict[str, Any], crd: registry.CRD, namespace: str,
            release: str) -> dict[str, Any]:
    """The object as the server stores it (sharing the unchanged parts of ``obj``)."""
    meta = dict(meta)
    if crd.namespaced:
        meta.setdefault("namespace", namespace)
    else:
        meta.pop("namespace", None)
    meta["generation"] = 1
    stored = {key: value for key, value in obj.items() if not (crd.status and key == "status")}
    stored["metadata"] = meta
    result: dict[str, Any] = prune.default(stored, crd_schemas(release)[crd.kind])
    return result


def _validate(obj: dict[str, Any], meta: dict[str, Any], crd: registry.CRD,
              options: Options, warnings: list[Problem], pruned: tuple[str, ...]) -> Admission:
    stored = _stored(obj, meta, crd, options.namespace, options.release)
    errors = field_errors(stored, crd, options.release)
    if errors:
        name = stored["metadata"].get("name", "")
        head = f'{crd.kind}.{crd.group} "{name}" is invalid: '
        problems = [Problem(e.path, head + e.text()) for e in errors]
        return refused(VALIDATE, problems, warnings=tuple(warnings), pruned=pruned, errors=tuple(errors))
    if stored["metadata"].get("finalizers"):  # most objects have none to warn about
        warnings += [Problem(("metadata", "finalizers"), w) for w in names.finalizer_warnings(_users(stored, crd))]
    return Admission(ACCEPTED, "", obj, stored, (), tuple(warnings), pruned)


# virt-operator puts its finalizer on every KubeVirt CR (KubeVirtFinalizer, pkg/virt-operator/util/client.go; not
# domain-qualified in every release): a CR dumped from a cluster carries it, and the API server's warning about
# it on every run (twice under diff) would be about a name the user never wrote.
OPERATOR_FINALIZERS = {"KubeVirt": frozenset(("foregroundDeleteKubeVirt", "kubevirt.io/foregroundDeleteKubeVirt"))}


def _users(stored: dict[str, Any], crd: registry.CRD) -> dict[str, Any]:
    """The metadata whose finalizers are the user's: without those the operator of ``crd`` writes itself."""
    meta: dict[str, Any] = stored["metadata"]
    operator = OPERATOR_FINALIZERS.get(crd.kind)
    if not operator or not meta.get("finalizers"):
        return meta
    return {**meta, "finalizers": [f for f in meta["finalizers"] if f not in operator]}


def field_errors(stored: dict[str, Any], crd: registry.CRD, release: str = MAIN) -> list[FieldError]:
    """Every error ``customResourceStrategy.Validate`` and the registry's name check find, in their order,
    with the schemas of ``release``."""
    schema = crd_schemas(release)[crd.kind]
    errors = names.validate_meta(stored["metadata"], crd.namespaced)
    rules: list[FieldError] = []  # the CEL rules' failures, found on the schema's walk (cel.check_rules)
    errors += openapi.validate(stored, schema, rules=rules)
    if crd.scale:
        errors += scale.spec_replicas(stored)
    if not any(e.blocking for e in errors):
        errors += rules
    if not errors:
        errors = names.path_segment_errors(stored["metadata"])
    return errors
