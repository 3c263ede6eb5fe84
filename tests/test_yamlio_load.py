"""Loading YAML as kubectl reads it: repeated mapping keys keep the last value, with a warning."""

from __future__ import annotations

from pathlib import Path

from kubectl_instancetype.yamlio import load_stream


def test_repeated_keys_keep_the_last_value_and_name_both_lines() -> None:
    (doc,) = load_stream("spec:\n  cpu:\n    guest: 1\n    guest: 2\n  memory: {guest: 1Gi}\n", "it.yaml")
    assert doc.data == {"spec": {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}}
    assert doc.warnings == ('it.yaml:4:5: mapping key "guest" is repeated (lines 3 and 4); the last value is used, '
                            "as kubectl does",)


def test_warnings_belong_to_their_document_and_nested_keys_are_separate() -> None:
    text = "a: {x: 1}\nb: {x: 2}\n---\nk: 1\nk: 2\nl: [{m: 1, m: 3}]\n"
    first, second = load_stream(text, "s.yaml")
    assert first.warnings == ()
    assert [w.split(": mapping")[0] for w in second.warnings] == ["s.yaml:5:1", "s.yaml:6:12"]
    assert second.data == {"k": 2, "l": [{"m": 3}]}


def test_write_refuses_to_edit_a_document_with_repeated_keys(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kubectl_instancetype.cli import main_group

    vm = tmp_path / "vm.yaml"
    text = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: a\n  name: b\nspec:\n"
            "  runStrategy: Always\n  instancetype: {name: u1.small}\n  template: {spec: {domain: {devices: {}}}}\n")
    vm.write_text(text)
    result = CliRunner().invoke(main_group, ["render", "-f", str(vm), "--write"])
    assert result.exit_code == 3 and vm.read_text() == text
    assert f'{vm}:5:3: warning: mapping key "name" is repeated (lines 4 and 5)' in result.stderr
    assert f"{vm}:1:1: error: cannot rewrite a document whose mapping keys repeat" in result.stderr
