#!/usr/bin/env python3
"""Build the krew archives, one per platform, and write their sha256 into krew-manifest.yaml.

Each archive holds the ``kubectl-instancetype`` launcher, ``kubectl_complete-instancetype``, LICENSE, a
zipapp of the package with its pure-Python dependencies vendored (``kubectl_instancetype.pyz``) and the
C extensions built for that platform for every supported CPython: the YAML parser (ruamel.yaml.clib's
``_ruamel_yaml``), so that the archive parses as fast as a pip install does and with the same parser (libyaml):
the tool reads YAML with libyaml only; and libjq's bindings (the ``jq`` distribution's ``jq`` module), which
``drift --against`` runs Argo CD's ``jqPathExpressions`` with. Its Linux wheels need glibc 2.28: it is imported
only when a rule has a jq expression, so an older system loses that alone, with a message.

The zipapp carries one root per supported Python (``py311/``, ``py312/`` …), each with the sources and
the bytecode compiled by that Python (zipimport reads only ``name.pyc`` beside ``name.py``, so one root
cannot serve two versions); the launcher puts the running Python's root on ``sys.path``. Compiling needs
every supported Python here (found on PATH, under ~/.pyenv/versions, or named with ``--python``).

Dependencies are copied from the distributions installed in the running interpreter: run it from the
project's virtualenv. The extension wheels are fetched once with ``pip download --only-binary :all:`` for
each platform and Python into a cache (``--wheels``, default ~/.cache/kubectl-instancetype/wheels) and
read from there afterwards, offline; ``--fetch-only`` just fills the cache. The build is reproducible:
same sources, wheels and Pythons, same bytes, same sha256.

    python release/build.py        # dist/kubectl-instancetype-v<version>-<os>-<arch>.tar.gz + manifests
"""


from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import importlib.metadata as metadata
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "kubectl_instancetype"
DISTRIBUTION = "kubectl-instancetype"
PLUGIN = "instancetype"
HOMEPAGE = "https://github.com/kubevirt/kubectl-instancetype"
LAUNCHERS = ("kubectl-instancetype", "kubectl_complete-instancetype")
ZIPAPP = "kubectl_instancetype.pyz"
#: The CPython versions the archives carry bytecode for (the launcher lists them too) …
PYTHONS = ("3.11", "3.12", "3.13")
#: … and the C parser for: a newer Python runs the newest bytecode's sources, with its own parser.
PARSER_PYTHONS = (*PYTHONS, "3.14")
#: krew's (os, arch) -> the wheel platform tags that fit it, best first, for ``pip download --platform``.
PLATFORMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("linux", "amd64"): ("manylinux_2_17_x86_64", "manylinux2014_x86_64"),
    ("linux", "arm64"): ("manylinux_2_17_aarch64", "manylinux2014_aarch64"),
    ("darwin", "amd64"): ("macosx_10_9_x86_64", "macosx_10_13_x86_64", "macosx_10_15_x86_64", "macosx_10_9_universal2"),
    ("darwin", "arm64"): ("macosx_11_0_arm64", "macosx_10_9_universal2"),
}
CLIB = "ruamel.yaml.clib"
#: The C extensions each archive carries: (distribution, module, extra wheel platform tags by os) — jq's Linux
#: wheels are manylinux_2_28 only.
EXTENSIONS: tuple[tuple[str, str, dict[str, tuple[str, ...]]], ...] = (
    (CLIB, "_ruamel_yaml", {}),
    ("jq", "jq", {"linux": ("manylinux_2_28_{arch}",)}),
)
_WHEEL_ARCH = {"amd64": "x86_64", "arm64": "aarch64"}
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry: fixed, for reproducible bytes
MAIN = '''"""Entry point of the zipapp: python3 kubectl_instancetype.pyz render -f vm.yaml.

The package lives under one root per Python (with that version's bytecode); the C parser, when this
zipapp comes from its krew archive, beside it.
"""
import gc
import os
import sys

gc.disable()  # before the imports, as kubectl_instancetype.command does (it says why)
ROOTS = %r
here = sys.path[0]
tag = "py%%d%%d" %% sys.version_info[:2]
sys.path[0] = os.path.join(here, tag if tag in ROOTS else ROOTS[-1])
sys.path.append(os.path.dirname(os.path.abspath(here)))

from kubectl_instancetype.cli import main, main_group
from kubectl_instancetype.cli.complete import run_shell_complete

run_shell_complete(main_group)
sys.exit(main())
'''
COMPILE = """\
import py_compile, sys
from pathlib import Path
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for path in sorted(src.rglob("*.py")):
    name = path.relative_to(src).as_posix()
    out = dst / (name[:-3] + ".pyc")
    out.parent.mkdir(parents=True, exist_ok=True)
    py_compile.compile(str(path), str(out), dfile=name, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
"""


def version() -> str:
    text = (ROOT / PACKAGE / "__init__.py").read_text()
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"error: no __version__ in {PACKAGE}/__init__.py")
    return found.group(1)


def _key(python: str) -> tuple[int, ...]:
    return tuple(int(p) for p in python.split("."))


def dependencies(name: str = DISTRIBUTION) -> list[metadata.Distribution]:
    """The installed distributions ``name`` needs, transitively (extras left out), in a stable order."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        for requirement in metadata.requires(todo.pop()) or []:
            if "extra ==" in requirement:
                continue
            dep = re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0]
            key = re.sub(r"[-_.]+", "-", dep).lower()
            if key not in seen:
                try:
                    seen[key] = metadata.distribution(dep)
                except metadata.PackageNotFoundError:
                    raise SystemExit(f"error: {dep} (needed by {name}) is not installed here") from None
                todo.append(dep)
    return [seen[key] for key in sorted(seen)]


def vendored_files(dist: metadata.Distribution) -> list[tuple[Path, str]]:
    """(file on disk, name in the archive) of a distribution's pure-Python files, metadata and licenses."""
    out = []
    for file in dist.files or []:
        parts = file.parts
        if parts[0] == ".." or "__pycache__" in parts or parts[0].endswith("-stubs"):
            continue
        if file.suffix in (".so", ".pyd", ".dylib", ".pyc") or file.name in ("RECORD", "INSTALLER", "REQUESTED"):
            continue
        out.append((Path(str(dist.locate_file(file))), file.as_posix()))
    return out


def package_files() -> list[tuple[Path, str]]:
    root = ROOT / PACKAGE
    return [(p, p.relative_to(ROOT).as_posix()) for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]


def find_pythons(versions: tuple[str, ...] = PYTHONS, named: tuple[str, ...] = ()) -> dict[str, str]:
    """An interpreter for each of ``versions`` that is here: one ``named``, this one, python3.X on PATH,
    or pyenv's."""
    found: dict[str, str] = {}
    home = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    for want in versions:
        pyenv = sorted(glob.glob(str(home / f"{want}.*" / "bin" / f"python{want}")), reverse=True)
        for candidate in (*named, sys.executable, shutil.which(f"python{want}") or "", *pyenv):
            if candidate and _reports(candidate) == want:
                found[want] = candidate
                break
    return found


def _reports(python: str) -> str | None:
    """The X.Y version ``python`` runs, or None if it does not run."""
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def build_pyz(target: Path, pythons: dict[str, str]) -> list[str]:
    """Write the zipapp; the names of the vendored distributions. Each root ``py3X/`` holds every module's
    source and its legacy ``.pyc`` compiled by that Python (what zipimport loads), unchecked-hash so that
    its bytes do not depend on file times. A Python without a root of its own runs the newest root: it
    refuses that bytecode (another magic number) and compiles the sources."""
    deps = dependencies()
    files = package_files() + [f for dist in deps for f in vendored_files(dist)]
    sources = {name: path.read_bytes() for path, name in files}
    versions = sorted(pythons, key=_key)
    roots = tuple(f"py{v.replace('.', '')}" for v in versions)
    entries = {"__main__.py": (MAIN % (roots,)).encode()}
    for python, root in zip(versions, roots, strict=True):
        entries.update({f"{root}/{name}": data for name, data in {**sources, **_compiled(sources,
                                                                                        pythons[python])}.items()})
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        # zipimport finds a namespace package (ruamel) only through an entry for its directory.
        for name in sorted({f"{p}/" for n in entries for p in _parents(n)} | set(entries)):
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = (0o40755 if name.endswith("/") else 0o644) << 16
            archive.writestr(info, entries.get(name, b""), zipfile.ZIP_STORED)
    _prepend_shebang(target)
    return [f"{d.metadata['Name']} {d.version}" for d in deps]


def _parents(name: str) -> list[str]:
    parts = name.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _compiled(sources: dict[str, bytes], python: str) -> dict[str, bytes]:
    """name.pyc -> bytecode of every ``.py`` of ``sources``, compiled by ``python`` in one process."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "src", Path(tmp) / "dst"
        for name, data in sources.items():
            if name.endswith(".py"):
                (src / name).parent.mkdir(parents=True, exist_ok=True)
                (src / name).write_bytes(data)
        subprocess.run([python, "-I", "-c", COMPILE, str(src), str(dst)], check=True, timeout=600)
        return {p.relative_to(dst).as_posix(): p.read_bytes() for p in sorted(dst.rglob("*.pyc"))}


def _prepend_shebang(target: Path) -> None:
    data = target.read_bytes()
    target.write_bytes(b"#!/usr/bin/env python3\n" + data)  # zip offsets are relative to the end: still valid


def wheel_cache() -> Path:
    """~/.cache/kubectl-instancetype/wheels (or under $XDG_CACHE_HOME)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / DISTRIBUTION / "wheels"


def clib_version() -> str:
    return metadata.version(CLIB)


def platform_tags(platform: tuple[str, str], dist: str = CLIB) -> tuple[str, ...]:
    """The wheel platform tags that fit ``platform`` for ``dist``, best first."""
    extra = next((more for name, _, more in EXTENSIONS if name == dist), {}).get(platform[0], ())
    return (*PLATFORMS[platform], *(t.format(arch=_WHEEL_ARCH.get(platform[1], platform[1])) for t in extra))


def fetch_wheel(cache: Path, platform: tuple[str, str], python: str, dist: str = CLIB) -> Path:
    """``dist``'s wheel (the version installed here) for ``platform`` and CPython ``python``: from the cache,
    else downloaded into it with ``pip download --only-binary :all:``."""
    clib = metadata.version(dist)
    found = _cached_wheel(cache, platform, python, clib, dist)
    if found is not None:
        return found
    cache.mkdir(parents=True, exist_ok=True)
    nodot = python.replace(".", "")
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
            "--implementation", "cp", "--python-version", python, "--abi", f"cp{nodot}", "--dest", str(cache)]
    for tag in platform_tags(platform, dist):
        argv += ["--platform", tag]
    done = subprocess.run([*argv, f"{dist}=={clib}"], capture_output=True, text=True, timeout=600)
    found = _cached_wheel(cache, platform, python, clib, dist)
    if found is None:
        last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise SystemExit(f"error: cannot fetch {dist} {clib} for {'/'.join(platform)} CPython {python}: {last}")
    return found


def _cached_wheel(cache: Path, platform: tuple[str, str], python: str, clib: str, dist: str = CLIB) -> Path | None:
    nodot = python.replace(".", "")
    prefix = f"{dist.replace('.', '_')}-{clib}-cp{nodot}-cp{nodot}-"
    wheels = sorted(cache.glob(f"{prefix}*.whl"))
    for tag in platform_tags(platform, dist):
        for wheel in wheels:
            if tag in wheel.name[len(prefix) : -len(".whl")].split("."):
                return wheel
    return None


def extension(wheel: Path, module: str = "_ruamel_yaml") -> tuple[str, bytes]:
    """(file name, bytes) of the extension module ``module`` in ``wheel``."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if re.fullmatch(rf"{re.escape(module)}\.[^/]+\.(so|pyd)", n)]
        if len(names) != 1:
            raise SystemExit(f"error: {wheel.name} holds {len(names)} {module} extensions, not 1")
        return names[0], archive.read(names[0])


def archive_name(platform: tuple[str, str]) -> str:
    return f"{DISTRIBUTION}-v{version()}-{platform[0]}-{platform[1]}.tar.gz"


def build_archive(out_dir: Path, pyz: Path, platform: tuple[str, str], wheels: Path,
                  pythons: tuple[str, ...] = PARSER_PYTHONS) -> tuple[Path, list[str]]:
    """dist/kubectl-instancetype-v<version>-<os>-<arch>.tar.gz and the names of its files: byte for byte
    the same for the same sources, zipapp and wheels."""
    out_dir.mkdir(parents=True, exist_ok=True)
    archive = out_dir / archive_name(platform)
    members = [("LICENSE", (ROOT / "LICENSE").read_bytes(), 0o644), (ZIPAPP, pyz.read_bytes(), 0o644)]
    members += [(n, (ROOT / "plugins" / n).read_bytes(), 0o755) for n in LAUNCHERS]
    members += [(*extension(fetch_wheel(wheels, platform, python, dist), module), 0o644)
                for dist, module, _ in EXTENSIONS for python in pythons]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data, mode in sorted(members):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, 0
            tar.addfile(info, io.BytesIO(data))
    with open(archive, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())
    return archive, sorted(m[0] for m in members)


Archives = dict[tuple[str, str], tuple[Path, list[str]]]


def build_all(out_dir: Path, wheels: Path, pythons: dict[str, str]) -> Archives:
    """Every platform's archive (the zipapp is the same in each)."""
    with tempfile.TemporaryDirectory() as tmp:
        pyz = Path(tmp) / ZIPAPP
        build_pyz(pyz, pythons)
        return {platform: build_archive(out_dir, pyz, platform, wheels) for platform in PLATFORMS}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(base_url: str, archives: Archives) -> str:
    """The krew Plugin manifest (apiVersion krew.googlecontainertools.github.com/v1alpha2): one platform
    per archive, each listing the files krew installs."""
    platforms = ""
    for (os_, arch), (archive, names) in archives.items():
        files = "".join(f"    - from: {name}\n      to: .\n" for name in names)
        platforms += (f"  - selector:\n      matchLabels:\n        os: {os_}\n        arch: {arch}\n"
                      f"    uri: {base_url}/v{version()}/{archive.name}\n    sha256: {sha256(archive)}\n"
                      f"    bin: kubectl-instancetype\n    files:\n{files}")
    return MANIFEST.format(plugin=PLUGIN, version=version(), homepage=HOMEPAGE, platforms=platforms,
                           linux_amd64=archive_name(("linux", "amd64")))


MANIFEST = """\
# krew plugin manifest, written by release/build.py with the sha256 of each release archive. krew-index
# wants it as plugins/{plugin}.yaml: the build writes that copy too (dist/{plugin}.yaml). Local install:
#   kubectl krew install --manifest=krew-manifest.yaml --archive=dist/{linux_amd64}
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: {plugin}
spec:
  version: v{version}
  homepage: {homepage}
  shortDescription: Expand KubeVirt instancetypes and preferences offline
  description: |
    Renders KubeVirt VirtualMachines that reference instancetypes and preferences
    offline, from files, with KubeVirt's own semantics: the VirtualMachine (or the
    VirtualMachineInstance) a cluster would run, before it reaches the cluster.
    Ships the common-instancetypes catalog; runs as a KRM function (kustomize,
    kpt), an Argo CD plugin and a Helm post-renderer.
  caveats: |
    This plugin needs python3 (3.11 or newer) on PATH; it brings its other
    dependencies along. Where python3 is older, the newest python3.1x on PATH
    (3.11 or newer) runs it.

    Shell completion (kubectl 1.26 or newer) needs kubectl_complete-instancetype
    on PATH too; krew does not link it. This one survives krew upgrade:
      f="${{KREW_ROOT:-$HOME/.krew}}/bin/kubectl_complete-instancetype"
      printf '#!/bin/sh\\nexec kubectl-instancetype __complete "$@"\\n' >"$f"
      chmod +x "$f"
  platforms:
{platforms}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the archives go (default: dist/)")
    parser.add_argument("--manifest", type=Path, default=ROOT / "krew-manifest.yaml", help="manifest to write")
    parser.add_argument("--base-url", default=f"{HOMEPAGE}/releases/download",
                        help="an archive's URL is <base-url>/v<version>/<archive name>")
    parser.add_argument("--wheels", type=Path, default=wheel_cache(),
                        help="cache of the C extensions' wheels (default: %(default)s)")
    parser.add_argument("--python", action="append", default=[], help="an interpreter to compile bytecode with")
    parser.add_argument("--fetch-only", action="store_true", help="only fetch the extensions' wheels into the cache")
    args = parser.parse_args(argv)
    if args.fetch_only:
        for platform in PLATFORMS:
            for python in PARSER_PYTHONS:
                for dist, _, _ in EXTENSIONS:
                    print(fetch_wheel(args.wheels, platform, python, dist))
        return 0
    pythons = find_pythons(PYTHONS, tuple(args.python))
    missing = [v for v in PYTHONS if v not in pythons]
    if missing:
        raise SystemExit(f"error: no Python {', '.join(missing)} here to compile bytecode with (--python PATH)")
    archives = build_all(args.out, args.wheels, pythons)
    text = manifest(args.base_url, archives)
    args.manifest.write_text(text)
    (args.out / f"{PLUGIN}.yaml").write_text(text)
    for archive, _ in archives.values():
        print(f"{archive} sha256 {sha256(archive)}")
    print(f"{args.manifest} updated; krew-index copy: {args.out / f'{PLUGIN}.yaml'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
