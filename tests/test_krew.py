"""The krew manifest obeys krew's rules, and the archive release/build.py makes installs and runs.

krew itself cannot be installed here, so its manifest validation (internal/index/validation) is restated
as data-driven checks; the archive is then run the ways krew and kubectl run it: the launcher through a
symlink (krew's bin/), with a python3 that has none of our dependencies, and as a kubectl plugin.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ROOT

from kubectl_instancetype import __version__
from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio import load_stream

VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
MANIFEST = ROOT / "krew-manifest.yaml"
EXAMPLE = ROOT / "examples" / "vm.yaml"
SEMVER = re.compile(r"^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
WINDOWS_FORBIDDEN = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
SUPPORTED = [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64")]


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_build", ROOT / "release" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def krew_problems(plugin: Any, name: str) -> list[str]:
    """What krew's ValidatePlugin would refuse (and what its installer would not know how to pick)."""
    spec = plugin.get("spec") or {}
    problems = [
        msg for bad, msg in [
            (plugin.get("apiVersion") != "krew.googlecontainertools.github.com/v1alpha2", "apiVersion"),
            (plugin.get("kind") != "Plugin", "kind"),
            (not re.fullmatch(r"[\w-]+", name) or name.upper() in WINDOWS_FORBIDDEN, "unsafe plugin name"),
            ((plugin.get("metadata") or {}).get("name") != name, "metadata.name"),
            (not spec.get("shortDescription") or "\n" in spec["shortDescription"], "shortDescription"),
            (not SEMVER.match(str(spec.get("version", ""))), "version is not v-prefixed semver"),
            (not spec.get("platforms"), "no platforms"),
        ] if bad
    ]
    for i, platform in enumerate(spec.get("platforms") or []):
        problems += [f"platforms[{i}]: {p}" for p in platform_problems(platform)]
    for os_, arch in SUPPORTED:
        matching = [p for p in spec.get("platforms") or [] if selects(p.get("selector") or {}, os_, arch)]
        if len(matching) != 1:
            problems.append(f"{os_}/{arch} is matched by {len(matching)} platforms")
    return problems


def platform_problems(platform: Any) -> list[str]:
    selector = platform.get("selector") or {}
    labels, exprs = selector.get("matchLabels"), selector.get("matchExpressions")
    keys = set(labels or {}) | {e.get("key") for e in exprs or []}
    files = platform.get("files")
    return [msg for bad, msg in [
        (not str(platform.get("uri", "")).startswith("https://"), "uri must be an https URL"),
        (not re.fullmatch(r"[a-f0-9]{64}", str(platform.get("sha256", ""))), "sha256 is not 64 lowercase hex"),
        (not platform.get("bin"), "bin"),
        (files is not None and (not files or any(not f.get("from") or not f.get("to") for f in files)), "files"),
        (not labels and not exprs, "empty selector"),
        (not keys <= {"os", "arch"}, "selector keys other than os and arch"),
    ] if bad]


def selects(selector: dict[str, Any], os_: str, arch: str) -> bool:
    labels = {"os": os_, "arch": arch}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for expr in selector.get("matchExpressions") or []:
        inside = labels.get(expr["key"]) in (expr.get("values") or [])
        if (expr["operator"] == "In") != inside:
            return False
    return True


def manifest() -> Any:
    (doc,) = load_stream(MANIFEST.read_text(), str(MANIFEST))
    return doc.data


def test_manifest_obeys_krews_rules() -> None:
    assert krew_problems(manifest(), "instancetype") == []


def test_manifest_version_is_the_package_version() -> None:
    assert manifest()["spec"]["version"] == f"v{__version__}"


def test_manifest_says_what_it_needs_and_ships_the_license() -> None:
    spec = manifest()["spec"]
    assert "python3 (3.11 or newer) on PATH" in spec["caveats"]
    for platform in spec["platforms"]:
        assert {f["from"] for f in platform["files"]} >= {"LICENSE", platform["bin"], "kubectl_instancetype.pyz"}


BROKEN: list[tuple[str, Any]] = [
    ("version is not v-prefixed semver", {"spec": {"version": "0.1.0"}}),
    ("version is not v-prefixed semver", {"spec": {"version": "v1.2"}}),
    ("sha256 is not 64 lowercase hex", {"platform": {"sha256": "ABC"}}),
    ("uri must be an https URL", {"platform": {"uri": ""}}),
    ("selector keys other than os and arch", {"platform": {"selector": {"matchLabels": {"distro": "x"}}}}),
    ("linux/amd64 is matched by 2 platforms", {"duplicate": True}),
    ("linux/amd64 is matched by 0 platforms", {"drop": True}),
    ("unsafe plugin name", {"name": "COM1"}),
    ("shortDescription", {"spec": {"shortDescription": "two\nlines"}}),
    ("files", {"platform": {"files": [{"from": "x"}]}}),
]


@pytest.mark.parametrize(("problem", "change"), BROKEN, ids=[b[0] for b in BROKEN])
def test_the_rules_catch(problem: str, change: dict[str, Any]) -> None:
    plugin = manifest()
    name = change.get("name", "instancetype")
    plugin["metadata"]["name"] = name
    plugin["spec"].update(change.get("spec", {}))
    plugin["spec"]["platforms"][0].update(change.get("platform", {}))
    if change.get("duplicate"):
        plugin["spec"]["platforms"].append(plugin["spec"]["platforms"][0])
    if change.get("drop"):
        del plugin["spec"]["platforms"][0]
    assert any(problem in p for p in krew_problems(plugin, name)), krew_problems(plugin, name)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(archive, the manifest written for it, the archive unpacked)."""
    out = tmp_path_factory.mktemp("dist")
    build = load_build()
    assert build.main(["--out", str(out), "--manifest", str(out / "krew-manifest.yaml")]) == 0
    (archive,) = out.glob("*.tar.gz")
    unpacked = out / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    return archive, out / "krew-manifest.yaml", unpacked


@pytest.mark.slow
def test_release_manifest_names_the_archive(release: tuple[Path, Path, Path]) -> None:
    archive, written, unpacked = release
    (doc,) = load_stream(written.read_text(), "written")
    assert krew_problems(doc.data, "instancetype") == []
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    assert {p["sha256"] for p in doc.data["spec"]["platforms"]} == {digest}
    assert {p["uri"].rsplit("/", 1)[1] for p in doc.data["spec"]["platforms"]} == {archive.name}
    for platform in doc.data["spec"]["platforms"]:
        assert all((unpacked / f["from"]).is_file() for f in platform["files"])
        assert os.access(unpacked / platform["bin"], os.X_OK)
    masked = re.sub(r"sha256: [0-9a-f]{64}", "sha256: …", MANIFEST.read_text())
    assert re.sub(r"sha256: [0-9a-f]{64}", "sha256: …", written.read_text()) == masked  # committed = generated


@pytest.mark.slow
def test_archive_is_reproducible(release: tuple[Path, Path, Path], tmp_path: Path) -> None:
    archive, _, _ = release
    again = load_build().build_archive(tmp_path)
    assert again.read_bytes() == archive.read_bytes()


@pytest.mark.slow
def test_zipapp_vendors_pure_python_and_precompiles(release: tuple[Path, Path, Path]) -> None:
    names = zipfile.ZipFile(release[2] / "kubectl_instancetype.pyz").namelist()
    assert {"__main__.py", "click/__init__.pyc", "ruamel/yaml/__init__.pyc", "jinja2/__init__.py",
            "jsonpatch.pyc", "kubectl_instancetype/cli/render.pyc", "ruamel/"} <= set(names)
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert all(n[:-3] + ".pyc" in names for n in names if n.endswith(".py"))


def expected_render() -> str:
    result = CliRunner().invoke(main_group, ["render", "-f", str(EXAMPLE)])
    assert result.exit_code == 0
    return result.stdout


@pytest.mark.slow
def test_zipapp_renders_without_site_packages(release: tuple[Path, Path, Path]) -> None:
    """`python3 -S -E`: no site-packages, so no ruamel.yaml.clib: ruamel's pure-Python parser reads the YAML."""
    pyz = release[2] / "kubectl_instancetype.pyz"
    done = subprocess.run([sys.executable, "-S", "-E", str(pyz), "render", "-f", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == expected_render()
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import kubectl_instancetype.yamlio.load as m; "
             "import click; print(m._CParser, click.__file__.startswith(sys.argv[1]))")
    done = subprocess.run([sys.executable, "-S", "-E", "-c", probe, str(pyz)], capture_output=True, text=True)
    assert done.stdout == "None True\n", done.stderr


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ of a fresh virtualenv without pip or any of our dependencies."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    bin_dir = venv / "bin"
    assert subprocess.run([str(bin_dir / "python3"), "-c", "import click"], capture_output=True).returncode != 0
    return bin_dir


@pytest.mark.slow
def test_krew_layout_runs_through_its_symlink(release: tuple[Path, Path, Path], bare_python: Path,
                                              tmp_path: Path) -> None:
    """krew unpacks into its store and links bin/kubectl-instancetype there: the launcher finds the zipapp."""
    bin_dir = tmp_path / "krew-bin"
    bin_dir.mkdir()
    (bin_dir / "kubectl-instancetype").symlink_to(release[2] / "kubectl-instancetype")
    env = {**os.environ, "PATH": os.pathsep.join([str(bin_dir), str(bare_python), "/usr/bin", "/bin"])}
    done = subprocess.run(["kubectl-instancetype", "render", "-f", str(EXAMPLE)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected_render())


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_lists_and_runs_the_plugin(release: tuple[Path, Path, Path], bare_python: Path) -> None:
    unpacked = release[2]
    env = {**os.environ, "PATH": os.pathsep.join([str(unpacked), str(bare_python), "/usr/bin", "/bin"])}
    listed = subprocess.run(["kubectl", "plugin", "list"], env=env, capture_output=True, text=True, timeout=60)
    assert f"{unpacked}/kubectl-instancetype\n" in listed.stdout
    assert "pyz" not in listed.stdout and "kubectl_complete" not in listed.stdout
    done = subprocess.run(["kubectl", "instancetype", "render", "-f", str(EXAMPLE)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, expected_render()), done.stderr
    completed = subprocess.run(["kubectl", "__complete", "instancetype", "render", "--vm"], env=env,
                               capture_output=True, text=True, timeout=60)
    assert completed.stdout.startswith("--vmi\t") and completed.stdout.endswith(":4\n"), completed.stderr


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_installed_executable_is_a_kubectl_plugin() -> None:
    """The pip-installed console script on PATH: kubectl lists it and runs render through it."""
    exe = shutil.which("kubectl-instancetype", path=str(VENV_BIN)) or shutil.which(
        "kubectl-instancetype")
    if exe is None:
        pytest.skip("kubectl-instancetype is not installed")
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(exe).parent), os.environ.get("PATH", "")])}
    listed = subprocess.run(["kubectl", "plugin", "list"], env=env, capture_output=True, text=True, timeout=60)
    assert f"{exe}\n" in listed.stdout
    done = subprocess.run(["kubectl", "instancetype", "render", "-f", str(EXAMPLE)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, expected_render()), done.stderr
