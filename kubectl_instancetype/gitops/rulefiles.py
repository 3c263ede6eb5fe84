"""The ignore rules written in a document: an Argo CD Application's ``spec.ignoreDifferences`` (or that
fragment alone, as ``drift -o argocd`` prints it; or an ApplicationSet's template of one), the ``argocd-cm``
ConfigMap's resource customizations (or its ``data`` alone), a Flux HelmRelease's ``spec.driftDetection.ignore``
(or that fragment).

Each is read as its tool reads it. What the tool refuses is an :class:`InputError` at the field: the API server
refuses an Application or HelmRelease whose fields have the wrong type, miss a required field (an
``ignoreDifferences`` entry's ``kind``, an ignore rule's ``paths``) or are unknown (kubectl's strict field
validation); Argo CD fails every comparison when an ``argocd-cm`` value does not unmarshal
(util/settings/settings.go ``GetResourceOverrides``) or a jq expression does not compile; Flux fails the release
when a target's regular expression or label selector does not parse. What the tool accepts but never applies
(an entry without ``group``: the core group, never ``kubevirt.io``) is read, and covers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import InputError, Location, Notice
from ..records import dataclass
from ..yamlio import Document, load_stream
from . import labelquery
from .ignore import ARGOCD, FLUX, ArgoTarget, FluxExcluded, FluxTarget, Rule, jq_program

CUSTOMIZATIONS = "resource.customizations"
#: util/settings/settings.go appendResourceOverridesFromSplitKeys: the customization types it knows.
_CUSTOMIZATION_TYPES = ("health", "useOpenLibs", "actions", "ignoreDifferences", "ignoreResourceUpdates",
                        "knownTypeFields")
_ARGO_ENTRY = ("group", "kind", "name", "namespace", "jsonPointers", "jqPathExpressions", "managedFieldsManagers")
_FLUX_RULE = ("paths", "target")
_FLUX_TARGET = ("group", "version", "kind", "name", "namespace", "labelSelector", "annotationSelector")


@dataclass(frozen=True)
class Rules:
    """The rules of one document, and what the user should know about them (a rule that cannot be known
    offline)."""

    rules: tuple[Rule, ...]
    notices: tuple[Notice, ...] = ()


def objects(doc: Document) -> Iterator[Document]:
    """The document, or the items of a list (``kubectl get applications -o yaml`` prints a ``kind: List``)."""
    data = doc.data
    if isinstance(data, dict) and str(data.get("kind") or "").endswith("List") and isinstance(data.get("items"), list):
        for index, item in enumerate(data["items"]):
            yield doc.nested(item, "items", index)
    else:
        yield doc


def rules_of(doc: Document) -> Rules | None:
    """The rules ``doc`` holds; None when it is none of the documents the tools read rules from."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    kind, api = data.get("kind"), str(data.get("apiVersion") or "")
    spec = data.get("spec")
    if kind == "Application" and api.startswith("argoproj.io/"):
        return _argocd(doc, ("spec", "ignoreDifferences"), spec.get("ignoreDifferences") if isinstance(spec, dict)
                       else None)
    if kind == "ApplicationSet" and api.startswith("argoproj.io/"):  # the Applications it generates
        template = spec.get("template") if isinstance(spec, dict) else None
        inner = template.get("spec") if isinstance(template, dict) else None
        return _argocd(doc, ("spec", "template", "spec", "ignoreDifferences"),
                       inner.get("ignoreDifferences") if isinstance(inner, dict) else None)
    if kind == "ConfigMap" and isinstance(data.get("metadata"), dict) and data["metadata"].get("name") == "argocd-cm":
        return _configmap(doc, data.get("data"))
    if kind == "HelmRelease" and api.startswith("helm.toolkit.fluxcd.io/"):
        return _flux(doc, spec.get("driftDetection") if isinstance(spec, dict) else None)
    if kind is None and isinstance(spec, dict) and "ignoreDifferences" in spec:
        return _argocd(doc, ("spec", "ignoreDifferences"), spec["ignoreDifferences"])
    if kind is None and "ignoreDifferences" in data:
        return _argocd(doc, ("ignoreDifferences",), data["ignoreDifferences"])
    if kind is None and isinstance(spec, dict) and "driftDetection" in spec:
        return _flux(doc, spec["driftDetection"])
    if kind is None and isinstance(data.get("data"), dict) and any(
            isinstance(k, str) and k.startswith(CUSTOMIZATIONS) for k in data["data"]):
        return _configmap(doc, data["data"])  # argocd-cm's data alone, as Argo CD's documentation shows it
    return None


def _argocd(doc: Document, path: tuple[str | int, ...], entries: Any) -> Rules:
    if entries is None:
        return Rules(())
    _expect(doc, path, entries, list, "a list")
    rules: list[Rule] = []
    notices: list[Notice] = []
    for index, entry in enumerate(entries):
        where = (*path, index)
        _expect(doc, where, entry, dict, "a mapping")
        _known(doc, where, entry, _ARGO_ENTRY)
        if "kind" not in entry:
            raise InputError(f"{_dotted(where)}: kind is required (Argo CD's Application schema)", doc.locate(where))
        fields = {key: _string(doc, (*where, key), entry.get(key)) for key in ("group", "kind", "name", "namespace")}
        rule, notice = _argocd_rule(doc, where, entry, ArgoTarget(**fields))
        rules.append(rule)
        notices.extend(notice)
    return Rules(tuple(rules), tuple(notices))


def _argocd_rule(doc: Document, where: tuple[str | int, ...], entry: dict[str, Any],
                 target: ArgoTarget) -> tuple[Rule, list[Notice]]:
    pointers = _strings(doc, (*where, "jsonPointers"), entry.get("jsonPointers"))
    expressions = _strings(doc, (*where, "jqPathExpressions"), entry.get("jqPathExpressions"))
    managers = _strings(doc, (*where, "managedFieldsManagers"), entry.get("managedFieldsManagers"))
    for index, expression in enumerate(expressions):
        _check_jq(expression, doc.locate((*where, "jqPathExpressions", index)))
    notices = [_managers_notice(doc.locate((*where, "managedFieldsManagers")))] if managers else []
    return Rule(ARGOCD, doc.locate(where), target, pointers, expressions, managers), notices


def _managers_notice(location: Location) -> Notice:
    return Notice("managedFieldsManagers: which fields a manager owns is known only to the cluster (the "
                  "object's managedFields): offline this rule covers nothing. There, the fields KubeVirt's "
                  "mutating webhook adds belong to the manager that applied the VM, the annotations and "
                  "finalizer virt-controller adds to the manager virt-controller (its user agent)",
                  location)


def _check_jq(expression: str, location: Location) -> None:
    try:
        jq_program(expression)
    except ImportError:
        raise InputError("jqPathExpressions need the jq module (libjq's Python bindings): pip install jq",
                         location) from None
    except ValueError as exc:
        first = str(exc).strip().splitlines()[0].rstrip(":") if str(exc).strip() else "invalid"
        raise InputError(f"jq expression {expression!r} does not compile (Argo CD fails every comparison): "
                         f"{first}", location) from None


def _configmap(doc: Document, data: Any) -> Rules:
    if data is None:
        return Rules(())
    _expect(doc, ("data",), data, dict, "a mapping of strings")
    overrides: dict[str, tuple[dict[str, Any], Location]] = {}
    old = data.get(CUSTOMIZATIONS)
    if old not in (None, ""):
        for key, value in _old_customizations(doc, old):
            overrides[key] = value
    for key in data:  # split keys replace the older form's ignoreDifferences (appendResourceOverridesFromSplitKeys)
        if not isinstance(key, str) or not key.startswith(CUSTOMIZATIONS):
            continue
        parts = key.split(".", 3)
        if len(parts) < 4:
            continue
        where = doc.locate(("data", key))
        override_key = _override_key(parts[3], where)
        if parts[2] not in _CUSTOMIZATION_TYPES:
            raise InputError(f"data[{key!r}]: resource customization type {parts[2]} not supported (Argo CD "
                             "fails to read argocd-cm)", where)
        if parts[2] == "ignoreDifferences":
            text = _string(doc, ("data", key), data[key])
            overrides[override_key] = (_override(_yaml(text, key, where), key, where), where)
    rules: list[Rule] = []
    notices: list[Notice] = []
    for key, (fields, where) in overrides.items():
        group, kind = _group_kind(key)
        if fields["managedFieldsManagers"]:
            notices.append(_managers_notice(where))
        if fields["jsonPointers"] or fields["jqPathExpressions"]:
            for expression in fields["jqPathExpressions"]:
                _check_jq(expression, where)
            rules.append(Rule(ARGOCD, where, ArgoTarget(group, kind), fields["jsonPointers"],
                              fields["jqPathExpressions"], fields["managedFieldsManagers"]))
    return Rules(tuple(rules), tuple(notices))


def _old_customizations(doc: Document, text: Any) -> Iterator[tuple[str, tuple[dict[str, Any], Location]]]:
    """``resource.customizations``: a YAML mapping ``group/Kind`` -> {ignoreDifferences: YAML text, …}."""
    where = doc.locate(("data", CUSTOMIZATIONS))
    parsed = _yaml(_string(doc, ("data", CUSTOMIZATIONS), text), CUSTOMIZATIONS, where)
    if parsed is None:
        return
    if not isinstance(parsed, dict):
        raise InputError(f"data[{CUSTOMIZATIONS!r}]: must be a mapping of group/Kind to customizations", where)
    for key, override in parsed.items():
        if not isinstance(override, dict):
            raise InputError(f"data[{CUSTOMIZATIONS!r}]: {key}: must be a mapping", where)
        value = override.get("ignoreDifferences")
        if value is None:
            continue
        if not isinstance(value, str):
            raise InputError(f"data[{CUSTOMIZATIONS!r}]: {key}.ignoreDifferences: must be a string holding "
                             "YAML (Argo CD's ResourceOverride)", where)
        yield str(key), (_override(_yaml(value, f"{CUSTOMIZATIONS} {key}", where), CUSTOMIZATIONS, where), where)


def _override(parsed: Any, key: str, where: Location) -> dict[str, Any]:
    """An OverrideIgnoreDiff: its three lists (unknown fields are ignored, as sigs.k8s.io/yaml does)."""
    if parsed is None:
        parsed = {}
    if not isinstance(parsed, dict):
        raise InputError(f"data[{key!r}]: must be a mapping with jsonPointers, jqPathExpressions or "
                         "managedFieldsManagers (Argo CD fails to read argocd-cm)", where)
    out: dict[str, Any] = {}
    for field in ("jsonPointers", "jqPathExpressions", "managedFieldsManagers"):
        value = parsed.get(field)
        if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
            raise InputError(f"data[{key!r}]: {field}: must be a list of strings (Argo CD fails to read argocd-cm)",
                             where)
        out[field] = tuple(value or ())
    return out


def _override_key(group_kind: str, where: Location) -> str:
    """settings.go ``convertToOverrideKey``: ``group_Kind`` -> ``group/Kind``, ``Kind`` alone, ``all`` -> ``*/*``."""
    parts = group_kind.split("_")
    if len(parts) == 2:
        return f"{parts[0]}/{parts[1]}"
    if len(parts) == 1 and group_kind:
        return "*/*" if group_kind == "all" else group_kind
    raise InputError(f"group kind should be in format `resource.customizations.<type>.<group_kind>` or "
                     f"`resource.customizations.<type>.<kind>`, got group kind: '{group_kind}'", where)


def _group_kind(key: str) -> tuple[str, str]:
    """normalizers/util.go ``getGroupKindForOverrideKey``; a key with more parts selects nothing (logged there)."""
    parts = key.split("/")
    if len(parts) == 2:
        return parts[0], parts[1]
    if len(parts) == 1:
        return "", parts[0]
    return "", ""


def _yaml(text: str, key: str, where: Location) -> Any:
    try:
        docs = load_stream(text, key)
    except InputError as exc:
        raise InputError(f"data[{key!r}]: not YAML ({exc.message}; Argo CD fails to read argocd-cm)",
                         where) from None
    return docs[0].data if docs else None


def _flux(doc: Document, detection: Any) -> Rules:
    excluded = Rule(FLUX, doc.location, FluxExcluded(), ("",))
    if detection is None:
        return Rules((excluded,))
    base: tuple[str | int, ...] = ("spec", "driftDetection")
    _expect(doc, base, detection, dict, "a mapping")
    mode = detection.get("mode")
    if mode is not None and mode not in ("enabled", "warn", "disabled"):
        raise InputError(f"spec.driftDetection.mode: must be one of enabled, warn, disabled, not {mode!r}",
                         doc.locate((*base, "mode")))
    entries = detection.get("ignore")
    if entries is None:
        return Rules((excluded,))
    _expect(doc, (*base, "ignore"), entries, list, "a list")
    rules = [excluded]
    for index, entry in enumerate(entries):
        where = (*base, "ignore", index)
        _expect(doc, where, entry, dict, "a mapping")
        _known(doc, where, entry, _FLUX_RULE)
        if "paths" not in entry:
            raise InputError(f"{_dotted(where)}: paths is required (Flux's HelmRelease schema)", doc.locate(where))
        paths = _strings(doc, (*where, "paths"), entry["paths"])
        target = entry.get("target")
        rules.append(Rule(FLUX, doc.locate(where), None if target is None else _flux_target(doc, (*where, "target"),
                                                                                             target), paths))
    return Rules(tuple(rules))


def _flux_target(doc: Document, where: tuple[str | int, ...], target: Any) -> FluxTarget:
    _expect(doc, where, target, dict, "a mapping")
    _known(doc, where, target, _FLUX_TARGET)
    fields = {key: _string(doc, (*where, key), target.get(key)) for key in _FLUX_TARGET}
    for key in ("group", "version", "kind", "name", "namespace"):
        if fields[key]:
            _check_regex(fields[key], key, doc.locate((*where, key)))
    matchers = {}
    for key, field in (("labels", "labelSelector"), ("annotations", "annotationSelector")):
        if fields[field]:
            try:
                matchers[key] = labelquery.parse(fields[field])
            except ValueError as exc:
                raise InputError(f"invalid {field.replace('S', ' s')}: {exc}", doc.locate((*where, field))) from None
    return FluxTarget(fields["group"], fields["version"], fields["kind"], fields["name"], fields["namespace"],
                      matchers.get("labels"), matchers.get("annotations"))


#: Python's syntax that Go's RE2 refuses: lookaround and backreferences.
_NOT_RE2 = re.compile(r"\(\?(?:[=!]|<[=!])|\\[1-9]|\(\?P=")


def _check_regex(pattern: str, key: str, location: Location) -> None:
    problem = None
    if _NOT_RE2.search(pattern):
        problem = "lookaround and backreferences are not Go regular expression syntax"
    else:
        try:
            re.compile(pattern)
        except re.error as exc:
            problem = str(exc)
    if problem:
        raise InputError(f"invalid {key} regex {pattern!r}: {problem} (Flux fails the release)", location)


def _expect(doc: Document, path: tuple[str | int, ...], value: Any, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise InputError(f"{_dotted(path)}: must be {what}, not {_shown(value)}", doc.locate(path))


def _known(doc: Document, path: tuple[str | int, ...], value: dict[str, Any], fields: tuple[str, ...]) -> None:
    for key in value:
        if key not in fields:
            raise InputError(f"{_dotted(path)}: unknown field {str(key)!r} (known: {', '.join(fields)})",
                             doc.locate((*path, key)))


def _string(doc: Document, path: tuple[str | int, ...], value: Any) -> str:
    if value is None:
        return ""
    _expect(doc, path, value, str, "a string")
    return str(value)


def _strings(doc: Document, path: tuple[str | int, ...], value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    _expect(doc, path, value, list, "a list of strings")
    for index, item in enumerate(value):
        _expect(doc, (*path, index), item, str, "a string")
    return tuple(value)


def _dotted(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) < 60 else "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null" if value is None else type(value).__name__
