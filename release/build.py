#!/usr/bin/env python3
"""Build the krew archive and write its sha256 into krew-manifest.yaml.

The archive holds a zipapp of the package with its pure-Python dependencies vendored and precompiled
(``kubectl_instancetype.pyz``), the ``kubectl-instancetype`` launcher, ``kubectl_complete-instancetype``
and LICENSE. The code is Python only, so one archive serves every platform. Dependencies are copied from
the distributions installed in the running interpreter (no network): run it from the project's
virtualenv. C extensions are left out: ruamel.yaml then parses with its pure-Python parser and MarkupSafe
with its Python fallback. The build is reproducible: same sources, same bytes, same sha256.

    python release/build.py                # dist/kubectl-instancetype-v<version>.tar.gz + krew-manifest.yaml
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.metadata as metadata
import io
import py_compile
import re
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
PLATFORMS = (("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64"))
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry: fixed, for reproducible bytes
MAIN = '''"""Entry point of the zipapp: python3 kubectl_instancetype.pyz render -f vm.yaml."""
import sys

from kubectl_instancetype.cli import main, main_group
from kubectl_instancetype.cli.complete import run_shell_complete

run_shell_complete(main_group)
sys.exit(main())
'''


def version() -> str:
    text = (ROOT / PACKAGE / "__init__.py").read_text()
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"error: no __version__ in {PACKAGE}/__init__.py")
    return found.group(1)


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


def build_pyz(target: Path) -> list[str]:
    """Write the zipapp; the names of the vendored distributions. Each module is stored as source and as
    a legacy ``.pyc`` beside it (what zipimport loads), unchecked-hash so that its bytes do not depend
    on file times; another Python version falls back to the source."""
    deps = dependencies()
    files = package_files() + [f for dist in deps for f in vendored_files(dist)]
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        entries = {"__main__.py": MAIN.encode()}
        for path, name in files:
            entries[name] = path.read_bytes()
        for name, data in list(entries.items()):
            if name.endswith(".py"):
                entries[name[:-3] + ".pyc"] = _compiled(data, name, Path(tmp))
        # zipimport finds a namespace package (ruamel) only through an entry for its directory.
        for name in sorted({f"{p}/" for n in entries for p in _parents(n)} | set(entries)):
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = (0o40755 if name.endswith("/") else 0o644) << 16
            archive.writestr(info, entries.get(name, b""), zipfile.ZIP_DEFLATED)
    _prepend_shebang(target)
    return [f"{d.metadata['Name']} {d.version}" for d in deps]


def _parents(name: str) -> list[str]:
    parts = name.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _compiled(source: bytes, name: str, tmp: Path) -> bytes:
    src, dst = tmp / "module.py", tmp / "module.pyc"
    src.write_bytes(source)
    py_compile.compile(str(src), str(dst), dfile=name, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    return dst.read_bytes()


def _prepend_shebang(target: Path) -> None:
    data = target.read_bytes()
    target.write_bytes(b"#!/usr/bin/env python3\n" + data)  # zip offsets are relative to the end: still valid


def build_archive(out_dir: Path) -> Path:
    """dist/kubectl-instancetype-v<version>.tar.gz, byte for byte the same for the same sources."""
    out_dir.mkdir(parents=True, exist_ok=True)
    archive = out_dir / f"{DISTRIBUTION}-v{version()}.tar.gz"
    with tempfile.TemporaryDirectory() as tmp:
        pyz = Path(tmp) / "kubectl_instancetype.pyz"
        build_pyz(pyz)
        members = [(ROOT / "LICENSE", 0o644), (pyz, 0o644)] + [(ROOT / "plugins" / n, 0o755) for n in LAUNCHERS]
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path, mode in sorted(members, key=lambda m: m[0].name):
                info = tarfile.TarInfo(path.name)
                data = path.read_bytes()
                info.size, info.mode, info.mtime = len(data), mode, 0
                tar.addfile(info, io.BytesIO(data))
        with open(archive, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
            gz.write(buffer.getvalue())
    return archive


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(uri: str, digest: str) -> str:
    """The krew Plugin manifest (apiVersion krew.googlecontainertools.github.com/v1alpha2)."""
    files = "".join(f"    - from: {name}\n      to: .\n" for name in (*sorted(LAUNCHERS), "kubectl_instancetype.pyz",
                                                                     "LICENSE"))
    platforms = "".join(
        f"  - selector:\n      matchLabels:\n        os: {os_}\n        arch: {arch}\n"
        f"    uri: {uri}\n    sha256: {digest}\n    bin: kubectl-instancetype\n    files:\n{files}"
        for os_, arch in PLATFORMS
    )
    return MANIFEST.format(plugin=PLUGIN, version=version(), homepage=HOMEPAGE, platforms=platforms)


MANIFEST = """\
# krew plugin manifest, written by release/build.py (sha256 of the release archive); install a local build:
#   kubectl krew install --manifest=krew-manifest.yaml --archive=dist/kubectl-instancetype-v{version}.tar.gz
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
    dependencies along.

    Shell completion (kubectl 1.26 or newer) needs kubectl_complete-instancetype
    on PATH too; krew does not link it:
      ln -s "$(dirname "$(readlink -f "$(command -v kubectl-instancetype)")")/kubectl_complete-instancetype" \\
        "${{KREW_ROOT:-$HOME/.krew}}/bin/"
  platforms:
{platforms}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the archive goes (default: dist/)")
    parser.add_argument("--manifest", type=Path, default=ROOT / "krew-manifest.yaml", help="manifest to write")
    parser.add_argument("--base-url", default=f"{HOMEPAGE}/releases/download",
                        help="the archive's URL is <base-url>/v<version>/<archive name>")
    args = parser.parse_args(argv)
    archive = build_archive(args.out)
    digest = sha256(archive)
    args.manifest.write_text(manifest(f"{args.base_url}/v{version()}/{archive.name}", digest))
    print(f"{archive} sha256 {digest}")
    print(f"{args.manifest} updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
