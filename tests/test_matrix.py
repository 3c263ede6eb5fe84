"""``template matrix``: every instancetype × preference of a template, admitted or refused with KubeVirt's
messages (goldens under testdata/templates/matrix, see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TESTDATA, check_golden, invoke_cli

DATA = TESTDATA / "templates" / "matrix"
WINDOWS = ["--preferences", "instancetype.kubevirt.io/os-type=windows,!instancetype.kubevirt.io/deprecated",
           "--instancetypes", "instancetype.kubevirt.io/class=general.purpose,instancetype.kubevirt.io/size in "
           "(small,medium)"]


@pytest.mark.parametrize(("output", "golden"), [("text", "web.matrix.txt"), ("json", "web.matrix.json"),
                                                ("markdown", "web.matrix.md")])
def test_matrix_of_the_annotation(output: str, golden: str, update_goldens: bool) -> None:
    out, err, status = invoke_cli(["template", "matrix", "web.yaml", "-o", output], DATA)
    assert (err, status) == ("", 0)
    check_golden(DATA, {golden: out}, update_goldens)


def test_matrix_json_cells() -> None:
    out, _err, _status = invoke_cli(["template", "matrix", "web.yaml", "-o", "json"], DATA)
    [template] = json.loads(out)["templates"]
    refused = [(c["instancetype"], c["preference"]) for c in template["cells"] if not c["admitted"]]
    assert refused == [("u1.small", "windows.11"), ("u1.medium", "windows.11")]
    assert template["instancetypes"]["parameter"] == "INSTANCETYPE" and template["uncoveredPreferences"] == []


def test_matrix_from_catalog_selectors(update_goldens: bool) -> None:
    out, err, status = invoke_cli(["template", "matrix", "web.yaml", *WINDOWS], DATA)
    assert status == 1 and "preference windows.11: no instancetype of the matrix satisfies it" in err
    check_golden(DATA, {"web.windows.txt": out}, update_goldens)


def test_a_selection_matching_nothing_is_an_input_error(tmp_path: Path) -> None:
    _out, err, status = invoke_cli(["template", "matrix", "web.yaml", "--preferences", "no=such"], DATA)
    assert status == 3 and err == "web.yaml:2:1: error: no preferences to try: the selection matches none\n"
