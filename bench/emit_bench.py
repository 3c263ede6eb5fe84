"""Time ``dump_yaml_all``/``dump_json`` against ruamel's C dumper on 1000 expanded VMs.

Run: ``python bench/emit_bench.py [count] [repeats]``. The VMs are the conformance corpus's expected
outputs, cycled and renamed so that names differ as they would in a real render. Prints figures only.
"""

from __future__ import annotations

import copy
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from kubectl_instancetype.yamlio.emit import dump_json, dump_yaml_all

CASES = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance" / "cases"


def sample_vms(count: int) -> list[Any]:
    """``count`` expanded VMs from the corpus, each with its own name."""
    corpus = [json.loads(p.read_text()) for p in sorted(CASES.glob("*/expected.json"))]
    vms = []
    for i in range(count):
        vm = copy.deepcopy(corpus[i % len(corpus)])
        vm.setdefault("metadata", {})["name"] = f"vm-{i:05d}"
        vms.append(vm)
    return vms


def ruamel_c(vms: list[Any]) -> str:
    yaml = YAML(typ="safe", pure=False)
    yaml.default_flow_style = False
    stream = io.StringIO()
    yaml.dump_all(vms, stream)
    return stream.getvalue()


def best_of(repeats: int, fn: Callable[[], str]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str]) -> None:
    count = int(argv[1]) if len(argv) > 1 else 1000
    repeats = int(argv[2]) if len(argv) > 2 else 5
    vms = sample_vms(count)
    ours = best_of(repeats, lambda: dump_yaml_all(vms))
    theirs = best_of(repeats, lambda: ruamel_c(vms))
    as_json = best_of(repeats, lambda: "".join(dump_json(vm) for vm in vms))
    size = len(dump_yaml_all(vms))
    print(f"{count} VMs, {size} bytes of YAML, best of {repeats}")
    print(f"  dump_yaml_all        {ours * 1000:8.1f} ms")
    print(f"  ruamel C dumper      {theirs * 1000:8.1f} ms   ({theirs / ours:.1f}x slower)")
    print(f"  dump_json (per VM)   {as_json * 1000:8.1f} ms")


if __name__ == "__main__":
    main(sys.argv)
