"""Objects on standard input name the files they come from (kustomize, kpt, Helm 4): problems name them too."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.errors import Location
from kubectl_instancetype.inputs import Provenances
from kubectl_instancetype.yamlio import load_stream

SIZE = """apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata:
  name: small
spec:
  cpu:
    guest: 1
  memory:
    guest: 1Gi
"""


def vm(name: str, annotations: dict[str, str]) -> str:
    lines = "".join(f"    {k}: {v!r}\n" for k, v in annotations.items())
    return (f"apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: {name}\n"
            + (f"  annotations:\n{lines}" if lines else "")
            + "spec:\n  instancetype:\n    name: small\n  template:\n    spec:\n      domain:\n        cpu:\n"
              "          sockets: 2\n        devices: {}\n")


def render_stdin(text: str, *args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main_group, ["render", "-f", "-", "--no-builtin-catalog", *args], input=text)
    return result.exit_code, result.stderr.splitlines()


@pytest.mark.parametrize("annotation", ["config.kubernetes.io/path", "internal.config.kubernetes.io/path",
                                        "postrenderer.helm.sh/postrender-filename"])
def test_the_first_object_of_a_file_is_located_in_that_file(annotation: str) -> None:
    text = SIZE + "---\n" + vm("web", {annotation: "apps/web/vm.yaml"})
    status, errors = render_stdin(text)
    assert status == 1
    # sockets is on line 14 of the VM, the first object of its file (stdin: line 24)
    assert errors == ["apps/web/vm.yaml:14:11: error: VirtualMachine default/web: VM field(s) "
                      "spec.template.spec.domain.cpu.sockets conflicts with selected instance type"]


def test_a_line_annotation_says_where_the_object_starts() -> None:
    text = SIZE + "---\n" + vm("web", {"config.kubernetes.io/path": "vms.yaml", "config.kubernetes.io/index": "3",
                                       "config.kubernetes.io/line": "40"})
    _, errors = render_stdin(text)
    assert errors[0].startswith("vms.yaml:55:11: error: VirtualMachine default/web: ")  # line 16 of the VM


def test_a_later_object_of_a_file_without_a_line_points_at_the_file() -> None:
    text = SIZE + "---\n" + vm("web", {"internal.config.kubernetes.io/path": "vms.yaml",
                                       "internal.config.kubernetes.io/index": "2"})
    _, errors = render_stdin(text)
    assert errors[0].startswith("vms.yaml:1:1: error: VirtualMachine default/web: ")


def test_objects_without_annotations_stay_on_stdin() -> None:
    text = SIZE + "---\n" + vm("tagged", {"config.kubernetes.io/path": "a.yaml"}) + "---\n" + vm("plain", {})
    _, errors = render_stdin(text)
    assert [e.split(": error: ")[0] for e in errors] == ["a.yaml:14:11", "<stdin>:38:11"]


def test_the_krm_function_names_the_files_of_a_helm_stream() -> None:
    text = SIZE + "---\n" + vm("web", {"postrenderer.helm.sh/postrender-filename": "chart/templates/vm.yaml"})
    result = CliRunner().invoke(main_group, ["krm", "--no-builtin-catalog"], input=text)
    assert result.exit_code == 1
    assert result.stderr.startswith("chart/templates/vm.yaml:14:11: error: VirtualMachine default/web: ")


def test_relocation_of_a_location_on_another_stream_is_nothing() -> None:
    docs = load_stream(vm("web", {"config.kubernetes.io/path": "a.yaml"}), "<stdin>")
    origins = Provenances.of(docs, "<stdin>")
    assert origins.relocate(Location("other.yaml", 3, 1)) == Location("other.yaml", 3, 1)
    assert origins.relocate(Location("<stdin>", 3, 1)) == Location("a.yaml", 3, 1)
    assert origins.relocate(None) is None


def test_annotations_on_github_name_the_file_too() -> None:
    text = SIZE + "---\n" + vm("web", {"config.kubernetes.io/path": "apps/web/vm.yaml"})
    result = CliRunner().invoke(main_group, ["render", "-f", "-", "--no-builtin-catalog"], input=text,
                                env={"GITHUB_ACTIONS": "true"})
    assert "::error file=apps/web/vm.yaml,line=14,col=11::VirtualMachine default/web: " in result.stderr
