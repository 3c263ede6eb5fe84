"""``kubectl instancetype diff``: how each VirtualMachine's expansion changes between a git revision and the
working tree, for reviewing pull requests.

Both sides are rendered the same way, each from its own files: the VMs and the catalogs as of REV are
written to a temporary tree (``git ls-tree``/``git cat-file``) and rendered from there, so a VM whose file
did not change still shows up when the instancetype or preference it references did.
"""

from __future__ import annotations

import contextlib
import copy
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

import click

from ..errors import EXIT_INPUT, InputError, KubeVirtError, Location, Notice, ToolError
from ..gitops import report as views
from ..gitops.relevance import relevant
from ..gitops.vmdiff import VMChange, VMState, compare, vm_states
from ..inputs import excluded
from ..records import dataclass, replace
from ..render import Options
from ..render import render as render_documents
from ..reporters import Checked, RunResult
from ..yamlio import DEFAULT_LIMITS
from . import exit_codes_help
from .ci_log import guard_stdout
from .inputs import MANIFEST_SUFFIXES, expand_paths, read_text
from .options import (
    CatalogOptions,
    InputOptions,
    VersionOption,
    catalog_options,
    checked_version,
    exclude_option,
    junit_option,
    load,
    namespace_option,
)
from .report import finish
from .restart_options import RestartOptions, restart_findings, restart_options, restart_views

DEFAULT_BRANCHES = ("origin/HEAD", "origin/main", "origin/master", "upstream/main", "main", "master")


def git(*args: str, stdin: str | None = None) -> str:
    """The output of a git command; UsageError with git's own message when it fails."""
    proc = _git(*args, stdin=stdin)
    if proc.returncode:
        raise click.UsageError(f"git {args[0]}: {_said(proc)}")
    return proc.stdout


def _git(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", *args], input=stdin, capture_output=True, text=True, encoding="utf-8",
                              errors="surrogateescape")
    except FileNotFoundError:
        raise click.UsageError("git is not installed") from None


def _said(proc: subprocess.CompletedProcess[str]) -> str:
    """What git said on stderr (its last line), or its exit status when it said nothing."""
    lines = proc.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {proc.returncode}"


def _git_bytes(args: list[str], stdin: bytes | None = None) -> bytes:
    """The raw output of a git command (file names are bytes, not necessarily UTF-8)."""
    try:
        proc = subprocess.run(["git", *args], input=stdin, capture_output=True)
    except FileNotFoundError:
        raise click.UsageError("git is not installed") from None
    if proc.returncode:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise click.UsageError(f"git {args[0]}: {lines[-1] if lines else f'exit status {proc.returncode}'}")
    return proc.stdout


def base_revision(base: str | None) -> str:
    """--base as a commit, or the merge base of HEAD with the upstream default branch."""
    if base is not None:
        proc = _git("rev-parse", "--verify", "--end-of-options", f"{base}^{{commit}}")
        if proc.returncode:
            raise click.UsageError(f"--base {base}: not a commit here (git rev-parse: {_said(proc)})")
        return base
    inside = _git("rev-parse", "--is-inside-work-tree")
    if inside.returncode or inside.stdout.strip() != "true":
        raise click.UsageError("not in a git repository: diff compares the expansions with those of a git revision; "
                               "run it in a repository, or compare two files or directories with --base OLD NEW "
                               "(diff --base old.yaml new.yaml)")
    for branch in DEFAULT_BRANCHES:
        if _git("rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}").returncode == 0:
            return git("merge-base", "HEAD", branch).strip()
    raise click.UsageError("no upstream default branch (origin/HEAD, main, master): give --base REV")


def _same_as_head(rev: str) -> Notice | None:
    """A note when the default base is HEAD itself: only uncommitted changes can show, say how to do more."""
    head = _git("rev-parse", "--verify", "--quiet", "HEAD").stdout.strip()
    if head and git("rev-parse", f"{rev}^{{commit}}").strip() == head:
        return Notice("the base is HEAD itself (no upstream branch such as origin/HEAD or origin/main): only "
                      "uncommitted changes are compared; give --base REV, e.g. --base HEAD~1", severity="note")
    return None


def _safe_parts(name: bytes) -> list[str] | None:
    """The components of a tree path when each is an ordinary name (no ``..``, ``.``, empty or absolute)."""
    parts = os.fsdecode(name).split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    return parts


def _blobs_at(rev: str, paths: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, int]]:
    """Path components, object id and size of each file under ``paths`` (relative to the current directory) at
    ``rev`` that the working tree's side would read: the files named, and the manifests (``.yaml``, ``.yml``,
    ``.json``) of the directories named.

    Only blobs of regular files count (submodules and symbolic links are not files of the tree); a name that
    would leave the tree (``..`` entries can be written with ``git mktree``) is skipped. The sizes come from
    ``git cat-file --batch-check``, before anything is read.
    """
    top = os.path.realpath(git("rev-parse", "--show-toplevel").strip())
    paths = tuple(p for p in paths if os.path.realpath(p) == top or os.path.realpath(p).startswith(top + os.sep))
    if not paths:  # files outside the repository are read from where they are, for both sides
        return []
    prefix = git("rev-parse", "--show-prefix").strip()
    named = {os.path.normpath(os.path.join(prefix, p)) for p in paths}
    listing = _git_bytes(["ls-tree", "-r", "-z", "--full-name", rev, "--", *paths])
    wanted: list[tuple[tuple[str, ...], str]] = []
    for entry in listing.split(b"\0"):
        header, _, name = entry.partition(b"\t")
        fields = header.split()
        if len(fields) != 3 or fields[1] != b"blob" or fields[0] not in (b"100644", b"100755"):
            continue
        parts = _safe_parts(name)
        if parts is not None and (parts[-1].lower().endswith(MANIFEST_SUFFIXES) or "/".join(parts) in named):
            wanted.append((tuple(parts), fields[2].decode("ascii")))
    if not wanted:
        return []
    sizes = _git_bytes(["cat-file", "--batch-check"], "".join(f"{oid}\n" for _, oid in wanted).encode("ascii"))
    # each line: "<oid> blob <size>", in the order asked
    return [(parts, oid, int(line.split()[2])) for (parts, oid), line in zip(wanted, sizes.splitlines(), strict=True)]


@contextlib.contextmanager
def checked_out(rev: str, paths: tuple[str, ...]) -> Iterator[None]:
    """The files under ``paths`` as of ``rev`` in a temporary tree, as the current directory."""
    prefix = git("rev-parse", "--show-prefix").strip()
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="kubectl-instancetype-diff-") as tmp:
        _materialise_all(tmp, _blobs_at(rev, paths))
        os.makedirs(os.path.join(tmp, prefix), exist_ok=True)
        os.chdir(os.path.join(tmp, prefix))
        try:
            yield
        finally:
            os.chdir(here)


def _materialise_all(tmp: str, blobs: list[tuple[tuple[str, ...], str, int]],
                     cap: int = DEFAULT_LIMITS.max_bytes) -> None:
    """Each blob written under ``tmp``, streamed from one ``git cat-file --batch`` (one piece in memory at a time).

    A blob larger than ``cap`` (the working tree's limit, --max-input-bytes) is not read: it becomes a sparse file
    of its size, which the reading refuses as it refuses the working tree's file of that size.
    """
    small = [(parts, oid) for parts, oid, size in blobs if size <= cap]
    for parts, _oid, size in blobs:
        if size > cap:
            _materialise(tmp, parts, b"", size)
    if not small:
        return
    with tempfile.TemporaryFile() as ids:
        ids.write("".join(f"{oid}\n" for _, oid in small).encode("ascii"))
        ids.seek(0)
        try:
            proc = subprocess.Popen(["git", "cat-file", "--batch"], stdin=ids, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            raise click.UsageError("git is not installed") from None
        assert proc.stdout is not None
        with proc:
            for parts, _ in small:  # each object: "<oid> <type> <size>\n<content>\n"
                header = proc.stdout.readline().split()
                if len(header) != 3:
                    raise click.UsageError(f"git cat-file: unexpected answer {b' '.join(header)!r}")
                content = proc.stdout.read(int(header[2]))
                proc.stdout.read(1)
                _materialise(tmp, parts, content)


def _materialise(tmp: str, parts: tuple[str, ...], content: bytes, size: int = -1) -> None:
    """Write one file of the base revision under ``tmp`` (its parts were checked by :func:`_safe_parts`); with
    ``size``, a sparse file of that size instead of ``content``."""
    target = os.path.join(tmp, *parts)
    if os.path.commonpath([tmp, os.path.normpath(target)]) != tmp:  # defence in depth
        return
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "xb") as handle:
            if size >= 0:
                handle.truncate(size)
            else:
                handle.write(content)
    except OSError:  # a tree with two entries of one name (possible with git mktree): the first wins
        pass


def _in_tree(path: str, top: str) -> str:
    """``path`` relative to the current directory when it is inside the repository: the base revision is
    checked out elsewhere, and an absolute path (or one through ``..``) would read the working tree there."""
    real = os.path.realpath(path)
    if real == top or real.startswith(top + os.sep):
        return os.path.relpath(os.path.abspath(path))
    return path


def _inputs(paths: tuple[str, ...], namespace: str, exclude: tuple[str, ...], head: bool = False) -> InputOptions:
    """The files of ``paths`` that hold Kubernetes objects the render uses (named files always count); on the
    ``head`` side also the ``.yaml`` files that do not load, so that their error is reported rather than their
    VMs shown removed."""
    files: list[str] = []
    for path in paths:
        if not os.path.exists(path):
            continue
        for source in expand_paths((path,), True):
            if excluded(source, exclude):
                continue
            broken = head and source.path.lower().endswith((".yaml", ".yml"))
            with contextlib.suppress(ToolError):
                if not os.path.isdir(path) or relevant(read_text(source), broken):
                    files.append(source.path)
    # generated template values from one stream per parameter: the same on both sides, so that a generated
    # value never counts as a change
    return InputOptions(tuple(files), False, namespace, DEFAULT_LIMITS, seed="diff")


@dataclass(frozen=True)
class Side:
    """Every VM of one revision, rendered, and what reading that revision found."""

    states: dict[tuple[str, str], VMState]
    problems: tuple[ToolError, ...]
    notices: tuple[Notice, ...]
    release: str = ""  # the KubeVirt release this side was rendered for
    revision: Any = None  # gitops.restart_impact.Revision: the documents, catalog and configuration read


def _side(paths: tuple[str, ...], namespace: str, exclude: tuple[str, ...], catalogs: CatalogOptions,
          drift: bool = False, head: bool = False) -> Side:
    """Every VM under ``paths`` in the current directory, rendered (with ``drift``: and what the cluster will
    write into each once applied; ``head``: the side the pull request makes, whose broken files count)."""
    inputs = _inputs(paths, namespace, exclude, head)
    present = CatalogOptions(tuple(c for c in catalogs.catalogs if os.path.exists(c)), catalogs.builtin,
                             catalogs.kubevirt_config if catalogs.kubevirt_config and
                             os.path.exists(catalogs.kubevirt_config) else None, catalogs.arch,
                             catalogs.accept_removed, catalogs.kubevirt_version)
    loaded = load(inputs, present)
    result = render_documents(loaded.documents, loaded.catalog, Options(namespace, loaded.config, explain=True))
    problems = loaded.problems + tuple(result.problems)
    stored: dict[tuple[str, str], Any] = {}
    written = _drift(loaded.documents, loaded.catalog, Options(namespace, loaded.config), stored) if drift else None
    from ..gitops.restart_impact import Revision

    states = _with_node_resources(vm_states(result.items, result.problems, namespace, written), loaded, namespace)
    revision = Revision(tuple(loaded.documents), loaded.catalog, loaded.config, stored,
                        {key: not state.error for key, state in states.items()},
                        refused_vms(loaded.problems, loaded.blamed, loaded.documents, namespace),
                        _unreadable(loaded.problems, loaded.blamed))
    notices = loaded.notices + (_generated_names(loaded.documents, namespace) if head else ())
    return Side(states, problems, notices, loaded.config.release.name, revision)


def _generated_names(documents: Any, namespace: str) -> tuple[Notice, ...]:
    """A note for each VM named only by ``metadata.generateName``: diff matches VMs by name, and this one has
    none until the API server gives it one on create."""
    from ..inputs.generated_names import generated_only
    from ..render import vm_label

    return tuple(Notice(f"{vm_label(doc.data, namespace)}: diff matches VMs across revisions by name, and this one "
                        "has none (each kubectl create makes another VM): it is compared with the VM of the same "
                        "generateName", doc.location, "note")
                 for doc in documents if doc.data.get("kind") == "VirtualMachine" and generated_only(doc.data))


def _unreadable(problems: Sequence[ToolError], blamed: Sequence[Any]) -> dict[str, ToolError]:
    """The files of a revision that cannot be read at all (a YAML syntax error): by path, the first problem. A
    VM whose file HEAD breaks is no deletion: nothing can be applied from the file."""
    out: dict[str, ToolError] = {}
    for problem, doc in zip(problems, blamed, strict=False):
        if doc is None and problem.exit_code == EXIT_INPUT and problem.location is not None:
            out.setdefault(problem.location.path, problem)
    return out


def refused_vms(problems: Sequence[ToolError], blamed: Sequence[Any], documents: Sequence[Any],
                namespace: str) -> dict[tuple[str, str], ToolError]:
    """The VMs a revision's files hold that the API server refuses as read (gone from its documents): by key,
    the refusal (W1: a refused HEAD is no removal)."""
    from ..render import shown_name

    kept = {id(doc) for doc in documents}
    out: dict[tuple[str, str], ToolError] = {}
    for problem, doc in zip(problems, blamed, strict=False):
        data = getattr(doc, "data", None)
        if id(doc) in kept or not isinstance(data, dict) or data.get("kind") != "VirtualMachine":
            continue
        meta = data.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        out.setdefault((str(meta.get("namespace") or namespace), shown_name(meta)), problem)  # as vm_states keys it
    return out


def _with_node_resources(states: dict[tuple[str, str], VMState], loaded: Any,
                         namespace: str) -> dict[tuple[str, str], VMState]:
    """``states`` with the node-level requests and limits of each VM's launcher Pod, where it renders."""
    from ..gitops.node_resources import of_pod
    from ..render import render_each
    from .launcher import launcher_renderer

    out = dict(states)
    renderer = launcher_renderer(loaded, None)
    for item in render_each(loaded.documents, loaded.catalog, Options(namespace, loaded.config), renderer):
        meta = item.document.data.get("metadata") or {}
        key = (str(meta.get("namespace") or namespace), str(meta.get("name")))
        if item.is_vm and item.problem is None and key in out and isinstance(item.rendered, dict):
            out[key] = replace(out[key], node=of_pod(item.rendered))
    return out


def _drift(documents: Any, catalog: Any, options: Options,
           stored: dict[tuple[str, str], Any] | None = None) -> dict[tuple[str, str], tuple[str, ...]]:
    """The JSON pointers of the fields the cluster will write into each VM (see ``drift``); ``stored`` gets each
    VM as the cluster stores it (what --restart-impact starts from)."""
    from ..gitops.drift import differences
    from ..pipeline.stages import render_stored
    from ..render import render_each, shown_name

    out = {}
    for item in render_each(documents, catalog, options, render_stored):
        if item.is_vm and item.rendered is not None and item.document.data.get("kind") == "VirtualMachine":
            meta = item.document.data.get("metadata") or {}
            key = (str(meta.get("namespace") or options.namespace), shown_name(meta))  # as vm_states keys it
            out[key] = tuple(d.pointer for d in differences(item.document.data, item.rendered))
            if stored is not None:
                stored[key] = item.rendered
    return out


FORMATS = ("json", "markdown", "text")


@click.command(epilog=exit_codes_help("a VM's expansion changes"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--base", metavar="REV|PATH", help="The git revision to compare with (default: the merge base of "
                                                 "HEAD with the upstream default branch), or a file or directory "
                                                 "holding the base manifests (no git needed; a name that is both is "
                                                 "ambiguous, as git says: write ./PATH or the revision's full name).")
@namespace_option()
@exclude_option
@catalog_options
@click.option("-o", "--output", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for a terminal, markdown for a pull-request comment, json for tools (--format: the same "
                   "option).")
@click.option("--max-comment-chars", "cap", type=click.IntRange(min=1000), default=views.COMMENT_LIMIT,
              show_default=True, help="With --format markdown: the longest comment to print; per-VM diffs that "
                                      "do not fit are left out with a note (the summary table stays whole).")
@click.option("--base-kubevirt-version", "base_version", metavar="VERSION", callback=checked_version, cls=VersionOption,
              help="Upgrade preview: compare the working tree as a cluster of this KubeVirt release (and the "
                   "catalog it deploys) expands it with the release of --kubevirt-version (default, as for render: "
                   "the KubeVirt CR's status.observedKubeVirtVersion, else the newest release), instead of "
                   "comparing git revisions. The output names both releases; one release on both sides is a "
                   "usage error (exit 2), a missing PATH, --catalog or --kubevirt-config exit 3.")
@restart_options
@junit_option
def diff(paths: tuple[str, ...], base: str | None, namespace: str, exclude: tuple[str, ...],
         catalogs: CatalogOptions, fmt: str, cap: int, base_version: str | None, junit_xml: str | None,
         restart: RestartOptions) -> None:
    """Show how each VirtualMachine's expansion changes between REV and the working tree.

    PATHs (default: the current directory) are files and directories, searched recursively for
    manifests; --catalog paths are read at each revision too. A VM whose file did not change is shown
    when what it references did (a catalog bump). Problems of the base revision are shown, prefixed
    with it; only those that make it unreadable count for the exit status. VMs are matched by name; one
    named only by metadata.generateName (which kubectl apply refuses) by its generateName, with a note.

    With --base-kubevirt-version, the upgrade preview: the same files rendered for the base release and
    for --kubevirt-version (each with the built-in catalog its virt-operator deploys); a changed VM's
    cause is "kubevirt".

    With --restart-impact, what applying the working tree does to each running VM, as KubeVirt's
    virt-controller decides it: live update (CPU/memory hot-plug, placement, NIC), RestartRequired with
    KubeVirt's message and the field changes that caused it, or nothing until the next start. --base may
    then also be a file or directory holding the base revision's manifests.

    \b
    Examples:
      kubectl instancetype diff vms/ --catalog catalog/
      kubectl instancetype diff --restart-impact --base origin/main -o markdown vms/ > comment.md
      kubectl instancetype diff --restart-impact --base old.yaml new.yaml -o json --fail-on restart
      kubectl instancetype diff --base origin/main --format markdown vms/ --catalog catalog/ > comment.md
      kubectl instancetype diff --kubevirt-version 1.9 --base-kubevirt-version 1.8 vms/
    """
    paths = paths or (".",)
    guard_stdout()  # files' own text on standard output: no workflow command in a CI log
    if base_version is not None:
        if base is not None:
            raise click.UsageError("--base compares git revisions, --base-kubevirt-version KubeVirt releases: "
                                   "give one of them")
        _upgrade(paths, namespace, exclude, catalogs, fmt, cap, base_version, junit_xml)
        return
    if base is not None and _names_files(base):
        _diff_files(paths, base, namespace, exclude, catalogs, fmt, cap, junit_xml, restart)
        return
    rev = base_revision(base)
    same = _same_as_head(rev) if base is None else None
    label = base or git("rev-parse", "--short", rev).strip()
    top = os.path.realpath(git("rev-parse", "--show-toplevel").strip())
    paths = tuple(_in_tree(p, top) for p in paths)
    catalogs = replace(
        catalogs, catalogs=tuple(_in_tree(c, top) for c in catalogs.catalogs),
        kubevirt_config=_in_tree(catalogs.kubevirt_config, top) if catalogs.kubevirt_config else None)
    named = paths + catalogs.catalogs + ((catalogs.kubevirt_config,) if catalogs.kubevirt_config else ())
    with checked_out(rev, named):
        at_rev = {p for p in named if os.path.exists(p)}
        before = _side(paths, namespace, exclude, catalogs, drift=True)
    missing = tuple(InputError("no such file or directory (neither in the working tree nor at " + label + ")",
                               Location(p)) for p in dict.fromkeys(named) if p not in at_rev and not os.path.exists(p))
    after = _side(paths, namespace, exclude, catalogs, drift=True, head=True)
    changes = [_new_drift(c) for c in compare(before.states, after.states, label)]
    found = _restart_impact(before, after, changes, namespace, restart)
    sys.stdout.write(_view(found, changes, label, fmt, cap))
    at_base = tuple(_at_base(p, label) for p in before.problems)
    unreadable = tuple(p for p in at_base if p.exit_code == EXIT_INPUT)
    notices = after.notices + ((same,) if same else ())
    result = RunResult(missing + unreadable + after.problems + restart_findings(found, restart, after), notices,
                       _changed(changes, restart), shown=tuple(p for p in at_base if p.exit_code != EXIT_INPUT),
                       checked=_checked(changes, after.problems))
    finish(result, junit=junit_xml, suite="kubectl-instancetype diff")


def _changed(changes: list[VMChange], restart: RestartOptions) -> bool:
    """Whether the diff counts as findings: any change, or with --fail-on only the findings it names."""
    return restart.fail_on is None and any(c.status != "unchanged" for c in changes)


def _restart_impact(before: Side, after: Side, changes: list[VMChange], namespace: str,
                    restart: RestartOptions) -> list[Any] | None:
    """With --restart-impact, the restart impact of every VM the pull request touches."""
    if not restart.enabled:
        return None
    from ..gitops.restart_impact import impacts

    touched = {(c.namespace, c.name): c.status != "unchanged" for c in changes}
    return impacts(before.revision, after.revision, namespace, restart.facts, touched)


def _view(found: list[Any] | None, changes: list[VMChange], label: str, fmt: str, cap: int) -> str:
    """The diff in ``fmt``, with the restart impact first when it was asked (``found`` not None)."""
    if found is not None:
        return restart_views(found, changes, label, fmt, cap)
    if fmt == "markdown":
        return views.markdown(changes, label, cap)
    return (views.as_json if fmt == "json" else views.text)(changes, label)


def _names_files(base: str) -> bool:
    """Whether --base names files (an existing path) rather than a git revision; a name that is both is a usage
    error, as git calls it ambiguous."""
    if not os.path.exists(base):
        return False
    if not base.startswith(("./", "../", "/")) and \
            _git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{base}^{{commit}}").returncode == 0:
        raise click.UsageError(f"--base {base}: both a git revision and a path: write ./{base} for the path, or "
                               "the revision's full name (refs/heads/...)")
    return True


def _diff_files(paths: tuple[str, ...], base: str, namespace: str, exclude: tuple[str, ...],
                catalogs: CatalogOptions, fmt: str, cap: int, junit_xml: str | None, restart: RestartOptions) -> None:
    """--base naming files: BASE read from them, HEAD from PATHs (no git)."""
    before = _side((base,), namespace, exclude, catalogs, drift=True)
    after = _side(paths, namespace, exclude, catalogs, drift=True, head=True)
    changes = [_new_drift(c) for c in compare(before.states, after.states, base)]
    found = _restart_impact(before, after, changes, namespace, restart)
    sys.stdout.write(_view(found, changes, base, fmt, cap))
    at_base = tuple(_at_base(p, base) for p in before.problems)
    unreadable = tuple(p for p in at_base if p.exit_code == EXIT_INPUT)
    result = RunResult(unreadable + after.problems + restart_findings(found, restart, after), after.notices,
                       _changed(changes, restart), shown=tuple(p for p in at_base if p.exit_code != EXIT_INPUT),
                       checked=_checked(changes, after.problems))
    finish(result, junit=junit_xml, suite="kubectl-instancetype diff")


def _upgrade(paths: tuple[str, ...], namespace: str, exclude: tuple[str, ...], catalogs: CatalogOptions, fmt: str,
             cap: int, base_version: str, junit_xml: str | None) -> None:
    """The upgrade preview: the working tree rendered for ``base_version`` and for the release of ``catalogs``,
    shown as a pull-request diff is, against ``KubeVirt <base release>``."""
    from ..api.releases import resolve

    base_release = resolve(base_version)
    label = f"KubeVirt {base_release.name}"
    # Unlike git mode (where a path may exist at one revision only) every path names a file now: a typo is
    # "no such file", as render says, never a preview of nothing (or of KubeVirt's default configuration).
    named = (*paths, *catalogs.catalogs, *((catalogs.kubevirt_config,) if catalogs.kubevirt_config else ()))
    missing = tuple(InputError("no such file or directory", Location(p)) for p in dict.fromkeys(named)
                    if p != "-" and "://" not in p and not os.path.exists(p))
    after = _side(paths, namespace, exclude, catalogs, drift=True, head=True)
    if after.release == base_release.name:
        raise click.UsageError(_same_release(base_version, after.release, catalogs.kubevirt_version))
    before = _side(paths, namespace, exclude, replace(catalogs, kubevirt_version=base_release.name),
                   drift=True)
    changes = [_new_drift(replace(c, cause="kubevirt") if c.status != "unchanged" else c)
               for c in compare(before.states, after.states, label)]
    label = f"{label} (upgrading to {after.release})"  # both releases named in the output
    target = f" --kubevirt-version {catalogs.kubevirt_version}" if catalogs.kubevirt_version else ""
    again = f"kubectl instancetype diff --base-kubevirt-version {base_version}{target}"
    if fmt == "markdown":
        sys.stdout.write(views.markdown(changes, label, cap, again=again))
    else:
        sys.stdout.write((views.as_json if fmt == "json" else views.text)(changes, label))
    at_base = tuple(_at_base(p, label) for p in before.problems)
    unreadable = tuple(p for p in at_base if p.exit_code == EXIT_INPUT)
    result = RunResult(missing + unreadable + after.problems, after.notices,
                       any(c.status != "unchanged" for c in changes),
                       shown=tuple(p for p in at_base if p.exit_code != EXIT_INPUT),
                       checked=_checked(changes, after.problems))
    finish(result, junit=junit_xml, suite="kubectl-instancetype diff")


def _same_release(base_version: str, release: str, target: str | None) -> str:
    """Why an upgrade preview from a release to itself has nothing to compare, and what to give."""
    if target is not None:
        return (f"--base-kubevirt-version {base_version} and --kubevirt-version {target} are one release "
                f"({release}): an upgrade preview compares two releases")
    return (f"--base-kubevirt-version {base_version} is the release the files already assume ({release}: the "
            "KubeVirt CR's status.observedKubeVirtVersion, else the newest release): give the release to compare "
            "with, --kubevirt-version VERSION")


def _new_drift(change: VMChange) -> VMChange:
    """``change`` with only the drift this change brings: what the cluster will write and did not before."""
    if change.after is None or not change.after.drift:
        return change
    known = change.before.drift if change.before is not None else ()
    fresh = tuple(p for p in change.after.drift if p not in known)
    return replace(change, after=replace(change.after, drift=fresh))


def _at_base(problem: ToolError, label: str) -> ToolError:
    """``problem`` of the base revision, its path prefixed with the revision (``main:vms/a.yaml:3:1``)."""
    clone = copy.copy(problem)
    if problem.location is not None:
        where = problem.location
        clone.location = Location(f"{label}:{where.path}", where.line, where.col)
    else:
        clone.message = f"{label}: {problem.message}"
    return clone


def _checked(changes: list[VMChange], problems: tuple[ToolError, ...]) -> tuple[Checked, ...]:
    """One JUnit case per VM of the working tree: failing with its problem when KubeVirt refuses it."""
    by_message = {p.message: p for p in problems}
    out: list[Checked] = []
    for change in changes:
        if change.after is None:
            continue
        label = f"VirtualMachine {change.namespace}/{change.name}"
        problem = None
        if change.after.error:
            message = f"{label}: {change.after.error}"
            problem = by_message.get(message) or KubeVirtError(message)
        out.append(Checked(label, change.after.source, problem))
    return tuple(out)
