"""``kubectl instancetype convert --write`` on whole files: testdata/convert/<case>/input.* is rewritten and must
equal expected.* (``--update-goldens`` rewrites those); the result converts to itself and renders without the
removed versions being accepted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TESTDATA

from kubectl_instancetype.cli import main_group
from kubectl_instancetype.gitops.convert import converted_text

CASES = sorted(p for p in (TESTDATA / "convert").iterdir() if p.is_dir())


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main_group, list(args), prog_name="kubectl instancetype")
    return result.exit_code, result.stdout, result.stderr


def _input(case: Path) -> Path:
    return next(case.glob("input.*"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_write(case: Path, tmp_path: Path, update_goldens: bool) -> None:
    source = _input(case)
    expected = case / f"expected{source.suffix}"
    target = tmp_path / source.name
    shutil.copyfile(source, target)
    verdict = run("convert", "--check", str(target))  # --check's shortcut: whether any document converts
    status, out, err = run("convert", "--write", str(target))
    if update_goldens:
        expected.write_bytes(target.read_bytes())
    assert target.read_bytes() == expected.read_bytes()
    assert (status, out) == (0, "")
    changes = source.read_bytes() != expected.read_bytes()
    assert err == (f"wrote {target}\n" if changes else "")
    assert verdict == ((1, f"{target}\n", "1 file would be rewritten\n") if changes else (0, "", ""))
    assert run("convert", "--check", str(target)) == (0, "", ""), "a converted file converts to itself"
    status, _, err = run("render", "-f", str(target), "--no-builtin-catalog")
    assert status == 0 and "error:" not in err and "v1alpha" not in err  # KubeVirt's own warnings may remain


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_print_is_what_write_writes(case: Path) -> None:
    source = _input(case)
    status, out, err = run("convert", str(source))
    assert (status, err) == (0, "")
    assert out == (case / f"expected{source.suffix}").read_text(encoding="utf-8")


def test_unchanged_documents_are_kept_byte_for_byte() -> None:
    text = (TESTDATA / "convert" / "comments" / "input.yaml").read_text(encoding="utf-8")
    after = converted_text(text, "x.yaml")
    kept = text[text.index("# Untouched"):]
    assert after.endswith(kept)


def test_a_file_that_cannot_be_read_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n", encoding="utf-8")
    status, out, err = run("convert", "--write", str(broken), str(tmp_path / "missing.yaml"))
    assert (status, out) == (3, "")
    assert err.startswith(f"{broken}:2:1: error: ") and f"{tmp_path / 'missing.yaml'}:1:1: error: no such file" in err
    assert broken.read_text(encoding="utf-8") == "a: [\n"


def test_write_refuses_stdin() -> None:
    status, _, err = run("convert", "--write", "-f", "-")
    assert status == 2 and "cannot write the expansion of <stdin>" in err
