"""The pull-request comment of ``diff --format markdown``: a marker, a complete table, a cap, natural order."""

from __future__ import annotations

import re

import pytest

from kubectl_instancetype.gitops.report import COMMENT_LIMIT, MARKER, markdown
from kubectl_instancetype.gitops.vmdiff import VMChange, VMState, compare, natural


def state(name: str, memory: str, error: str = "") -> VMState:
    text = "".join(f"      line {i} of {name}: {'x' * 40}\n" for i in range(60)) + f"memory: {memory}\n"
    return VMState(f"vms/{name}.yaml", "u1.small", "fedora", 2, memory, "" if error else text, error, name)


def changes(count: int) -> list[VMChange]:
    before = {("default", f"web-{i}"): state(f"web-{i}", "4Gi") for i in range(1, count + 1)}
    after = {("default", f"web-{i}"): state(f"web-{i}", "8Gi") for i in range(1, count + 1)}
    return compare(before, after, "main")


def table_rows(text: str) -> list[str]:
    return re.findall(r"^\| `default/(web-\d+)` \|", text, flags=re.MULTILINE)


def test_400_vms_stay_within_the_cap_with_the_whole_table() -> None:
    text = markdown(changes(400), "main")
    assert len(text) <= COMMENT_LIMIT
    assert text.startswith(MARKER + "\n")
    assert table_rows(text) == [f"web-{i}" for i in range(1, 401)]
    shown = text.count("<details>")
    assert 0 < shown < 400
    assert f"{400 - shown} of 400 diffs left out to keep this comment within 65,536 characters; " in text
    assert "`kubectl instancetype diff --base main` on this branch shows them all." in text


@pytest.mark.parametrize("cap", [35_000, 50_000, 65_536])
def test_the_cap_is_an_option(cap: int) -> None:
    text = markdown(changes(400), "main", cap)
    assert len(text) <= cap and len(table_rows(text)) == 400


def test_a_small_change_set_is_whole_and_has_no_note() -> None:
    text = markdown(changes(3), "main")
    assert text.count("<details>") == 3 and "left out" not in text


def test_a_table_that_cannot_fit_is_cut_with_a_note() -> None:
    text = markdown(changes(400), "main", 5_000)
    assert len(text) <= 5_000 and "<details>" not in text
    rows = len(table_rows(text))
    assert 0 < rows < 400 and f"The table lists {rows} of the 400 changed VirtualMachines" in text


def test_natural_order_of_names() -> None:
    assert [c.name for c in changes(12)] == [f"web-{i}" for i in range(1, 13)]
    assert sorted(["db10", "db9", "a", "db09x"], key=natural) == ["a", "db9", "db09x", "db10"]
