"""Names, labels and metadata decoding (kubectl_instancetype.schema.names / objectmeta), inline literals."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.schema import names, objectmeta
from kubectl_instancetype.schema.fielderror import FieldError, dotted, go_value


@pytest.mark.parametrize(("value", "messages"), [
    ("app", []),
    ("example.com/app", []),
    ("a/b/c", [names.QUALIFIED_MSG]),
    ("/app", ["prefix part must be non-empty"]),
    ("example.com/", ["name part must be non-empty", names.QUALIFIED_PART_MSG]),
    ("Example_Com/app", ["prefix part " + names.SUBDOMAIN_MSG]),
    ("k" * 64, ["name part must be no more than 63 characters"]),
    ("app name", [names.QUALIFIED_PART_MSG]),
])
def test_qualified_names(value: str, messages: list[str]) -> None:
    assert names.qualified_name(value) == messages


@pytest.mark.parametrize(("meta", "texts"), [
    ({"name": "ok", "namespace": "default"}, []),
    ({"namespace": "default"}, ["metadata.name: Required value: name or generateName is required"]),
    # the server generates the name before this check (kubectl create's answer; kubectl apply refuses the object
    # itself, and so does kube-validate, which skips the create path's name generation)
    ({"generateName": "web-", "namespace": "default"}, []),
    ({"generateName": "Web-", "namespace": "default"},
     [f'metadata.generateName: Invalid value: "Web-": {names.SUBDOMAIN_MSG}']),
    ({"name": "a", "namespace": "a.b"}, ['metadata.namespace: Invalid value: "a.b": must not contain dots']),
    ({"name": "Web", "namespace": "default"}, [f'metadata.name: Invalid value: "Web": {names.SUBDOMAIN_MSG}']),
    ({"name": "a", "namespace": "default", "labels": {"app": "my app"}},
     [f'metadata.labels: Invalid value: "my app": {names.LABEL_VALUE_MSG}']),
    ({"name": "a", "namespace": "default", "annotations": {"Example.com/Key": "v"}}, []),
    ({"name": "a"}, ["metadata.namespace: Required value"]),
])
def test_object_meta(meta: dict[str, Any], texts: list[str]) -> None:
    assert [e.text() for e in names.validate_meta(meta, namespaced=True)] == texts


def test_path_segment_names() -> None:
    assert [e.text() for e in names.path_segment_errors({"name": "a/b%c"})] == [
        "metadata.name: Invalid value: \"a/b%c\": may not contain '/'",
        "metadata.name: Invalid value: \"a/b%c\": may not contain '%'"]


@pytest.mark.parametrize(("meta", "error"), [
    ({"name": 12}, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"),
    ({"labels": ["a"]}, "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type "
                        "map[string]string"),
    ({"labels": {"a": 1}}, "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"),
    ({"generation": 1.5}, "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type "
                          "int64"),
    ({"name": True, "annotations": "x"}, "json: cannot unmarshal string into Go struct field "
                                         "ObjectMeta.annotations of type map[string]string"),
    ("x", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"),
])
def test_metadata_decode_errors(meta: Any, error: str) -> None:
    assert objectmeta.decode(meta, track_unknown=True).error == error


def test_metadata_round_trip_drops_unknown_and_empty_fields() -> None:
    decoded = objectmeta.decode({"name": "a", "labelz": {}, "labels": {}, "namespace": "", "generation": 2,
                                 "annotations": {"k": None}}, track_unknown=True)
    assert decoded.meta == {"name": "a", "generation": 2, "annotations": {"k": ""}}
    assert decoded.unknown == (("metadata", "labelz"),)
    assert objectmeta.decode({"labelz": 1}, track_unknown=False).unknown == ()


@pytest.mark.parametrize(("error", "text"), [
    (FieldError(("spec", "x", 0, "y"), "FieldValueInvalid", 1.0, "d"), "spec.x[0].y: Invalid value: 1: d"),
    (FieldError((), "FieldValueInvalid", None, "n"), "<nil>: Invalid value: null: n"),
    (FieldError(("a",), "FieldValueTooMany", 3, "must have at most 1 items"),
     "a: Too many: 3: must have at most 1 items"),
    (FieldError(("a",), "FieldValueTooLong", "xx", "may not be more than 1 byte"),
     "a: Too long: may not be more than 1 byte"),
])
def test_field_error_text(error: FieldError, text: str) -> None:
    assert error.text() == text
    assert dotted(()) == "<nil>" and go_value(True) == "true"
