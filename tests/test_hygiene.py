"""``template hygiene``: what a template leaks to every VM made from it, one finding per place in every
reporter (goldens under testdata/templates/hygiene: ``leaky.yaml``'s report in each format)."""

from __future__ import annotations

import json

import pytest
from conftest import TESTDATA, check_golden, invoke_cli

from kubectl_instancetype.hygiene import findings

DATA = TESTDATA / "templates" / "hygiene"


@pytest.mark.parametrize(("fmt", "golden"), [("text", "leaky.txt"), ("json", "leaky.json"),
                                             ("sarif", "leaky.sarif"), ("junit", "leaky.xml"),
                                             ("github", "leaky.github")])
def test_every_reporter(fmt: str, golden: str, update_goldens: bool) -> None:
    out, err, status = invoke_cli(["template", "hygiene", "leaky.yaml", "--output-format", fmt], DATA)
    assert status == 1
    check_golden(DATA, {golden: err if fmt == "text" else out}, update_goldens)


def test_sarif_names_the_rules() -> None:
    out, _err, _status = invoke_cli(["template", "hygiene", "leaky.yaml", "--output-format", "sarif"], DATA)
    results = json.loads(out)["runs"][0]["results"]
    assert sorted({r["ruleId"] for r in results}) == ["KIT006", "KIT007", "KIT008"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results
            if r["ruleId"] == "KIT006"] == [48, 52, 59]


def test_silenced_by_annotation_and_ignore() -> None:
    _out, err, status = invoke_cli(["template", "hygiene", "quiet.yaml"], DATA)
    assert status == 1 and "KIT007" not in err and "KIT008" not in err and err.count("KIT006") == 3
    assert invoke_cli(["template", "hygiene", "quiet.yaml", "--ignore", "cloud-init-secret"], DATA) == ("", "", 0)


def test_a_common_template_with_parameters_is_clean() -> None:
    assert invoke_cli(["template", "hygiene", "../print/rhel9-server-small.yaml"], DATA) == ("", "", 0)


@pytest.mark.parametrize(("user_data", "count"), [
    ("#cloud-config\npassword: ${PASSWORD}\n", 0),
    ("#cloud-config\nchpasswd:\n  list: |\n    root:RANDOM\n", 0),
    ("#cloud-config\nusers:\n- name: a\n  plain_text_passwd: x1\n", 1),
    ("#cloud-config\nchpasswd:\n  users:\n  - {name: root, password: pw, type: text}\n", 1),
])
def test_cloud_init_lines(user_data: str, count: int) -> None:
    vm = {"spec": {"template": {"spec": {"volumes": [{"name": "c", "cloudInitNoCloud": {"userData": user_data}}]}}}}
    assert len(findings(vm)) == count
