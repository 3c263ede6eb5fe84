"""Hostile and broken input never crashes the tool: every run exits 0, 1 or 3 with one-line messages.

Property tests mutate real VMs (from the conformance corpus) and feed random bytes; bounded so that the
module runs in seconds (``HYPOTHESIS_PROFILE=fuzz`` runs thousands of examples instead). Alias bombs
and oversized input are refused within a time bound.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CONFORMANCE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.errors import InternalLimitError
from kubectl_instancetype.yamlio import Limits, dump_yaml_all, load_stream

CASES = CONFORMANCE / "cases"
LINE = re.compile(r"^(warning: .*|.+:\d+:\d+: (error|note): .+)$")
SEEDS = sorted(CASES.glob("real-catalog-00[0-2]*/input.yaml")) if CASES.exists() else []


def run(tmp_path: Path, text: str | bytes, *extra: str) -> tuple[int, str, str]:
    path = tmp_path / "input.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    result = CliRunner().invoke(main_group, ["render", "-f", str(path), *extra], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_clean(status: int, stderr: str) -> None:
    assert status in (0, 1, 3), status
    for line in stderr.splitlines():
        assert LINE.match(line), f"not a one-line message: {line!r}"
    assert "Traceback" not in stderr
    if status:
        assert stderr.strip(), "a failing run must say why"


NASTY_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["two", "1e999", "-1", "0", "1.5Gi", "İ", "\u202e", "yes", "", "99999999999999999999Gi"]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _replace(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node[path[0]] = _replace(node[path[0]], path[1:], value)
    return node


@pytest.mark.skipif(not SEEDS, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.sampled_from(SEEDS or [Path("x")]), picks=st.lists(st.tuples(st.floats(0, 1), NASTY_VALUES),
       min_size=1, max_size=4))
def test_mutated_manifests_never_crash(tmp_path: Path, seed: Path, picks: list[tuple[float, Any]]) -> None:
    docs = [d.data for d in load_stream(seed.read_text(), str(seed))]
    for where, value in picks:
        paths = [p for p in _paths(docs) if p]
        target = paths[int(where * (len(paths) - 1))]
        _replace(docs, target, value)
    status, _, stderr = run(tmp_path, dump_yaml_all(docs))
    assert_clean(status, stderr)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.binary(max_size=300))
def test_binary_junk(tmp_path: Path, junk: bytes) -> None:
    status, _, stderr = run(tmp_path, junk)
    assert_clean(status, stderr)


@pytest.mark.skipif(not SEEDS, reason="testdata/conformance is missing: run scripts/refresh-corpus")
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.sampled_from(SEEDS or [Path("x")]), cut=st.floats(0, 1))
def test_truncated_files(tmp_path: Path, seed: Path, cut: float) -> None:
    text = seed.read_text()
    status, _, stderr = run(tmp_path, text[: int(len(text) * cut)])
    assert_clean(status, stderr)


@pytest.mark.parametrize("text", [
    "[" * 5000, "a:\n" + "  " * 3000 + "b: 1\n", "\x00\x01", "--- !!python/object/apply:os.system ['true']\n",
    "kind: VirtualMachine\nmetadata: {name: x}\nspec: {template: {spec: {domain: " + "{a: " * 800 + "1" + "}" * 800
    + "}}}\n", "\ufeffkind: List\nitems: 5\n", "---\n...\n---\n", "kind: [1]\n",
])
def test_pathological_documents(tmp_path: Path, text: str) -> None:
    status, _, stderr = run(tmp_path, text)
    assert_clean(status, stderr)


def billion_laughs(levels: int) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        refs = ", ".join(f"*a{i - 1}" for _ in range(10))
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    start = time.perf_counter()
    status, _, stderr = run(tmp_path, billion_laughs(12))
    assert time.perf_counter() - start < 10
    assert status == 3
    assert "nodes once aliases are expanded (--max-nodes)" in stderr


def test_limits_are_configurable() -> None:
    with pytest.raises(InternalLimitError, match="more than 50 nodes"):
        load_stream(billion_laughs(3), "bomb.yaml", Limits(max_nodes=50))
    assert load_stream(billion_laughs(3), "bomb.yaml", Limits(max_nodes=5000))
    with pytest.raises(InternalLimitError, match="larger than the limit of 10 bytes"):
        load_stream("a: 1234567890\n", "big.yaml", Limits(max_bytes=10))


def test_oversized_input_is_refused(tmp_path: Path) -> None:
    status, _, stderr = run(tmp_path, "a: " + "x" * 5000 + "\n", "--max-input-bytes", "1000")
    assert status == 3
    assert "input is larger than the limit of 1000 bytes" in stderr


@pytest.mark.skipif(not CASES.exists(), reason="testdata/conformance is missing: run scripts/refresh-corpus")
@pytest.mark.parametrize("case", ["real-catalog-0000", "infer-0006", "matchers-0025", "no-matcher-0005"])
def test_rendering_an_expanded_vm_changes_nothing(tmp_path: Path, case: str) -> None:
    expected = CASES / case / "expected.json"
    if not expected.exists():
        pytest.skip("an error case")
    once = json.loads(expected.read_text())
    status, stdout, stderr = run(tmp_path, json.dumps(once), "-o", "json", "--no-builtin-catalog")
    assert (status, stderr) == (0, "")
    assert json.loads(stdout) == once
