"""How template processing scales: the time for N and for 4N of one shape, and their ratio (about 4 when linear,
16 when quadratic), each pair measured in one run.

Run: ``python bench/template_scaling.py [N]`` (default 20000). The shapes are issue 36's H4 and H5: N ``${X}``
references in one string, N ``[a]{1}`` expressions in one generated parameter's ``from``, N parameters nothing
references (each a warning located in the file), N references in the template's message. Prints figures only.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from kubectl_instancetype.vmtemplate.generator import Entropy, generate
from kubectl_instancetype.vmtemplate.source import load_template
from kubectl_instancetype.vmtemplate.stage import stage
from kubectl_instancetype.vmtemplate.substitution import substitute
from kubectl_instancetype.yamlio import load_stream

VM = """  virtualMachine:
    apiVersion: kubevirt.io/v1
    kind: VirtualMachine
    metadata:
      name: ${NAME}
    spec:
      runStrategy: Always
      template:
        spec:
          domain:
            devices: {}
"""


def unused_parameters(n: int) -> Callable[[], object]:
    """A template of ``n`` parameters nothing references, staged as render stages it (one warning each)."""
    params = "".join(f"  - name: P{i}\n    value: v\n" for i in range(n))
    text = ("apiVersion: template.kubevirt.io/v1beta1\nkind: VirtualMachineTemplate\nmetadata:\n  name: t\n"
            f"spec:\n  parameters:\n{params}  - name: NAME\n    value: web\n{VM}")
    docs = load_stream(text, "t.yaml")
    from kubectl_instancetype.api.releases import resolve

    release = resolve("main")
    return lambda: stage(docs, lambda _path, _name: ("{}", "t.params.yaml"), release, True, seed=1)


def references(n: int) -> Callable[[], object]:
    text = "${NAME}" * n
    return lambda: substitute(text, {"NAME": "web"})


def expressions(n: int) -> Callable[[], object]:
    text = "[a]{1}" * n
    return lambda: generate(text, Entropy(1))


def message(n: int) -> Callable[[], object]:
    text = ("apiVersion: template.kubevirt.io/v1beta1\nkind: VirtualMachineTemplate\nmetadata:\n  name: t\n"
            f"spec:\n  message: '{'${NAME}' * n}'\n  parameters:\n  - name: NAME\n    value: web\n{VM}")
    from kubectl_instancetype.vmtemplate.processor import process

    template = load_template(text, "t.yaml").template
    return lambda: process(template, {}, Entropy(1))


def seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    print(f"{'shape':<28}{'N':>8}{'t(N) s':>10}{'t(4N) s':>10}{'ratio':>8}   (linear ~4, quadratic ~16)")
    for name, shape in (("${X} references", references), ("[a]{1} expressions", expressions),
                        ("unused parameters", unused_parameters), ("message references", message)):
        small, large = seconds(shape(n)), seconds(shape(4 * n))
        print(f"{name:<28}{n:>8}{small:>10.3f}{large:>10.3f}{large / small:>8.1f}")


if __name__ == "__main__":
    main()
