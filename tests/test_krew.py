"""The krew manifest obeys krew's rules, and the archive release/build.py makes installs and runs.

krew itself cannot be installed here, so its manifest validation (internal/index/validation) is restated
as data-driven checks; the archive is then run the ways krew and kubectl run it: the launcher through a
symlink (krew's bin/), with a python3 that has none of our dependencies, and as a kubectl plugin.
"""

from __future__ import annotations

import hashlib
import os
import platform as host
import random
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ROOT, load_script

from kubectl_instancetype import __version__
from kubectl_instancetype.cli import main_group
from kubectl_instancetype.yamlio import load_stream

VENV_BIN = Path(sys.executable).parent  # the test interpreter's bin/: its kubectl-instancetype
MANIFEST = ROOT / "krew-manifest.yaml"
EXAMPLE = ROOT / "examples" / "vm.yaml"
SEMVER = re.compile(r"^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
WINDOWS_FORBIDDEN = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
pytestmark = pytest.mark.xdist_group("krew")  # one worker builds the release
SUPPORTED = [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64")]


def load_build() -> ModuleType:
    return load_script(ROOT / "release" / "build.py", "release_build")


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


def test_caveats_fit_in_80_columns() -> None:
    """krew-index reviewers ask for caveat lines of 80 characters at most."""
    assert [line for line in manifest()["spec"]["caveats"].splitlines() if len(line) > 80] == []


def test_one_archive_per_platform_with_its_c_parser() -> None:
    """Each platform entry names its own archive and installs the C parser of each supported Python."""
    build = load_build()
    platforms = manifest()["spec"]["platforms"]
    assert len({p["uri"] for p in platforms}) == len({p["sha256"] for p in platforms}) == len(SUPPORTED)
    for platform in platforms:
        labels = platform["selector"]["matchLabels"]
        assert platform["uri"].endswith(f"-{labels['os']}-{labels['arch']}.tar.gz")
        for module in ("_ruamel_yaml", "jq"):  # the C parser, and libjq for drift's jqPathExpressions
            found = [f["from"] for f in platform["files"] if f["from"].startswith(f"{module}.")]
            assert [p.split(".")[1].split("-")[1] for p in found] == [v.replace(".", "") for v in build.PARSER_PYTHONS]


def test_launcher_and_build_agree_on_the_pythons() -> None:
    launcher = (ROOT / "plugins" / "kubectl-instancetype").read_text()
    (listed,) = re.findall(r"^ZIPAPP_PYTHONS = (.*)$", launcher, re.MULTILINE)
    assert eval(listed) == tuple(tuple(map(int, v.split("."))) for v in load_build().PYTHONS)


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


HOST = ({"Linux": "linux", "Darwin": "darwin"}.get(host.system(), ""),
        {"x86_64": "amd64", "AMD64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(host.machine(), ""))


@dataclass(frozen=True)
class Release:
    out: Path
    manifest: Path
    archives: dict[tuple[str, str], Path]
    unpacked: Path  # this machine's archive, unpacked
    pythons: dict[str, str]  # version -> interpreter, every one release/build.py compiles for


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """Every platform's archive and the manifest written for them, as `python release/build.py` makes them.

    It needs CPython 3.11, 3.12 and 3.13 here (PATH or ~/.pyenv/versions) and ruamel.yaml.clib's wheels
    for the four platforms, in ~/.cache/kubectl-instancetype/wheels or from PyPI
    (`python release/build.py --fetch-only`): without them the release cannot be built, and this fails.
    """
    out = tmp_path_factory.mktemp("dist")
    build = load_build()
    pythons = build.find_pythons()
    assert sorted(pythons) == sorted(build.PYTHONS), f"release/build.py needs CPython {build.PYTHONS}; found {pythons}"
    assert build.main(["--out", str(out), "--manifest", str(out / "krew-manifest.yaml")]) == 0
    archives = {p: out / build.archive_name(p) for p in build.PLATFORMS}
    unpacked = out / "unpacked"
    with tarfile.open(archives[HOST]) as tar:
        tar.extractall(unpacked, filter="data")
    return Release(out, out / "krew-manifest.yaml", archives, unpacked, pythons)


@pytest.mark.slow
def test_release_manifest_names_the_archives(release: Release) -> None:
    (doc,) = load_stream(release.manifest.read_text(), "written")
    assert krew_problems(doc.data, "instancetype") == []
    for entry in doc.data["spec"]["platforms"]:
        labels = entry["selector"]["matchLabels"]
        archive = release.archives[(labels["os"], labels["arch"])]
        assert entry["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
        assert entry["uri"].rsplit("/", 1)[1] == archive.name
        with tarfile.open(archive) as tar:
            assert sorted(f["from"] for f in entry["files"]) == sorted(tar.getnames())
            assert tar.getmember(entry["bin"]).mode & 0o111
    masked = re.sub(r"sha256: [0-9a-f]{64}", "sha256: …", MANIFEST.read_text())
    assert re.sub(r"sha256: [0-9a-f]{64}", "sha256: …", release.manifest.read_text()) == masked  # committed = made
    assert (release.out / "instancetype.yaml").read_text() == release.manifest.read_text()  # krew-index's name


@pytest.mark.slow
def test_archives_are_reproducible(release: Release, tmp_path: Path) -> None:
    build = load_build()
    pyz = tmp_path / "again.pyz"
    build.build_pyz(pyz, release.pythons)
    assert pyz.read_bytes() == (release.unpacked / "kubectl_instancetype.pyz").read_bytes()
    again, _ = build.build_archive(tmp_path, pyz, ("darwin", "arm64"), build.wheel_cache())
    assert again.read_bytes() == release.archives[("darwin", "arm64")].read_bytes()


@pytest.mark.slow
def test_zipapp_vendors_pure_python_and_precompiles_per_python(release: Release) -> None:
    names = set(zipfile.ZipFile(release.unpacked / "kubectl_instancetype.pyz").namelist())
    for version in load_build().PYTHONS:
        root = "py" + version.replace(".", "")
        assert {f"{root}/{n}" for n in ("click/__init__.pyc", "ruamel/yaml/__init__.pyc", "jinja2/__init__.py",
                                        "jsonpatch.pyc", "kubectl_instancetype/cli/render.pyc", "ruamel/")} <= names
        assert all(n[:-3] + ".pyc" in names for n in names if n.startswith(root) and n.endswith(".py"))
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def expected_render() -> str:
    result = CliRunner().invoke(main_group, ["render", "-f", str(EXAMPLE)])
    assert result.exit_code == 0
    return result.stdout




@pytest.mark.slow
@pytest.mark.skipif(HOST not in [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64")],
                    reason="krew serves no archive for this platform")
@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_archive_runs_with_each_python_and_its_c_parser(release: Release, version: str) -> None:
    """The launcher, run by each supported Python without site-packages: same output, libyaml parsing, and
    bytecode compiled by that very Python."""
    python = release.pythons[version]
    launcher = release.unpacked / "kubectl-instancetype"
    done = subprocess.run([python, "-S", "-E", str(launcher), "render", "-f", str(EXAMPLE)], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected_render())
    probe = (f"import sys; path = {str(launcher)!r}; ns = {{'__name__': 'launcher', '__file__': path}}; "
             "exec(open(path).read(), ns); sys.path[0:0] = ns['package_paths'](); "
             "import kubectl_instancetype.yamlio.load as l, click, zipfile, importlib.util as u; "
             "pyz, root = sys.path[0].rsplit('/', 1); "
             "magic = zipfile.ZipFile(pyz).read(root + '/kubectl_instancetype/render.pyc')[:4]; "
             "print(l._CParser is not None, '.pyz' in click.__file__, magic == u.MAGIC_NUMBER)")
    done = subprocess.run([python, "-S", "-E", "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout == "True True True\n", done.stderr


@pytest.mark.slow
@pytest.mark.skipif(HOST not in [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64")],
                    reason="krew serves no archive for this platform")
@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_archive_runs_argocd_jq_rules_with_libjq_beside_it(release: Release, version: str) -> None:
    """drift --against an Application with jqPathExpressions: the jq extension of that Python, from the archive."""
    repro = ROOT / "testdata" / "repros-t5" / "W6-against-valid-rules-missed"
    launcher = str(release.unpacked / "kubectl-instancetype")
    done = subprocess.run([release.pythons[version], "-S", "-E", launcher, "drift", "-f", "vm.yaml", "--against",
                           "jq-paths.yaml"], cwd=repro, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)\n")


@pytest.mark.slow
def test_zipapp_runs_alone_with_the_c_parser_beside_it(release: Release) -> None:
    """`python3 -S -E kubectl_instancetype.pyz`: no site-packages; the zipapp finds its root and the parser."""
    pyz = release.unpacked / "kubectl_instancetype.pyz"
    done = subprocess.run([sys.executable, "-S", "-E", str(pyz), "render", "-f", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected_render())


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ of a fresh virtualenv without pip or any of our dependencies."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    bin_dir = venv / "bin"
    assert subprocess.run([str(bin_dir / "python3"), "-c", "import click"], capture_output=True).returncode != 0
    return bin_dir


@pytest.mark.slow
def test_krew_layout_runs_through_its_symlink(release: Release, bare_python: Path, tmp_path: Path) -> None:
    """krew unpacks into its store and links bin/kubectl-instancetype there: the launcher finds the zipapp."""
    bin_dir = tmp_path / "krew-bin"
    bin_dir.mkdir()
    (bin_dir / "kubectl-instancetype").symlink_to(release.unpacked / "kubectl-instancetype")
    env = {**os.environ, "PATH": os.pathsep.join([str(bin_dir), str(bare_python), "/usr/bin", "/bin"])}
    done = subprocess.run(["kubectl-instancetype", "render", "-f", str(EXAMPLE)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected_render())


def stub_python3(directory: Path, reports: str) -> None:
    """A `python3` that runs scripts with this interpreter but reports version ``reports`` (an old distro's)."""
    major, minor = map(int, reports.split("."))
    stub = directory / "python3"
    stub.write_text(f"#!/bin/sh\nexec {sys.executable} -S -c 'import runpy, sys; "
                    f"sys.version_info = ({major}, {minor}, 0, \"final\", 0); sys.argv = sys.argv[1:]; "
                    f"runpy.run_path(sys.argv[0], run_name=\"__main__\")' \"$@\"\n")
    stub.chmod(0o755)


@pytest.mark.slow
def test_launcher_prefers_a_newer_python_over_an_old_python3(release: Release, tmp_path: Path) -> None:
    """Ubuntu 22.04: python3 is 3.10, python3.12 is installed beside it; RHEL 9 likewise with 3.9."""
    stub_python3(tmp_path, "3.10")
    (tmp_path / "python3.12").symlink_to(release.pythons["3.12"])
    env = {**os.environ, "PATH": os.pathsep.join([str(tmp_path), "/usr/bin", "/bin"])}
    done = subprocess.run([str(release.unpacked / "kubectl-instancetype"), "render", "-f", str(EXAMPLE)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected_render())


@pytest.mark.slow
def test_launcher_says_how_to_get_a_python_when_none_fits(release: Release, tmp_path: Path) -> None:
    stub_python3(tmp_path, "3.10")
    env = {**os.environ, "PATH": str(tmp_path)}  # nothing else: this machine may have a python3.1x in /usr/bin
    done = subprocess.run([str(release.unpacked / "kubectl-instancetype"), "render", "-f", str(EXAMPLE)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.startswith("error: kubectl-instancetype needs Python 3.11 or newer (python3 is 3.10)")
    assert "install" in done.stderr and done.stderr.count("\n") == 1


def completion_recipe() -> str:
    caveats = manifest()["spec"]["caveats"]
    return textwrap.dedent(caveats.split("survives krew upgrade:\n", 1)[1])


@pytest.mark.slow
def test_completion_recipe_survives_krew_upgrade(release: Release, tmp_path: Path) -> None:
    """The caveat's recipe, run as a user would; then an upgrade moves the store and relinks bin/."""
    krew = tmp_path / "krew"
    (krew / "bin").mkdir(parents=True)
    store = krew / "store" / "instancetype" / "v1"
    shutil.copytree(release.unpacked, store)
    (krew / "bin" / "kubectl-instancetype").symlink_to(store / "kubectl-instancetype")
    env = {**os.environ, "KREW_ROOT": str(krew), "PATH": os.pathsep.join([str(krew / "bin"), os.environ["PATH"]])}
    subprocess.run(["sh", "-c", completion_recipe()], env=env, check=True, timeout=60)

    def complete() -> str:
        return subprocess.run(["kubectl_complete-instancetype", "render", "--vm"], env=env, capture_output=True,
                              text=True, timeout=60).stdout

    assert complete().startswith("--vmi\t")
    upgraded = krew / "store" / "instancetype" / "v2"
    store.rename(upgraded)
    (krew / "bin" / "kubectl-instancetype").unlink()
    (krew / "bin" / "kubectl-instancetype").symlink_to(upgraded / "kubectl-instancetype")
    assert complete().startswith("--vmi\t")


def test_kubectl_lists_and_runs_the_plugin(release: Release, bare_python: Path) -> None:
    unpacked = release.unpacked
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


def mutated_inputs(directory: Path, count: int) -> None:
    """``count`` corpus files with YAML's significant characters inserted at random (seeded) places."""
    seeds = sorted((ROOT / "testdata" / "conformance" / "cases").glob("*/input.yaml"))[:20] or [EXAMPLE]
    alphabet = [*":{}[],#&*!|>'\"%@`-? \n\t\\x1\u2028\x85", "\\ud800", ": ", "- ", "\n  ", "{image: quay.io/x:41}"]
    rnd = random.Random(19)
    for i in range(count):
        text = list(seeds[i % len(seeds)].read_text())
        for _ in range(rnd.randint(1, 3)):
            text.insert(rnd.randrange(len(text) + 1), rnd.choice(alphabet))
        (directory / f"m{i:04}.yaml").write_text("".join(text), encoding="utf-8", errors="surrogatepass")


@pytest.mark.slow
def test_archive_and_pip_install_parse_alike(release: Release, tmp_path: Path) -> None:
    """Issue #16 item 19: the archive (libyaml from ruamel.yaml.clib's wheel) and the pip-installed tool
    answer the same on mutated inputs: same output, same errors, same exit status."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    mutated_inputs(inputs, 300)
    argv = ["render", "-R", "-f", "inputs"]
    archive = subprocess.run([sys.executable, "-S", "-E", str(release.unpacked / "kubectl-instancetype"), *argv],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    installed = subprocess.run([sys.executable, "-m", "kubectl_instancetype", *argv], cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
    assert archive.stderr.count("\n") > 10 and "Traceback" not in archive.stderr
    assert (archive.returncode, archive.stderr, archive.stdout) == (
        installed.returncode, installed.stderr, installed.stdout)


@pytest.mark.slow
def test_without_libyaml_the_zipapp_refuses_cleanly(release: Release, tmp_path: Path) -> None:
    """A Python the archive has no parser for (or the zipapp copied alone) refuses, in one line, rather than
    parse with another parser."""
    shutil.copy(release.unpacked / "kubectl_instancetype.pyz", tmp_path)
    done = subprocess.run([sys.executable, "-S", "-E", str(tmp_path / "kubectl_instancetype.pyz"), "render", "-f",
                           str(EXAMPLE)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == f"{EXAMPLE}:1:1: error: cannot read YAML here: this Python has no libyaml parser " \
                          "(ruamel.yaml.clib); pip install ruamel.yaml.clib, or run the krew archive with a " \
                          "CPython it carries the parser for (3.11 to 3.14)\n"
