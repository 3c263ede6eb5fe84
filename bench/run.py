#!/usr/bin/env python3
"""Benchmark kubectl-instancetype at repository scale and print a markdown table.

    python bench/run.py                      # 1, 100, 1000, 10000 VMs; builds a throw-away install
    python bench/run.py --sizes 1,1000 --exe .venv/bin/kubectl-instancetype
    python bench/run.py --only-styles --styles flow-devices,indented --style-vms 200 \
        --exe .venv/bin/kubectl-instancetype
    python bench/run.py --only-perf --exe .venv/bin/kubectl-instancetype   # issue 25's three rows
    python bench/run.py --only-fuller --exe .venv/bin/kubectl-instancetype # issue 30's fuller VM row

The style rows (issue 25) put every editing command (--check, --diff, --write, suggest --write, convert
--write) on one file of VMs in each YAML style people write (bench/styles.py: devices: {}, indented
sequences, quoted scalars and comments, flow mappings with colons, CRLF, JSON, a mixed repository) against
render of the same file, and say which path --write took for the documents of each.

For each repository size it generates a GitOps-like tree of VirtualMachines (one per file, naming
instancetypes and preferences of the built-in common catalog) and runs each command in a cold process:
wall time (best of --repeat), peak RSS, and the ratio to the floor — parsing and dumping the same files
with ruamel.yaml's C loader and dumper alone, measured in the same run. By default the tool is measured as
users get it: installed (not editable) into a fresh virtualenv with compiled bytecode.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import styles  # bench/styles.py, beside this script
import targets  # bench/targets.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
INSTANCETYPES = ("u1.medium", "u1.large", "cx1.large", "o1.xlarge", "d1.2xlarge", "m1.large", "n1.xlarge")
PREFERENCES = ("fedora", "rhel.9", "ubuntu", "windows.11", "centos.stream9", "opensuse.leap", "rhel.9.dpdk")

VM_TEMPLATE = """\
# VM {i}: managed in git, expanded by kubectl-instancetype
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i}
  namespace: team-{team}
  labels:
    app: web-{team}
spec:
  runStrategy: Always
  instancetype:
    name: {it}  # size
  preference:
    name: {pref}
  template:
    metadata:
      labels:
        kubevirt.io/domain: vm-{i}
    spec:
      domain:
        devices:
          interfaces:
          - name: default
            masquerade: {{}}
      networks:
      - name: default
        pod: {{}}
      volumes:
      - name: rootdisk
        containerDisk:
          image: quay.io/containerdisks/fedora:41
      - name: cloudinit
        cloudInitNoCloud:
          userData: |
            #cloud-config
            password: fedora
            chpasswd: {{ expire: False }}
"""

FLOOR = """\
import sys
from pathlib import Path
from ruamel.yaml import YAML
yaml = YAML(typ="safe", pure=False)
out = sys.stdout
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    docs = list(yaml.load_all(path.read_text()))
    yaml.dump_all(docs, out)
"""


def pick(i: int) -> tuple[str, str]:
    """The instancetype and preference of VM ``i``; rhel.9.dpdk only with n1 (it refuses smaller sizes)."""
    it = INSTANCETYPES[i % len(INSTANCETYPES)]
    pref = PREFERENCES[i % len(PREFERENCES)]
    return it, "rhel.9" if pref == "rhel.9.dpdk" and it != "n1.xlarge" else pref


def generate(root: Path, count: int) -> None:
    """A tree of ``count`` VMs: vms/<team>/vm-<i>.yaml, none of them refused."""
    for i in range(count):
        it, pref = pick(i)
        team = i % 10
        path = root / "vms" / f"team-{team}" / f"vm-{i}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(VM_TEMPLATE.format(i=i, team=team, it=it, pref=pref))


def install(workdir: Path) -> Path:
    """Install this checkout (not editable) into a fresh virtualenv; its kubectl-instancetype."""
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, str(ROOT)], check=True)
    return venv / "bin" / "kubectl-instancetype"


def measure(argv: Sequence[str], cwd: Path, repeat: int) -> tuple[float, float, int]:
    """(best wall seconds, peak RSS MiB, exit status) of ``argv`` run ``repeat`` times."""
    best, rss, status = float("inf"), 0.0, 0
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    for _ in range(repeat):
        start = time.perf_counter()
        with open(os.devnull, "wb") as sink:
            proc = subprocess.Popen(argv, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL, env=env)
            _, raw_status, usage = os.wait4(proc.pid, 0)
        best = min(best, time.perf_counter() - start)
        rss = max(rss, usage.ru_maxrss / 1024)
        status = os.waitstatus_to_exitcode(raw_status)
    return best, rss, status


def commands(exe: Path, write_supported: bool) -> list[tuple[str, list[str], bool]]:
    """(label, argv, needs a fresh copy of the tree) for each measured command."""
    base = [str(exe), "render", "-R", "-f", "vms"]
    out = [("render -o yaml", base, False), ("render -o json", [*base, "-o", "json"], False)]
    if write_supported:
        out += [
            ("--check (all to change)", [*base, "--check"], False),
            ("--write (all to change)", [*base, "--write"], True),
            ("--write (nothing to change)", [*base, "--write"], False),
            ("--check (nothing to change)", [*base, "--check"], False),
        ]
    return out


def run_size(exe: Path, python: Path, size: int, repeat: int, write_supported: bool) -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory(prefix=f"kit-bench-{size}-") as tmp:
        tree = Path(tmp)
        generate(tree, size)
        floor, floor_rss, _ = measure([str(python), "-c", FLOOR, "vms"], tree, repeat)
        rows.append(f"| {size} | floor: ruamel C load + dump | {floor:.3f} | {floor_rss:.0f} | 1.00 |")
        pristine = Path(tmp + "-pristine")
        shutil.copytree(tree / "vms", pristine)
        for label, argv, fresh in commands(exe, write_supported):
            if fresh:
                shutil.rmtree(tree / "vms")
                shutil.copytree(pristine, tree / "vms")
            wall, rss, status = measure(argv, tree, 1 if fresh else repeat)
            note = "" if status in (0, 1) else f" (exit {status})"
            rows.append(f"| {size} | {label}{note} | {wall:.3f} | {rss:.0f} | {wall / floor:.2f} |")
        shutil.rmtree(pristine)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,100,1000,10000", help="comma-separated VM counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command; the best is reported")
    parser.add_argument("--exe", type=Path, help="kubectl-instancetype to measure (default: a fresh install)")
    parser.add_argument("--target-sizes", default="1000,10000",
                        help="VM counts of the one-file rows of the targets table (the largest checks linearity)")
    parser.add_argument("--no-krew", action="store_true", help="leave out the krew archive rows")
    parser.add_argument("--styles", default=",".join(styles.STYLES),
                        help="YAML styles of the editing rows (issue 25), comma-separated, of "
                             f"{', '.join(styles.STYLES)}; empty for none")
    parser.add_argument("--style-vms", type=int, default=300, help="VMs per style (one file; JSON: one file each)")
    parser.add_argument("--only-styles", action="store_true", help="print the style rows alone (no install rows)")
    parser.add_argument("--only-perf", action="store_true",
                        help="print issue 25's rows alone: the cold start and 1000 clean VMs against their floors, "
                             "and 10,000 VMs in 1,000 files with --jobs 2 against --jobs 1")
    parser.add_argument("--only-restart", action="store_true",
                        help="print issue 31's row alone: a 400-VM pull request, diff --restart-impact against diff")
    parser.add_argument("--only-pod", action="store_true",
                        help="print issue 38's row alone: render --pod of 1000 VMs against render --vmi")
    parser.add_argument("--only-fuller", action="store_true",
                        help="print issue 30's row alone: 1000 fuller VMs (cloud-init, two disks, an interface, "
                             "labels and comments) in one file against ruamel's C load + dump")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kit-bench-install-") as work:
        exe = args.exe.resolve() if args.exe else install(Path(work))
        python = exe.parent / "python"
        help_text = subprocess.run([str(exe), "render", "--help"], capture_output=True, text=True).stdout
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"{platform.system()} {platform.release()}")
        rows, notes = [], []
        if args.only_restart:
            rows, notes = targets.restart_rows(exe, args.repeat, VM_TEMPLATE, pick)
            args.styles = ""
        elif args.only_pod:
            rows, notes = targets.pod_rows(exe, args.repeat, VM_TEMPLATE, pick)
            args.styles = ""
        elif args.only_fuller:
            rows = targets.fuller_rows(exe, python, args.repeat, pick, FLOOR)
            args.styles = ""
        elif args.only_perf:
            rows, notes = targets.perf_rows(exe, python, args.repeat, VM_TEMPLATE, pick, FLOOR)
            args.styles = ""
        elif not args.only_styles:
            print("| VMs | command | wall s | peak RSS MiB | × floor |")
            print("| ---: | --- | ---: | ---: | ---: |")
            for size in (int(s) for s in args.sizes.split(",") if s):
                for row in run_size(exe, python, size, args.repeat, "--write" in help_text):
                    print(row, flush=True)
            sizes = [int(s) for s in args.target_sizes.split(",") if s]
            rows, notes = targets.all_rows(exe, python, sizes, args.repeat, VM_TEMPLATE, pick, FLOOR,
                                           not args.no_krew)
        names = [s for s in args.styles.split(",") if s]
        if names:
            with tempfile.TemporaryDirectory(prefix="kit-bench-styles-") as work:
                more, style_notes = targets.style_rows(exe, Path(work), args.style_vms, args.repeat, pick, names)
            rows += more
            notes += style_notes
        print()
        print(targets.HEADER)
        for target_row in rows:
            print(target_row.markdown())
        for note in notes:
            print(f"note: {note}")
        met = all(r.ratio <= r.target and max(r.measured.rss, r.reference.rss) <= 300 for r in rows)
        print(f"targets {'all met' if met else 'NOT all met'} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
