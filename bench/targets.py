"""The paths users feel (issue 11), each measured against its own reference in the same run, with targets.

Every row is a ratio of CPU seconds (user + system, best of ``repeat`` cold processes) of two commands run
back to back, so that a loaded machine slows both alike; peak RSS is the larger of the two.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Run:
    cpu: float
    wall: float
    rss: float
    status: int


def measure(argv: Sequence[str], cwd: Path, repeat: int) -> Run:
    """Best CPU and wall seconds, peak RSS MiB and the exit status of ``argv`` run ``repeat`` times."""
    cpu = wall = float("inf")
    rss, status = 0.0, 0
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    for _ in range(repeat):
        start = os.times().elapsed
        with open(os.devnull, "wb") as sink:
            proc = subprocess.Popen(argv, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL, env=env)
            _, raw, usage = os.wait4(proc.pid, 0)
        wall = min(wall, os.times().elapsed - start)
        cpu = min(cpu, usage.ru_utime + usage.ru_stime)
        rss = max(rss, usage.ru_maxrss / 1024)
        status = os.waitstatus_to_exitcode(raw)
    return Run(cpu, wall, rss, status)


@dataclass(frozen=True)
class Row:
    scenario: str
    measured: Run
    reference: Run
    target: float
    wall: bool = False  # compare wall seconds (work in parallel), not CPU seconds
    paired: float | None = None  # the median of the CPU ratios of paired runs, when the row was measured so

    @property
    def ratio(self) -> float:
        if self.paired is not None:
            return self.paired
        if self.wall:
            return self.measured.wall / self.reference.wall
        return self.measured.cpu / self.reference.cpu

    def markdown(self) -> str:
        rss = max(self.measured.rss, self.reference.rss)
        ok = self.ratio <= self.target and rss <= 300
        measured, reference = (self.measured.wall, self.reference.wall) if self.wall else \
            (self.measured.cpu, self.reference.cpu)
        return (f"| {self.scenario} | {measured:.3f} | {reference:.3f} | {self.ratio:.2f} | "
                f"≤ {self.target:g} | {rss:.0f} | {'yes' if ok else '**no**'} |")


HEADER = ("| scenario | CPU s | reference CPU s | ratio | target | peak RSS MiB | met |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")


def one_file(path: Path, count: int, refused_every: int, template: str, pick: object, first: int = 0) -> None:
    """``count`` VMs in one file, numbered from ``first`` (their names and namespaces); every
    ``refused_every``-th (0: none) names a pair KubeVirt refuses."""
    docs = []
    for i in range(first, first + count):
        it, pref = pick(i)  # type: ignore[operator]
        if refused_every and i % refused_every == 0:
            it, pref = "u1.medium", "rhel.9.dpdk"  # 1 vCPU against the preference's 2 threads: refused
        docs.append(template.format(i=i, team=i % 10, it=it, pref=pref))
    path.write_text("---\n".join(docs))


def _fresh(work: Path, source: Path, name: str, transform: object = None) -> list[str]:
    """A copy of ``source`` (a file, or a folder of files) named ``name``, through ``transform``; its -f arguments."""
    target = work / name
    if target.is_dir():
        shutil.rmtree(target)
    if source.is_dir():
        shutil.copytree(source, target)
        if transform is not None:
            for f in target.iterdir():
                f.write_text(transform(f.read_text()))  # type: ignore[operator]
        return ["-R", "-f", name]
    text = source.read_bytes().decode("utf-8")
    target.write_bytes((transform(text) if transform else text).encode("utf-8"))  # type: ignore[operator]
    return ["-f", name]


def style_rows(exe: Path, work: Path, count: int, repeat: int, pick: object,
               names: Sequence[str]) -> tuple[list[Row], list[str]]:
    """Issue 25: every editing command on one file of ``count`` VMs of each YAML style against ``render`` of the
    same file (target 5×), and which path (splice or round-trip editor) ``--write`` took for its documents."""
    import styles  # bench/styles.py, beside this script

    rows: list[Row] = []
    notes: list[str] = []
    for style in names:
        if style == "json":  # one JSON VM per file: a tree of files
            folder = work / "style-json"
            folder.mkdir(exist_ok=True)
            for i in range(count):
                it, pref = pick(i)  # type: ignore[operator]
                (folder / f"vm-{i}.json").write_text(styles.vm("json", i, i % 10, it, pref))
            source, args = folder, ["-R", "-f", folder.name]
        else:
            source = work / f"style-{style}.yaml"
            source.write_bytes(styles.stream(style, count, pick).encode("utf-8"))
            args = ["-f", source.name]
        render = measure([str(exe), "render", *args], work, repeat)

        commands = [("--check", ["render", "--check"], None), ("--diff", ["render", "--diff"], None),
                    ("--write", ["render", "--write"], None),
                    ("suggest --write", ["suggest", "--write"], styles.hand_sized),
                    ("convert --write", ["convert", "--write"], None)]
        for label, argv, transform in commands:
            runs = []
            for _ in range(repeat):
                target = _fresh(work, source, f"target-{style}" + ("" if source.is_dir() else ".yaml"), transform)
                runs.append(measure([str(exe), *argv, *target], work, 1))
            run = min(runs, key=lambda r: r.cpu)
            reference, against = render, "its render"
            if transform is not None:  # suggest's search renders every candidate: the write is what is measured
                reference = measure([str(exe), "suggest", *_fresh(work, source, "reference-hand-sized"
                                     + ("" if source.is_dir() else ".yaml"), transform)], work, repeat)
                against = "suggest printing (the search alone)"
            rows.append(Row(f"{style}: {label} of {count} VMs vs {against}", run, reference, 5.0))
        target = _fresh(work, source, f"paths-{style}" + ("" if source.is_dir() else ".yaml"))
        said = subprocess.run([str(exe), "render", "--write", *target], cwd=work, capture_output=True, text=True,
                              env={**os.environ, "KUBECTL_INSTANCETYPE_WRITE_PATHS": "1"}).stderr
        paths = [line for line in said.splitlines() if line.startswith("write paths:")]
        notes.append(f"{style}: --write {paths[0] if paths else 'write paths: none (JSON files keep their layout)'}")
    return rows, notes


def single_file_rows(exe: Path, python: Path, work: Path, sizes: Sequence[int], repeat: int, template: str,
                     pick: object, floor: str) -> list[Row]:
    """Refused VMs, clean VMs against the floor, and --write against render, in one file of each size."""
    rows: list[Row] = []
    per_vm: dict[str, list[tuple[int, Run]]] = {}
    for size in sizes:
        times = 1 if size >= 10_000 else repeat
        clean, refused = work / f"clean-{size}.yaml", work / f"refused-{size}.yaml"
        one_file(clean, size, 0, template, pick)
        one_file(refused, size, 10, template, pick)
        render_clean = measure([str(exe), "render", "-f", clean.name], work, times)
        render_refused = measure([str(exe), "render", "-f", refused.name], work, times)
        rows.append(Row(f"{size} VMs in one file, 10 % refused, vs the same file clean", render_refused,
                        render_clean, 1.25))
        floor_dir = work / f"floor-{size}"
        floor_dir.mkdir(exist_ok=True)
        (floor_dir / "vms.yaml").write_text(clean.read_text())
        floor_run = measure([str(python), "-c", floor, str(floor_dir)], work, times)
        rows.append(Row(f"{size} clean VMs in one file (the whole webhooks checked) vs ruamel's C load + dump",
                        render_clean, floor_run, 0.75))
        writes = []
        for _ in range(times):
            target = work / f"write-{size}.yaml"
            target.write_text(clean.read_text())
            writes.append(measure([str(exe), "render", "-f", target.name, "--write"], work, 1))
        write = min(writes, key=lambda r: r.cpu)
        rows.append(Row(f"--write of {size} VMs in one file, all changing, vs its render", write, render_clean,
                        5.0))
        for name, run in (("render", render_clean), ("refused", render_refused), ("--write", write)):
            per_vm.setdefault(name, []).append((size, run))
    for name, runs in per_vm.items():
        (small, a), (large, b) = runs[0], runs[-1]
        if large > small:
            scaled = Run(b.cpu / (large / small), b.wall, b.rss, b.status)
            rows.append(Row(f"linear: {name} of {large} VMs per VM vs {small}", scaled, a, 1.5))
    return rows


COLD_FLOOR = "import click, ruamel.yaml, _ruamel_yaml"  # the imports the design fixes: click, ruamel's C loader


def cold_start_row(exe: Path, python: Path, example: Path, repeat: int) -> Row:
    """One VM in a cold process against a process that imports click and ruamel.yaml's C loader and does
    nothing (issue 25: the floor the design fixes), measured in the same run."""
    return Row("cold start: render of 1 VM vs a process importing click and ruamel.yaml's C loader",
               measure([str(exe), "render", "-f", str(example)], example.parent, repeat * 3),
               measure([str(python), "-c", COLD_FLOOR], example.parent, repeat * 3), 1.75)


def cold_start_floor(python: Path, row: Row, cwd: Path, repeat: int) -> str:
    """The cold start's floor against ``python -c pass``, and what the tool's own imports and work add."""
    bare = measure([str(python), "-c", "pass"], cwd, repeat * 3)
    floor = row.reference
    return (f"cold start: importing click and ruamel.yaml's C loader costs {floor.cpu / bare.cpu:.2f}× "
            f"`python -c pass` ({floor.cpu:.3f} s CPU against {bare.cpu:.3f} s); the tool's own imports and work "
            f"add {row.measured.cpu - floor.cpu:.3f} s")


def jobs_row(exe: Path, work: Path, repeat: int, template: str, pick: object, vms: int = 10_000,
             per_file: int = 10) -> Row:
    """``render --jobs 2`` against ``--jobs 1`` of ``vms`` VMs in files of ``per_file`` (wall seconds: the
    point is to use both cores; target 0.6× on a 2-core machine), with the same output."""
    tree = work / "jobs-tree"
    for f in range(vms // per_file):
        folder = tree / f"team-{f % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        # numbered across files: a repository names each VM once (the same names in every file would be
        # 9,990 "also defined at" warnings, which is not the work this row measures)
        one_file(folder / f"vms-{f}.yaml", per_file, 0, template, pick, first=f * per_file)
    argv = [str(exe), "render", "-R", "-f", tree.name]
    times = max(1, min(repeat, 2))
    one, two = measure([*argv, "--jobs", "1"], work, times), measure([*argv, "--jobs", "2"], work, times)
    same = [subprocess.run([*argv, "--jobs", n], cwd=work, capture_output=True).stdout for n in ("1", "2")]
    label = f"{vms} VMs in {vms // per_file} files: render --jobs 2 vs --jobs 1 (wall s)"
    return Row(label if same[0] == same[1] else label + " **output differs**", two, one, 0.6, wall=True)


BIGGER = {"u1.medium": "u1.large", "u1.large": "u1.xlarge", "cx1.large": "cx1.xlarge", "o1.xlarge": "o1.2xlarge",
          "d1.2xlarge": "d1.4xlarge", "m1.large": "m1.xlarge", "n1.xlarge": "n1.2xlarge"}


def restart_row(exe: Path, work: Path, repeat: int, template: str, pick: object, vms: int = 400) -> Row:
    """Issue 31: a pull request resizing ``vms`` VMs (each to the next size of its series) in a git repository,
    ``diff --restart-impact`` against the same ``diff`` without it (target 1.5×)."""
    repo = work / "restart-pr"
    repo.mkdir(exist_ok=True)
    vms_file = repo / "vms.yaml"
    one_file(vms_file, vms, 0, template, pick)

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args], cwd=repo,
                       check=True, capture_output=True)

    git("init", "-q")
    git("add", "vms.yaml")
    git("commit", "-qm", "base")
    text = vms_file.read_text()
    for small, big in BIGGER.items():
        text = text.replace(f"name: {small}  # size", f"name: {big}  # size")
    vms_file.write_text(text)
    git("commit", "-qam", "resize")
    argv = [str(exe), "diff", "--base", "HEAD~1", "-o", "json", "vms.yaml"]
    return Row(f"a {vms}-VM pull request (every VM resized): diff --restart-impact vs the same diff",
               measure([*argv, "--restart-impact"], repo, repeat), measure(argv, repo, repeat), 1.5)


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_build", ROOT / "release" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def krew_rows(work: Path, example: Path, big: Path, repeat: int, python: Path) -> tuple[list[Row], list[str]]:
    """The krew archive (built here for this machine) against a pip install, with each supported Python.

    ``python`` builds the archives: an interpreter the tool is installed in (the build reads its metadata)."""
    build = load_build()
    pythons = build.find_pythons()
    notes = [f"krew: no CPython {v} here" for v in build.PYTHONS if v not in pythons]
    platform = {"x86_64": ("linux", "amd64"), "aarch64": ("linux", "arm64")}.get(os.uname().machine)
    if sys.platform == "darwin":
        platform = ("darwin", "arm64" if os.uname().machine == "arm64" else "amd64")
    if platform is None:
        return [], [*notes, "krew: no archive for this platform"]
    dist = work / "dist"
    # In a process of its own: the archives' bytes held here would count in every later child's peak RSS.
    subprocess.run([str(python), str(ROOT / "release" / "build.py"), "--out", str(dist), "--manifest",
                    str(dist / "krew-manifest.yaml")], check=True, stdout=subprocess.DEVNULL)
    unpacked = work / "krew"
    with tarfile.open(dist / build.archive_name(platform)) as tar:
        tar.extractall(unpacked, filter="data")
    rows = []
    for version, interpreter in sorted(pythons.items()):
        venv = work / f"pip-{version}"
        subprocess.run([interpreter, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(ROOT)], check=True)
        for label, path in (("1 VM", example), ("1000 VMs in one file", big)):
            argv = ["render", "-f", str(path)]
            archive = measure([interpreter, str(unpacked / "kubectl-instancetype"), *argv], work, repeat)
            pip = measure([str(venv / "bin" / "kubectl-instancetype"), *argv], work, repeat)
            rows.append(Row(f"krew archive vs pip install, CPython {version}, {label}", archive, pip, 1.3))
    return rows, notes


def drift_rows(exe: Path, work: Path, repeat: int, template: str, pick: object, vms: int = 8000) -> list[Row]:
    """drift's rule outputs and --against, each against ``drift -o text`` of the same VMs in the same run:
    linear like it (issue 30 H3: -o argocd took 136 s for 8,000 VMs where -o text took 4 s)."""
    path = work / f"drift-{vms}.yaml"
    one_file(path, vms, 0, template, pick)
    times = 1 if vms >= 10_000 else repeat
    text = measure([str(exe), "drift", "-o", "text", "-f", path.name], work, times)
    rows = []
    for output in ("argocd", "argocd-cm", "flux"):
        run = measure([str(exe), "drift", "-o", output, "-f", path.name], work, times)
        rows.append(Row(f"drift -o {output} of {vms} VMs vs drift -o text", run, text, 1.25))
    rules = work / f"drift-{vms}-argocd.yaml"
    with open(rules, "wb") as sink:
        subprocess.run([str(exe), "drift", "-o", "argocd", "-f", path.name], cwd=work, stdout=sink, check=False)
    against = measure([str(exe), "drift", "-f", path.name, "--against", rules.name], work, times)
    rows.append(Row(f"drift --against its -o argocd rules ({vms} VMs, a rule each) vs drift -o text", against,
                    text, 1.5))
    return rows


def perf_rows(exe: Path, python: Path, repeat: int, template: str, pick: object,
              floor: str) -> tuple[list[Row], list[str]]:
    """Issue 25's rows alone: the cold start, 1000 clean VMs against the floor, and --jobs 2."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-perf-") as tmp:
        work = Path(tmp)
        example = work / "vm.yaml"
        one_file(example, 1, 0, template, pick)
        rows = [cold_start_row(exe, python, example, repeat)]
        clean = work / "clean-1000.yaml"
        one_file(clean, 1000, 0, template, pick)
        floor_dir = work / "floor-1000"
        floor_dir.mkdir()
        (floor_dir / "vms.yaml").write_text(clean.read_text())
        rows.append(Row("1000 clean VMs in one file (the whole webhooks checked) vs ruamel's C load + dump",
                        measure([str(exe), "render", "-f", clean.name], work, repeat),
                        measure([str(python), "-c", floor, str(floor_dir)], work, repeat), 0.75))
        rows.append(jobs_row(exe, work, repeat, template, pick))
        return rows, [cold_start_floor(python, rows[0], work, repeat)]


# Issue 38: the cluster objects a launcher Pod's render reads, beside the VMs (one PVC, a quota, a namespace)
POD_CLUSTER = """\
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard-{team}
  annotations:
    storageclass.kubernetes.io/is-default-class: "{default}"
provisioner: example.com/csi
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
  namespace: team-{team}
spec:
  hard:
    limits.memory: 512Gi
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-{team}
  labels:
    alpha.kubevirt.io/auto-memory-limits-ratio: "1.5"
"""


def pod_row(exe: Path, work: Path, repeat: int, template: str, pick: object, vms: int = 1000) -> Row:
    """Issue 38: ``render --pod`` of ``vms`` VMs (with the quotas and namespaces of their teams) against
    ``render --vmi`` of the same file (target 1.5×)."""
    path = work / f"pod-{vms}.yaml"
    one_file(path, vms, 0, template, pick)
    teams = "---\n".join(POD_CLUSTER.format(team=t, default=str(t == 0).lower()) for t in range(10))
    path.write_text(path.read_text() + "---\n" + teams)
    argv = [str(exe), "render", "-f", path.name, "-o", "json"]
    return Row(f"{vms} VMs in one file: render --pod vs render --vmi", measure([*argv, "--pod"], work, repeat),
               measure([*argv, "--vmi"], work, repeat), 1.5)


def pod_rows(exe: Path, repeat: int, template: str, pick: object) -> tuple[list[Row], list[str]]:
    """Issue 38's row alone (run.py --only-pod)."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-pod-") as tmp:
        return [pod_row(exe, Path(tmp), repeat, template, pick)], []


def restart_rows(exe: Path, repeat: int, template: str, pick: object) -> tuple[list[Row], list[str]]:
    """Issue 31's row alone (run.py --only-restart)."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-restart-") as tmp:
        return [restart_row(exe, Path(tmp), repeat, template, pick)], []


# Issue 30: the VM users write, fuller than run.py's VM_TEMPLATE (examples/vm.yaml grown the way a team grows it):
# labels and annotations, comments, two disks (the container disk and a data volume) and a cloud-init disk, an
# interface with its network, and a cloud-init of a dozen lines.
FULLER_VM = """\
# VM {i} of team {team}: a web server, managed in git and expanded by kubectl-instancetype
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web-{i}
  namespace: team-{team}
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/part-of: shop-{team}
    app.kubernetes.io/managed-by: argocd
    environment: production
  annotations:
    description: "Web front end {i}, see the runbook"
    vm.kubevirt.io/os: fedora
spec:
  runStrategy: Always  # always on
  instancetype:
    name: {it}  # size: bump it to scale up
  preference:
    name: {pref}
  dataVolumeTemplates:
  - metadata:
      name: web-{i}-data
    spec:
      storage:
        resources:
          requests:
            storage: 20Gi
      source:
        blank: {{}}
  template:
    metadata:
      labels:
        kubevirt.io/domain: web-{i}
        app.kubernetes.io/name: web
    spec:
      domain:
        devices:
          disks:
          - name: rootdisk  # the OS
            bootOrder: 1
            disk:
              bus: virtio
          - name: datadisk  # the site's files
            disk:
              bus: virtio
          - name: cloudinitdisk
            disk:
              bus: virtio
          interfaces:
          - name: default
            masquerade: {{}}
            ports:
            - name: http
              port: 80
            - name: https
              port: 443
      networks:
      - name: default
        pod: {{}}
      volumes:
      - name: rootdisk
        containerDisk:
          image: quay.io/containerdisks/fedora:41
      - name: datadisk
        dataVolume:
          name: web-{i}-data
      - name: cloudinitdisk
        cloudInitNoCloud:
          userData: |
            #cloud-config
            hostname: web-{i}
            user: fedora
            password: fedora
            chpasswd: {{ expire: False }}
            ssh_authorized_keys:
              - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyForTheBenchmark team-{team}@example.com
            packages:
              - nginx
              - git
            runcmd:
              - systemctl enable --now nginx
              - git clone https://git.example.com/team-{team}/site.git /usr/share/nginx/html
"""


def fuller_row(exe: Path, python: Path, work: Path, repeat: int, pick: object, floor: str,
               count: int = 1000) -> Row:
    """Issue 30: ``count`` fuller VMs (:data:`FULLER_VM`) in one file against ruamel's C load + dump of it."""
    path = work / f"fuller-{count}.yaml"
    one_file(path, count, 0, FULLER_VM, pick)
    floor_dir = work / f"floor-fuller-{count}"
    floor_dir.mkdir(exist_ok=True)
    (floor_dir / "vms.yaml").write_text(path.read_text())
    return Row(f"{count} fuller VMs (cloud-init, two disks, an interface, labels, comments) in one file vs "
               "ruamel's C load + dump", measure([str(exe), "render", "-f", path.name], work, repeat),
               measure([str(python), "-c", floor, str(floor_dir)], work, repeat), 0.75)


# Issue 36: the VM people write small: a name, an instancetype, a preference and one disk.
SMALL_VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i}
spec:
  runStrategy: Always
  instancetype:
    name: {it}
  preference:
    name: {pref}
  template:
    spec:
      domain:
        devices: {{}}
      volumes:
      - name: rootdisk
        containerDisk:
          image: quay.io/containerdisks/fedora:41
"""


def paired(measured: Sequence[str], reference: Sequence[str], cwd: Path, pairs: int) -> tuple[Run, Run, float]:
    """``measured`` and ``reference`` run one after the other ``pairs`` times (so that a busy machine slows both
    alike): the median run of each and the median of the pairs' CPU ratios."""
    runs = [(measure(measured, cwd, 1), measure(reference, cwd, 1)) for _ in range(pairs)]
    by_ratio = sorted(runs, key=lambda pair: pair[0].cpu / pair[1].cpu)
    mine = sorted((m for m, _ in runs), key=lambda run: run.cpu)[len(runs) // 2]
    theirs = sorted((r for _, r in runs), key=lambda run: run.cpu)[len(runs) // 2]
    middle = by_ratio[len(runs) // 2]
    return mine, theirs, middle[0].cpu / middle[1].cpu


def small_row(exe: Path, python: Path, work: Path, repeat: int, pick: object, floor: str, count: int = 1000) -> Row:
    """Issue 36: ``count`` small VMs (:data:`SMALL_VM`) in one file against ruamel's C load + dump of it, the
    median ratio of paired runs (at least 5 pairs)."""
    path = work / f"small-{count}.yaml"
    one_file(path, count, 0, SMALL_VM, pick)
    floor_dir = work / f"floor-small-{count}"
    floor_dir.mkdir(exist_ok=True)
    (floor_dir / "vms.yaml").write_text(path.read_text())
    mine, theirs, ratio = paired([str(exe), "render", "-f", path.name], [str(python), "-c", floor, str(floor_dir)],
                                 work, max(5, repeat))
    return Row(f"{count} small VMs (a name, an instancetype, a preference, one disk) in one file vs ruamel's C "
               "load + dump (median of paired runs)", mine, theirs, 0.75, paired=ratio)


def small_rows(exe: Path, python: Path, repeat: int, pick: object, floor: str) -> list[Row]:
    """The small VM's row alone, in a directory of its own."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-small-") as tmp:
        return [small_row(exe, python, Path(tmp), repeat, pick, floor)]


def fuller_rows(exe: Path, python: Path, repeat: int, pick: object, floor: str) -> list[Row]:
    """The fuller VM's row alone, in a directory of its own."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-fuller-") as tmp:
        return [fuller_row(exe, python, Path(tmp), repeat, pick, floor)]


def all_rows(exe: Path, python: Path, sizes: Sequence[int], repeat: int, template: str, pick: object,
             floor: str, krew: bool) -> tuple[list[Row], list[str]]:
    with tempfile.TemporaryDirectory(prefix="kit-bench-targets-") as tmp:
        work = Path(tmp)
        example = work / "vm.yaml"
        one_file(example, 1, 0, template, pick)
        rows = [cold_start_row(exe, python, example, repeat)]
        rows += single_file_rows(exe, python, work, sizes, repeat, template, pick, floor)
        rows.append(fuller_row(exe, python, work, repeat, pick, floor))
        rows.append(small_row(exe, python, work, repeat, pick, floor))
        rows.append(jobs_row(exe, work, repeat, template, pick))
        rows.append(restart_row(exe, work, repeat, template, pick))
        rows.append(pod_row(exe, work, repeat, template, pick))
        rows += drift_rows(exe, work, repeat, template, pick)
        notes = [cold_start_floor(python, rows[0], work, repeat)]
        if krew:
            big = work / "1000-vms.yaml"
            one_file(big, 1000, 0, template, pick)
            more, krew_notes = krew_rows(work, example, big, repeat, python)
            rows += more
            notes += krew_notes
        return rows, notes
