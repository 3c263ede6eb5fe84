"""The Python distributions: ``python -m build`` gives a wheel and an sdist that ``twine check`` accepts,
with the metadata a PyPI page shows (project URLs, classifiers, the README as description)."""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]  # one worker builds the distributions
SOURCES = ("kubectl_instancetype", "setup.cfg", "pyproject.toml", "README.md", "LICENSE")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The distributions, built from a copy of the sources (building writes into the source tree)."""
    pytest.importorskip("build")
    tree, out = tmp_path_factory.mktemp("tree"), tmp_path_factory.mktemp("dist")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, tree / name)
    # --no-isolation: the test extra installs setuptools' build requirements, so no index is needed
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def test_twine_accepts_both(dist: Path) -> None:
    pytest.importorskip("twine")
    files = sorted(str(p) for p in dist.iterdir())
    assert [Path(f).suffix for f in files] == [".gz", ".whl"]
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_wheel_metadata_is_what_a_pypi_page_needs(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(name))
        names = set(archive.namelist())
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL") or [])
    assert {"Source", "Issues", "Documentation"} <= set(urls)
    classifiers = metadata.get_all("Classifier") or []
    assert "License :: OSI Approved :: Apache Software License" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers and "Typing :: Typed" in classifiers
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert "kubectl instancetype render" in metadata.get_payload()
    assert {"kubectl_instancetype/py.typed", "kubectl_instancetype/templates/diff.md.j2"} <= names
    requires = metadata.get_all("Requires-Dist") or []
    assert any(r.startswith("jsonpatch") for r in requires)  # -o patch checks each patch with it
