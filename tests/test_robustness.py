"""Hostile and broken input never crashes the tool: every run exits 0, 1 or 3 with one-line messages.

Property tests mutate real VMs (from the conformance corpus) and feed random bytes; bounded so that the
module runs in seconds (``HYPOTHESIS_PROFILE=fuzz`` runs thousands of examples instead). Alias bombs
and oversized input are refused within a time bound.
"""

from __future__ import annotations

import json
import os
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
LINE = re.compile(r"^(warning: .*|.+:\d+:\d+: (error|warning|note): .+)$")
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
    # An expanded VM that keeps the input's spec.running gets KubeVirt's deprecation warning again (warnings.txt)
    warnings = CASES / case / "warnings.txt"
    kubevirt_warns = warnings.read_text().splitlines() if warnings.exists() else []
    lines = stderr.splitlines()
    assert status == 0 and len(lines) == len(kubevirt_warns), stderr
    pairs = zip(lines, kubevirt_warns, strict=True)
    assert all(": warning: " in line and line.endswith(w) for line, w in pairs), stderr
    assert json.loads(stdout) == once


# Every command and output mode over hostile inputs (issue #16): no traceback, a documented status, one-line
# messages; --write idempotent, documents it does not expand byte for byte, a refused file untouched;
# nothing written outside the tree a command may write. The corpus under tests/fuzz-corpus/ holds the
# minimised inputs that once broke one of these; the property test mutates them and the conformance inputs.

FUZZ_CORPUS = sorted(p for p in (Path(__file__).parent / "fuzz-corpus").iterdir() if p.suffix in (".yaml", ".json"))
STATUSES = {0, 1, 3}
READ_MODES: list[list[str]] = [[], ["-o", "json"], ["-o", "patch"], ["--vmi"], ["--check"], ["--diff"]]


def _invoke(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, args, input=stdin, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _clean(status: int, stderr: str, what: str) -> None:
    assert status in STATUSES, f"{what}: status {status}: {stderr}"
    for line in stderr.splitlines():
        assert LINE.match(line) or line.startswith("wrote ") or line.endswith(("would be rewritten",
               "would be written")), f"{what}: not a one-line message: {line!r}"
    if status:
        assert stderr.strip() or what.startswith("diff"), f"{what}: a failing run must say why"


def _snapshot(root: Path, skip: tuple[Path, ...]) -> dict[str, bytes]:
    """Every file and link under ``root`` (outside ``skip``) and what it holds."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        if any(path == s or s in path.parents for s in skip):
            continue
        if path.is_symlink():
            out[str(path)] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            out[str(path)] = path.read_bytes()
        else:
            out[str(path)] = b"<dir>"
    return out


def _untouched_pieces(text: str) -> tuple[dict[int, str], list[str]] | None:
    """The text of each document --write must not change (not a VM, not a List), and the gaps between them."""
    from kubectl_instancetype.api.lists import is_list
    from kubectl_instancetype.yamlio.split import split

    try:
        layout = split(text, "t")
    except Exception:  # text that does not load has nothing to compare
        return None
    bodies = {b.index: text[b.start:b.end] for b in layout.bodies
              if not (isinstance(b.data, dict) and (b.data.get("kind") == "VirtualMachine" or is_list(b.data)))}
    return bodies, [piece for body, piece in layout.pieces() if body is None]


def every_mode(tmp: Path, name: str, content: bytes, links: bool = False) -> None:
    """Run ``content`` (a file called ``name``) through every command and mode, checking the invariants.

    With ``links``, the trees hold what a pull request could plant: an in-tree alias, a directory link
    loop, and links in the output directory to a file and a directory outside it.
    """
    src = tmp / "repo" / "src"
    src.mkdir(parents=True)
    target = src / name
    target.write_bytes(content)
    (src / "other.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\ndata: {k: v}\n")
    (tmp / "victim.txt").write_text("precious\n")
    if links:
        (tmp / "elsewhere").mkdir()
        (src / "alias.yaml").symlink_to(name)
        (src / "loop").symlink_to(".", target_is_directory=True)
        (tmp / "repo" / "rendered").mkdir()
        (tmp / "repo" / "rendered" / name).symlink_to("../../victim.txt")
        (tmp / "repo" / "rendered" / "other.yaml").symlink_to("../../elsewhere/other.yaml")
    everything = _snapshot(tmp, ())
    for mode in READ_MODES:
        status, _, stderr = _invoke(["render", "-R", "-f", str(src), *mode])
        _clean(status, stderr, f"render {mode}")
        assert _snapshot(tmp, ()) == everything, f"render {mode} wrote a file"
    for other in (["revision", "-R", "-f", str(src), "-o", "json"], ["catalog", "list", "--catalog", str(src)],
                  ["config", "-R", "-f", str(src), "-o", "json"], ["config", "--kubevirt-config", str(target)]):
        status, _, stderr = _invoke(other)
        _clean(status, stderr, " ".join(other[:2]))
    for stdin_mode in (["render", "-f", "-"], ["krm"]):
        status, _, stderr = _invoke(stdin_mode, content)
        _clean(status, stderr, str(stdin_mode))
    out = tmp / "repo" / "rendered"
    outside = _snapshot(tmp, (out,))
    status, _, stderr = _invoke(["render", "-R", "-f", str(src), "--output-dir", str(out)])
    _clean(status, stderr, "--output-dir")
    if links:
        assert status == 3 and "symbolic link" in stderr
    assert _snapshot(tmp, (out,)) == outside, "--output-dir wrote outside its directory"
    _check_write(tmp, src, target, content, _snapshot(tmp, ()))


def _check_write(tmp: Path, src: Path, target: Path, content: bytes, everything: dict[str, bytes]) -> None:
    status, _, stderr = _invoke(["render", "-R", "-f", str(src), "--write"])
    _clean(status, stderr, "--write")
    after = target.read_bytes()
    rest = {k: v for k, v in everything.items() if k != str(target)}
    assert {k: v for k, v in _snapshot(tmp, ()).items() if k != str(target)} == rest, "--write touched another file"
    if after == content:
        return
    assert f"wrote {target}" in stderr
    try:
        before_text, after_text = content.decode("utf-8"), after.decode("utf-8")
    except UnicodeDecodeError:
        raise AssertionError("--write changed a file that is not UTF-8") from None
    before, now = _untouched_pieces(before_text), _untouched_pieces(after_text)
    if before is not None and not before_text.lstrip("\ufeff").lstrip().startswith(("{", "[")):
        assert now is not None, "--write produced a file that does not load"
        assert now[1] == before[1], "--write changed the text between documents"
        for index, piece in before[0].items():
            assert now[0].get(index) == piece, f"--write changed document {index}, which it does not expand"
    status, _, stderr = _invoke(["render", "-R", "-f", str(src), "--write"])
    _clean(status, stderr, "second --write")
    assert target.read_bytes() == after, "--write is not idempotent"


@pytest.mark.parametrize("case", FUZZ_CORPUS, ids=[p.name for p in FUZZ_CORPUS])
def test_corpus_in_every_mode(tmp_path: Path, case: Path) -> None:
    every_mode(tmp_path, case.name, case.read_bytes())


def test_planted_links_in_every_mode(tmp_path: Path) -> None:
    every_mode(tmp_path, "vm.yaml", (Path(__file__).parent / "fuzz-corpus" / "06-merge-key.yaml").read_bytes(),
               links=True)


FRAGMENTS = [
    "--- #\n", "---\n", "...\n", "# comment\n", "\t", " # trailing\n", "<<: {a: b}\n", "a: &x {b: c}\n", "b: *x\n",
    "x: .nan\n", "x: .inf\n", "x: 1e999\n", "x: !!timestamp x\n", "apiVersion: v1\nkind: List\nitems: []\n",
    "kind: AllowList\nitems: [1]\n", "{a: 1, # c\n b: 2}\n", "\ufeff", "\r\n", "'", '"', "[", "{", "- ", ": ",
    "k: |\n  #x\n", "yes", "0x1F", "~", "\u2028", "\x85",
]


def _mutate_text(text: str, edits: list[tuple[float, int, int]]) -> str:
    for where, fragment, kind in edits:
        lines = text.splitlines(keepends=True) or [""]
        i = int(where * (len(lines) - 1))
        piece = FRAGMENTS[fragment % len(FRAGMENTS)]
        if kind == 0:
            lines.insert(i, piece)
        elif kind == 1:
            lines[i] = lines[i].rstrip("\r\n") + piece + ("\n" if lines[i].endswith("\n") else "")
        else:
            del lines[i]
        text = "".join(lines)
    return text


FUZZ_SEEDS = FUZZ_CORPUS + SEEDS
EDITS = st.lists(st.tuples(st.floats(0, 1), st.integers(0, len(FRAGMENTS) - 1), st.integers(0, 2)), max_size=3)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=max(10, settings.default.max_examples // 2))
@given(seed=st.sampled_from(FUZZ_SEEDS), edits=EDITS,
       picks=st.lists(st.tuples(st.floats(0, 1), NASTY_VALUES), max_size=2), crlf=st.booleans(),
       links=st.booleans())
def test_mutated_inputs_in_every_mode(tmp_path_factory: pytest.TempPathFactory, seed: Path,
                                      edits: list[tuple[float, int, int]], picks: list[tuple[float, Any]],
                                      crlf: bool, links: bool) -> None:
    text = seed.read_bytes().decode("utf-8")
    if picks:
        try:
            docs = [d.data for d in load_stream(text, "seed")]
        except Exception:  # a seed that does not load is mutated as text only
            docs = []
        paths = [p for p in _paths(docs) if p]
        for where, value in picks if paths else []:
            _replace(docs, paths[int(where * (len(paths) - 1))], value)
            paths = [p for p in _paths(docs) if p]
        if docs and paths:
            text = dump_yaml_all(docs)
    text = _mutate_text(text, edits)
    if crlf:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    every_mode(tmp_path_factory.mktemp("fuzz"), seed.name, text.encode("utf-8", "surrogatepass"), links)


GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=max(5, settings.default.max_examples // 6))
@given(seed=st.sampled_from(FUZZ_SEEDS), edits=EDITS)
def test_diff_of_mutated_inputs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                                seed: Path, edits: list[tuple[float, int, int]]) -> None:
    import subprocess

    tmp = tmp_path_factory.mktemp("diff")
    repo = tmp / "repo"
    (repo / "src").mkdir(parents=True)
    content = seed.read_bytes()
    (repo / "src" / seed.name).write_bytes(content)
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)
    mutated = _mutate_text(content.decode("utf-8"), edits).encode("utf-8", "surrogatepass")
    (repo / "src" / seed.name).write_bytes(mutated)
    everything = _snapshot(tmp, (repo / ".git",))
    with monkeypatch.context() as patch:
        patch.chdir(repo)
        for fmt in ("text", "json", "markdown"):
            status, _, stderr = _invoke(["diff", "--base", "main", "--format", fmt, "src"])
            _clean(status, stderr, f"diff {fmt}")
    assert _snapshot(tmp, (repo / ".git",)) == everything, "diff wrote a file"
