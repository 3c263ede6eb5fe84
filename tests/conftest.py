"""Shared fixtures: where the repository, its test data and the shared corpus live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs bounded property tests; HYPOTHESIS_PROFILE=fuzz digs deeper when there is time.
settings.register_profile("ci", max_examples=60)
settings.register_profile("fuzz", max_examples=3000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
SHARED = ROOT.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens", action="store_true", default=False, help="rewrite golden files under testdata/"
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))
