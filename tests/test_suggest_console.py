"""``suggest`` on a common-templates Template keeps the console's annotations true (N12): the editable lines
and the validation rules of the fields it removed go with them (testdata/templates/suggest-console)."""

from __future__ import annotations

import json

from conftest import TESTDATA, invoke_cli

from kubectl_instancetype.vmtemplate.console import consistent
from kubectl_instancetype.yamlio import load_stream

DATA = TESTDATA / "templates" / "suggest-console"


def test_suggest_drops_the_editable_lines_and_rules_of_removed_fields() -> None:
    out, _err, status = invoke_cli(["suggest", "-f", "rhel9-server-small.yaml", "--accept-approximate"], DATA)
    assert status == 1  # the template changes
    [doc] = load_stream(out, "out")
    editable = doc.data["metadata"]["annotations"]["template.kubevirt.io/editable"]
    assert editable == ("/objects[0].spec.template.spec.domain.devices.disks\n"
                        "/objects[0].spec.template.spec.volumes\n/objects[0].spec.template.spec.networks\n")
    vm = doc.data["objects"][0]
    assert "annotations" not in vm["metadata"] and vm["spec"]["instancetype"] == {"name": "u1.small"}


def test_a_rule_on_a_field_still_there_stays() -> None:
    rules = [{"name": "a", "path": "jsonpath::.spec.domain.cpu.cores"},
             {"name": "b", "path": "jsonpath::.spec.domain.memory.guest"}]
    template = {"metadata": {"annotations": {"template.kubevirt.io/editable": "/objects[0].spec.running\n"}},
                "objects": [{"metadata": {"annotations": {"vm.kubevirt.io/validations": json.dumps(rules)}},
                             "spec": {"template": {"spec": {"domain": {"cpu": {"cores": 2}}}}}}]}
    out = consistent(template, ("objects", 0))
    assert json.loads(out["objects"][0]["metadata"]["annotations"]["vm.kubevirt.io/validations"]) == rules[:1]
    assert out["metadata"] == {}  # no line left: the annotation goes, and the empty map with it
