"""The API server's answers on the rules differential testing against kube-validate found us wrong on.

testdata/validation-answers holds cases in the corpus format (``expected.json`` from kube-validate); each runs
as the corpus does (:func:`test_validation_corpus.reasons`) and, stricter than the corpus, every error's full
text (``field.Error.Error()``, or the decoder's message) must be printed exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT
from test_validation_corpus import RUNNER, reasons, run

CASES = ROOT / "testdata" / "validation-answers" / "cases"
ALL_CASES = sorted(p.name for p in CASES.iterdir())
NOTE = "some validation rules were not checked"  # the server's field-less note; not required (see the corpus)


def missing_texts(case: Path, mode: str) -> list[str]:
    """The exact error texts of refused objects that stderr does not carry."""
    objects = json.loads((case / "expected.json").read_text())[mode]
    _status, stderr = run(case, mode)
    texts = [e["text"] for o in objects if o["verdict"] == "refused" for e in o["errors"] if NOTE not in e["text"]]
    return [text for text in texts if text not in stderr]


@pytest.mark.skipif(RUNNER is None, reason="validation corpus runner not present")
@pytest.mark.parametrize("mode", ["strict", "warn", "ignore"])
@pytest.mark.parametrize("case_name", ALL_CASES)
def test_validation_answer(case_name: str, mode: str) -> None:
    assert reasons(CASES / case_name, mode) == []
    assert missing_texts(CASES / case_name, mode) == []
