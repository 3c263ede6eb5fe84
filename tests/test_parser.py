"""One YAML parser wherever the tool runs: libyaml, or a clean refusal (issue #16 item 19)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import kubectl_instancetype.yamlio.load as load
from kubectl_instancetype.cli import main_group

# Inputs on which ruamel's pure-Python parser and libyaml disagree: the tool answers as libyaml does.
DISPUTED = [
    ("surrogate-escape", 'apiVersion: v1\nkind: Pod\nmetadata: {name: "\\ud800"}\n', "YAML syntax error"),
]

# Colons in plain scalars of flow collections: the bundled libyaml refuses them, go-yaml v2 (kubectl) reads
# them as part of the scalar, and so does the tool.
FLOW_COLONS = [
    ("spec: {image: quay.io/x:41}\n", {"image": "quay.io/x:41"}),
    ("spec: [a:1, b]\n", ["a:1", "b"]),
    ("spec: {a:b: c}\n", {"a:b": "c"}),
    ("spec: {x: y:}\n", {"x": "y:"}),
    ("spec: {a:, b: 1}\n", {"a:": None, "b": 1}),
]


def render(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main_group, ["render", "-f", str(path)])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("name", "text", "message"), DISPUTED, ids=[d[0] for d in DISPUTED])
def test_disputed_inputs_are_read_as_libyaml_reads_them(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    status, stderr = render(path)
    assert status == 3 and message in stderr and stderr.count("\n") == 1, stderr


def test_without_libyaml_nothing_is_parsed_another_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "vm.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n")
    monkeypatch.setattr(load, "_CParser", None)
    status, stderr = render(path)
    assert (status, stderr) == (3, f"{path}:1:1: error: {load.NO_LIBYAML}\n")


@pytest.mark.parametrize(("text", "spec"), FLOW_COLONS)
def test_colons_in_flow_scalars_are_read_as_kubectl_reads_them(text: str, spec: object) -> None:
    docs = load.load_stream(f"apiVersion: v1\nkind: Pod\n{text}---\nkind: Other\n", "x.yaml")
    assert [d.data for d in docs] == [{"apiVersion": "v1", "kind": "Pod", "spec": spec}, {"kind": "Other"}]


def test_a_stream_read_past_a_flow_colon_still_locates_and_warns(tmp_path: Path) -> None:
    text = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: a, name: b}\nspec:\n"
            "  runStrategy: Always\n  instancetype: {name: nowhere}\n  template:\n    spec:\n"
            "      domain: {devices: {}}\n"
            "      volumes: [{name: r, containerDisk: {image: quay.io/x:41}}]\n")
    doc = load.load_stream(text, "vm.yaml")[0]
    assert doc.locate(("spec", "instancetype", "name")).line == 6
    assert len(doc.warnings) == 1 and "lines 3 and 3" in doc.warnings[0]
    path = tmp_path / "vm.yaml"
    path.write_text(text)
    status, stderr = render(path)
    assert status == 1 and f"{path}:6:" in stderr and "nowhere" in stderr, stderr


def test_stream_data_reads_each_document_as_load_stream_does() -> None:
    text = "a: 1\n---\n---\n# empty\n---\nspec: {image: quay.io/x:41}\n--- [1, 2]\n"
    assert list(load.stream_data(text, "x.yaml")) == [(d.index, d.data) for d in load.load_stream(text, "x.yaml")]
    assert [index for index, _ in load.stream_data(text, "x.yaml")] == [0, 3, 4]
    with pytest.raises(load.InputError, match="YAML syntax error"):
        list(load.stream_data("a: [\n", "x.yaml"))
