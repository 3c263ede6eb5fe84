"""Documents through the create path (kubectl_instancetype.validation): what is kept, located problems, warnings."""

from __future__ import annotations

from kubectl_instancetype.errors import EXIT_FINDINGS, EXIT_INPUT, InputError, KubeVirtError, RefusedError
from kubectl_instancetype.schema.server import Options
from kubectl_instancetype.validation import check_documents
from kubectl_instancetype.yamlio import load_stream

TEXT = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineInstancetype
metadata: {name: no-memory}
spec:
  cpu: {guest: 1}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: vm}
spec:
  runStrategy: Always
  runStrategy: Halted
  preferance: {name: x}
  template:
    metadata: {foo: bar}
    spec: {domain: {devices: {}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kept}
"""


def test_refusals_are_located_findings_and_the_rest_is_kept() -> None:
    checked = check_documents(load_stream(TEXT, "in.yaml"), Options())
    assert [d.data["metadata"]["name"] for d in checked.documents] == ["kept"]
    missing, unknown, config = checked.problems
    assert isinstance(missing, RefusedError) and missing.exit_code == EXIT_FINDINGS
    assert str(missing.location) == "in.yaml:4:1"  # spec.memory is missing: shown at spec
    assert str(unknown.location) == "in.yaml:13:3" and 'unknown field "spec.preferance"' in unknown.message
    assert isinstance(config, InputError) and config.exit_code == EXIT_INPUT
    assert checked.warnings == ['in.yaml:12:3: mapping key "runStrategy" is repeated (lines 11 and 12); the last '
                                "value is used, as kubectl does"]


def test_warn_keeps_the_pruned_object_and_kubevirt_mutating_webhook_refuses_before_the_crd() -> None:
    checked = check_documents(load_stream(TEXT, "in.yaml")[1:2], Options(mode="warn"))
    assert checked.documents == []
    (refusal,) = checked.problems
    assert isinstance(refusal, KubeVirtError) and str(refusal.location) == "in.yaml:15:16"
    assert refusal.message == ('VirtualMachine default/vm: admission webhook "virtualmachines-mutator.kubevirt.io" '
                               "denied the request: spec.template.metadata.foo in body is a forbidden property")
    assert refusal.stage == "mutate" and refusal.causes == (
        ("spec.template.metadata.foo in body is a forbidden property", ("spec", "template", "metadata", "foo")),)
    assert 'in.yaml:13:3: VirtualMachine vm: unknown field "spec.preferance"' in checked.warnings
    clean = TEXT.split("---\n")[1].replace("    metadata: {foo: bar}\n", "")
    (doc,) = check_documents(load_stream(clean, "in.yaml"), Options(mode="warn")).documents
    assert "preferance" not in doc.data["spec"] and doc.data["spec"]["runStrategy"] == "Halted"
