"""Name, label, annotation and finalizer rules of the API server (apimachinery ``util/validation``,
``api/validation/objectmeta.go``), with their exact wording."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .fielderror import TOO_LONG, FieldError, GoStruct, Path, invalid, required

DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + r"(\." + DNS1123_LABEL_FMT + ")*"
QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?"
_LABEL = re.compile(DNS1123_LABEL_FMT + r"\Z")
_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_FMT + r"\Z")


@cache
def _qualified_re() -> re.Pattern[str]:
    """A qualified name (compiled on first use)."""
    return re.compile(QUALIFIED_NAME_FMT + r"\Z")


@cache
def _label_value_re() -> re.Pattern[str]:
    """A label value (compiled on first use)."""
    return re.compile(LABEL_VALUE_FMT + r"\Z")


TOTAL_ANNOTATION_SIZE = 256 * 1024


def _regex_message(what: str, fmt: str, examples: tuple[str, ...]) -> str:
    shown = ",  or ".join(f"'{e}'" for e in examples)
    return f"{what} (e.g. {shown}, regex used for validation is '{fmt}')"


SUBDOMAIN_MSG = _regex_message(
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, ("example.com",))
LABEL_MSG = _regex_message(
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character", DNS1123_LABEL_FMT, ("my-name", "123-abc"))
QUALIFIED_PART_MSG = _regex_message(
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character", QUALIFIED_NAME_FMT, ("MyName", "my.name", "123-abc"))
QUALIFIED_MSG = _regex_message(
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character", QUALIFIED_NAME_FMT, ("MyName", "my.name", "123-abc")
) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
LABEL_VALUE_MSG = _regex_message(
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character", LABEL_VALUE_FMT, ("MyValue", "my_value", "12345"))


def dns1123_subdomain(value: str) -> list[str]:
    out = ["must be no more than 253 characters"] if len(value) > 253 else []
    return out + ([] if _SUBDOMAIN.match(value) else [SUBDOMAIN_MSG])


def dns1123_label(value: str) -> list[str]:
    out = ["must be no more than 63 characters"] if len(value) > 63 else []
    if _LABEL.match(value):
        return out
    # A valid subdomain that is no label can only hold dots (apimachinery util/validation IsDNS1123Label).
    return [*out, "must not contain dots" if _SUBDOMAIN.match(value) else LABEL_MSG]


def qualified_name(value: str) -> list[str]:
    parts = value.split("/")
    if len(parts) > 2:
        return [QUALIFIED_MSG]
    errs: list[str] = []
    name = parts[-1]
    if len(parts) == 2:
        if not parts[0]:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + msg for msg in dns1123_subdomain(parts[0]))
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if not _qualified_re().match(name):
        errs.append(QUALIFIED_PART_MSG)
    return errs


def label_value(value: str) -> list[str]:
    out = ["must be no more than 63 characters"] if len(value) > 63 else []
    return out + ([] if _label_value_re().match(value) else [LABEL_VALUE_MSG])


def path_segment(value: str) -> list[str]:
    """apimachinery ``api/validation/path.ValidatePathSegmentName``."""
    if value in (".", ".."):
        return [f"may not be '{value}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in value]


def validate_meta(meta: dict[str, Any], namespaced: bool, prefix: Path = ("metadata",)) -> list[FieldError]:
    """``ValidateObjectMetaAccessor`` with ``NameIsDNSSubdomain`` (apimachinery ``api/validation/objectmeta.go``),
    in its order."""
    errs: list[FieldError] = []
    name, generate = meta.get("name", ""), meta.get("generateName", "")
    if generate:
        errs += [invalid((*prefix, "generateName"), generate, m) for m in dns1123_subdomain(_masked(generate))]
    # The server generates the name from generateName before this check (apiserver registry/rest create.go
    # BeforeCreate: generateName, at most 58 characters of it, and 5 random ones): the answer of `kubectl create`.
    # `kubectl apply` refuses such an object before sending it ("from web-: cannot use generate name with apply").
    if not name:
        if not generate:
            errs.append(required((*prefix, "name"), "name or generateName is required"))
    else:
        errs += [invalid((*prefix, "name"), name, m) for m in dns1123_subdomain(name)]
    namespace = meta.get("namespace", "")
    if namespaced and not namespace:
        errs.append(required((*prefix, "namespace")))
    elif namespace:
        errs += [invalid((*prefix, "namespace"), namespace, m) for m in dns1123_label(namespace)]
    if meta.get("labels"):  # empty ones have nothing to check
        errs += _labels(meta["labels"], (*prefix, "labels"))
    if meta.get("annotations"):
        errs += _annotations(meta["annotations"], (*prefix, "annotations"))
    if "ownerReferences" in meta:  # rare: most objects skip these three checks
        errs += owner_references(meta["ownerReferences"], (*prefix, "ownerReferences"))
    if "finalizers" in meta:
        errs += _finalizers(meta["finalizers"], (*prefix, "finalizers"))
    if "managedFields" in meta:
        errs += managed_fields(meta["managedFields"], (*prefix, "managedFields"))
    return errs


def _finalizers(finalizers: list[str], path: Path) -> list[FieldError]:
    errs = [invalid(path, item, m) for item in finalizers for m in qualified_name(item)]
    if "orphan" in finalizers and "foregroundDeletion" in finalizers:
        errs.append(invalid(path, finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
    return errs


def _masked(generate_name: str) -> str:
    """generateName is checked as a prefix: a trailing '-' is allowed (``MaskTrailingDash``)."""
    return generate_name[:-2] + "a" if len(generate_name) > 1 and generate_name.endswith("-") else generate_name


def _labels(labels: dict[str, str], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for key, value in labels.items():
        errs += [invalid(path, key, m) for m in qualified_name(key)]
        errs += [invalid(path, value, m) for m in label_value(value)]
    return errs


def _annotations(annotations: dict[str, str], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for key in annotations:
        errs += [invalid(path, key, m) for m in qualified_name(key.lower())]
    size = sum(len(k) + len(v) for k, v in annotations.items())
    if size > TOTAL_ANNOTATION_SIZE:
        errs.append(FieldError(path, "FieldValueTooLong", "", f"may not be more than {TOTAL_ANNOTATION_SIZE} bytes"))
    return errs


def _version_of(api_version: str) -> str:
    """The version ``schema.FromAPIVersionAndKind`` finds in an apiVersion ("" when it cannot parse it)."""
    if api_version in ("", "/") or api_version.count("/") > 1:
        return ""
    return api_version.rpartition("/")[2]


def owner_references(refs: list[dict[str, Any]], path: Path) -> list[FieldError]:
    """``ValidateOwnerReferences``: every reference names a version, kind, name and uid; one controller."""
    errs: list[FieldError] = []
    controller = ""
    for ref in refs:
        version = _version_of(ref.get("apiVersion", ""))
        checks = (("apiVersion", version, "version must not be empty"), ("kind", ref.get("kind"), "must not be empty"),
                  ("name", ref.get("name"), "must not be empty"), ("uid", ref.get("uid"), "must not be empty"))
        errs += [invalid((*path, key), ref.get(key, ""), message) for key, value, message in checks if not value]
        if version == "v1" and ref.get("apiVersion") == "v1" and ref.get("kind") == "Event":
            errs.append(invalid(path, GoStruct(ref), "/v1, Kind=Event is disallowed from being an owner"))
        if ref.get("controller") is True:
            current = f"{ref.get('kind')}/{ref.get('name')}"
            if controller:
                message = f'Only one reference can have Controller set to true. Found "true" in references for ' \
                          f"{controller} and {current}"
                errs.append(invalid(path, [GoStruct(r) for r in refs], message))
            else:
                controller = current
    return errs


def managed_fields(entries: list[dict[str, Any]], path: Path) -> list[FieldError]:
    """``ValidateManagedFields`` (apimachinery ``apis/meta/v1/validation``)."""
    errs: list[FieldError] = []
    for i, entry in enumerate(entries):
        here = (*path, i)
        if entry.get("operation") not in ("Apply", "Update"):
            errs.append(invalid((*here, "operation"), entry.get("operation", ""), "must be `Apply` or `Update`"))
        if entry.get("fieldsType", "FieldsV1") != "FieldsV1":
            errs.append(invalid((*here, "fieldsType"), entry["fieldsType"], "must be `FieldsV1`"))
        manager = entry.get("manager", "")
        if len(manager.encode()) > 128:
            errs.append(FieldError((*here, "manager"), TOO_LONG, "", "may not be more than 128 bytes"))
        errs += [invalid((*here, "manager"), manager, f"invalid character {_go_rune(c)} (at position {at})")
                 for at, c in _byte_positions(manager) if not c.isprintable()]
        if len(entry.get("subresource", "").encode()) > 256:
            errs.append(FieldError((*here, "subresource"), TOO_LONG, "", "may not be more than 256 bytes"))
    return errs


def _byte_positions(text: str) -> list[tuple[int, str]]:
    """(byte offset, character) pairs, as Go's ``for i, r := range s`` yields them."""
    out, offset = [], 0
    for char in text:
        out.append((offset, char))
        offset += len(char.encode("utf-8", "surrogatepass"))
    return out


def _go_rune(char: str) -> str:
    """Go's ``%#U``: ``U+0009`` (non-printable characters are shown without the quoted character)."""
    return f"U+{ord(char):04X}"


def path_segment_errors(meta: dict[str, Any], prefix: Path = ("metadata",)) -> list[FieldError]:
    """The generic registry's second pass: names must be usable as a URL path segment."""
    errs: list[FieldError] = []
    for key in ("name", "generateName"):
        value = meta.get(key)
        if value and ("/" in value or "%" in value or value in (".", "..")):  # else path_segment finds nothing
            errs += [invalid((*prefix, key), value, m) for m in path_segment(value)]
    return errs


def finalizer_warnings(meta: dict[str, Any]) -> list[str]:
    """``WarningsOnCreate``: finalizer names that are not domain-qualified."""
    standard = {"orphan", "foregroundDeletion", "kubernetes"}
    out: list[str] = []
    for item in sorted(set(meta.get("finalizers") or [])):
        out += [f'metadata.finalizers: "{item}": {m}' for m in qualified_name(item)]
        if "/" not in item and item not in standard:
            extra = " including a path (/)" if "." in item else ""
            out.append(f'metadata.finalizers: "{item}": prefer a domain-qualified finalizer name{extra} to avoid '
                       "accidental conflicts with other finalizer writers")
    return out
