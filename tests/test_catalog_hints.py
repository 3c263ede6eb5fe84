"""Hints after KubeVirt's "not found" (catalog/hints.py), and the names a catalog has in scope."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.catalog.builtin import find as builtin_find
from kubectl_instancetype.catalog.builtin import names as builtin_names
from kubectl_instancetype.catalog.find import NotFound
from kubectl_instancetype.catalog.hints import fetch_revision, hint, suggestions
from kubectl_instancetype.catalog.index import Catalog
from kubectl_instancetype.pipeline.lookup import lookup

V1BETA1 = "instancetype.kubevirt.io/v1beta1"
IT, IT_CL = "VirtualMachineInstancetype", "VirtualMachineClusterInstancetype"


def obj(kind: str, name: str, namespace: str | None = None) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": V1BETA1, "kind": kind, "metadata": meta, "spec": {}}


@pytest.mark.parametrize(
    ("name", "candidates", "expected"),
    [
        ("u1.meduim", ["u1.medium", "u1.2xmedium", "o1.medium", "cx1.large"], ["u1.medium"]),
        ("small", ["smal", "smalll", "large"], ["smalll", "smal"]),  # about as close: both, best first
        ("fedora", ["fedora"], []),  # the exact name is not a suggestion
        ("zzz", ["u1.medium"], []),
        ("rhel9", ["rhel.9", "rhel.8", "rhel.9.dpdk", "windows.11"], ["rhel.9"]),
    ],
)
def test_suggestions(name: str, candidates: list[str], expected: list[str]) -> None:
    assert suggestions(name, candidates) == expected


def test_names_in_scope_are_the_kinds_and_namespaces_a_lookup_could_find() -> None:
    catalog = Catalog(default_namespace="prod", builtin=builtin_find, builtin_names=builtin_names)
    catalog.add(obj(IT, "mine", "prod"))
    catalog.add(obj(IT, "theirs", "other"))
    catalog.add(obj(IT_CL, "custom"))
    assert catalog.names(IT, "prod") == ["mine"]
    cluster = catalog.names(IT_CL, "prod")
    assert "custom" in cluster and "u1.medium" in cluster
    assert "u1.medium" not in Catalog(builtin=None, builtin_names=builtin_names).names(IT_CL, "prod")


def test_revision_hint_is_the_command_that_fetches_it() -> None:
    error = NotFound("ControllerRevision", "prod", "web-fedora-v1beta1-x-1")
    assert fetch_revision("web-fedora-v1beta1-x-1", "prod") == (
        "kubectl get controllerrevision web-fedora-v1beta1-x-1 -n prod -o yaml")
    assert error.message == 'controllerrevisions.apps "web-fedora-v1beta1-x-1" not found'
    assert hint(error, Catalog()) == (
        " (hint: the revision is in the cluster the VM comes from: fetch it with "
        "`kubectl get controllerrevision web-fedora-v1beta1-x-1 -n prod -o yaml` and pass it with -f)")


def test_lookup_failure_keeps_kubevirts_message_first() -> None:
    catalog = Catalog(default_namespace="prod")
    catalog.add(obj(IT, "u1.medium", "prod"))
    vm = {"metadata": {"name": "web"}, "spec": {"instancetype": {"name": "u1.meduim", "kind": IT}}}
    failure = lookup(vm, "prod", catalog).failures[0]
    assert failure.message == (
        'virtualmachineinstancetypes.instancetype.kubevirt.io "u1.meduim" not found (did you mean "u1.medium"?)')
    assert failure.field == ("spec", "instancetype")
