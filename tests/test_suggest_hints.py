"""The OS hints a VM carries and how they score preference names (:mod:`kubectl_instancetype.suggest.hints`)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.suggest.hints import NAMED, Hints, hints


class Objects:
    def __init__(self, *objects: dict[str, Any]) -> None:
        self.objects = {(o["kind"], o["metadata"].get("namespace", "default"), o["metadata"]["name"]): o
                        for o in objects}

    def get(self, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
        return self.objects.get((kind, namespace, name))


def _vm(**spec: Any) -> dict[str, Any]:
    return {"kind": "VirtualMachine", "metadata": {"name": "vm"}, "spec": spec}


@pytest.mark.parametrize(("system", "best"), [
    ("fedora39", "fedora"), ("rhel9.4", "rhel.9"), ("win2k19", "windows.2k19"), ("win10", "windows.10"),
    ("centos-stream9", "centos.stream9"), ("opensuse-leap15.5", "opensuse.leap"), ("windows11", "windows.11"),
])
def test_an_os_matches_the_longest_preference_name_it_starts_with(system: str, best: str) -> None:
    names = ["fedora", "rhel.8", "rhel.9", "rhel.9.desktop", "windows.10", "windows.11", "windows.2k19",
             "centos.stream9", "opensuse.leap", "linux"]
    found = hints(_vm(template={"metadata": {"annotations": {"vm.kubevirt.io/os": system}}}), "default", Objects())
    scores = {name: found.score(name) for name in names}
    top = max(scores.values())
    assert top > 0 and best in [n for n, s in scores.items() if s == top]
    assert scores["linux"] == 0


def test_os_template_labels_are_hints() -> None:
    vm = _vm() | {"metadata": {"name": "vm", "labels": {"os.template.kubevirt.io/ubuntu22.04": "true",
                                                        "os.template.kubevirt.io/fedora": "false"}}}
    assert hints(vm, "default", Objects()) == Hints((), ("ubuntu2204",))


def test_a_volume_labelled_with_a_preference_names_it() -> None:
    source = {"kind": "DataSource", "metadata": {"name": "rhel9", "namespace": "images",
                                                 "labels": {"instancetype.kubevirt.io/default-preference": "rhel.9"}}}
    vm = _vm(dataVolumeTemplates=[{"metadata": {"name": "root"},
                                   "spec": {"sourceRef": {"kind": "DataSource", "name": "rhel9",
                                                          "namespace": "images"}}}],
             template={"spec": {"volumes": [{"name": "root", "dataVolume": {"name": "root"}}]}})
    found = hints(vm, "default", Objects(source))
    assert found.named == ("rhel.9",)
    assert found.score("rhel.9") == NAMED
    assert found.score("rhel.9.desktop") == 0


def test_a_claim_that_is_not_given_is_no_hint() -> None:
    vm = _vm(template={"spec": {"volumes": [{"name": "root", "persistentVolumeClaim": {"claimName": "x"}}]}})
    assert hints(vm, "default", Objects()) == Hints()
