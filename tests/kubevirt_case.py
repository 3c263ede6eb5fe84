"""How a case whose expectations KubeVirt's own code produced is run and compared, in-process.

A case is a directory with ``input.yaml`` and, per mode, the expected document (``expected.json``,
``expected-vmi.json``) or KubeVirt's error (``error.txt``, ``error-vmi.txt``: the message, then a
``stage:`` line), and the warnings KubeVirt's webhooks answer with (``warnings.txt``, ``warnings-vmi.txt``: one
a line). The comparison rule is the conformance runner's ``normalise``/``diff`` (testdata/conformance),
shared by the public corpus (test_conformance.py) and our own KubeVirt answers (test_kubevirt_answers.py).
The cases model a cluster that holds exactly their objects, so the built-in catalog is off.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import CONFORMANCE, load_script

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.cli.render import vm_renderer
from kubectl_instancetype.errors import KubeVirtError
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render

RUNNER = CONFORMANCE / "runner.py"


def _runner() -> Any:
    return load_script(RUNNER, "conformance_runner")


RUNNER_MODULE = _runner() if RUNNER.exists() else None


def case_names(directory: Path) -> list[str]:
    """The cases under ``directory`` (none when it is missing)."""
    return sorted(p.name for p in directory.iterdir() if p.is_dir()) if directory.exists() else []


def release_of_case(case: Path) -> str:
    """The KubeVirt release whose code made ``case``: the tag of ``conformance-releases/<tag>/cases``, else
    the tag a ``release`` file in the case names (a case of testdata/kubevirt-answers made by a release's
    kv-expand), else ``main`` (the main corpora: kubevirt/kubevirt d923fdb8)."""
    if (case / "release").is_file():
        return (case / "release").read_text(encoding="utf-8").strip()
    parts = case.resolve().parts
    if "conformance-releases" in parts:
        return parts[parts.index("conformance-releases") + 1]
    return "main"


def render_case(case: Path, vmi: bool, version: str | None = None) -> tuple[Any, list[str], list[str]]:
    """The rendered VM (or VMI) of a case, the error messages (KubeVirt's and whatever else refused an input)
    and the warnings, loaded and rendered as the CLI does it with ``--kubevirt-version`` ``version`` (by
    default the release that made the case)."""
    request = Request((str(case / "input.yaml"),), builtin=False, kubevirt_version=version or release_of_case(case))
    loaded = gather(request, FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config), vm_renderer(vmi))
    wanted = "VirtualMachineInstance" if vmi else "VirtualMachine"
    outputs = [i.rendered for i in result.items if isinstance(i.rendered, dict)]
    rendered = next((doc for doc in outputs if doc.get("kind") == wanted), None)
    warnings = [n.message for item in result.items for n in item.warnings]
    # what loading refused counts as the runner counts stderr: KubeVirt's mutating webhook is called by the API
    # server before the CRD validation, and an object the cluster cannot hold fails the run as well
    problems = [*loaded.problems, *(p for p in result.problems if isinstance(p, KubeVirtError))]
    return rendered, [p.message for p in problems], warnings


def _is_refusal(error: str, message: str) -> bool:
    """``error`` (ours: ``VirtualMachine ns/name: <message>``, perhaps with a `` (hint: …)`` after it) is KubeVirt's
    ``message``, whole: no cause more and none less."""
    at = error.find(message)
    rest = error[at + len(message):] if at >= 0 else ""
    return at >= 0 and (at == 0 or error[:at].endswith(": ")) and (rest == "" or rest.startswith(" ("))


def check_case(case: Path, vmi: bool) -> None:
    """Assert that our render of ``case`` is KubeVirt's answer in the given mode."""
    assert RUNNER_MODULE is not None
    expected_file = case / ("expected-vmi.json" if vmi else "expected.json")
    error_file = case / ("error-vmi.txt" if vmi else "error.txt")
    warnings_file = case / ("warnings-vmi.txt" if vmi else "warnings.txt")
    rendered, errors, warnings = render_case(case, vmi)
    if warnings_file.exists():
        for wanted in warnings_file.read_text(encoding="utf-8").splitlines():
            assert any(wanted in w for w in warnings), f"expected warning {wanted!r}, got {warnings!r}"
    if error_file.exists():
        message, _stage = RUNNER_MODULE.read_error_file(error_file)
        assert any(_is_refusal(e, message) for e in errors), f"expected error {message!r}, got {errors!r}"
        return
    assert not errors, errors
    mode = "vmi" if vmi else "vm"
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    normalise = RUNNER_MODULE.normalise
    differences = RUNNER_MODULE.diff(normalise(expected, mode), normalise(rendered, mode))
    assert not differences, "\n".join(differences)
