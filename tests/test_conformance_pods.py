"""The virt-launcher Pod (render --pod): every case of testdata/conformance-pods (main, and per release tag)
and of testdata/launcher-answers, rendered in-process as the CLI renders it and compared with the corpus
runner's rule (runner.py: normalise, diff). The expectations were made by KubeVirt's TemplateService at each
tag (README.md there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import load_script

from kubectl_instancetype.cli.inputs import FILES
from kubectl_instancetype.cli.launcher import launcher_renderer
from kubectl_instancetype.inputs import Request, gather
from kubectl_instancetype.render import Options, render

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "conformance-pods"
CORPORA = {"main": ROOT / "cases", "v1.9.0": ROOT / "v1.9.0" / "cases", "v1.8.4": ROOT / "v1.8.4" / "cases",
           # our own: VMs exercising what the corpus rarely meets, answered by KubeVirt at main (README there)
           "answers": ROOT.parent / "launcher-answers",
           # KubeVirt's answers at older tags, each pinning a release fact of the launcher Pod (README there)
           **{f"releases-{tag}": ROOT.parent / "launcher-releases" / tag for tag in ("v1.8.4", "v1.7.4", "v1.6.6")}}
VERSIONS = {"answers": "main", **{f"releases-{tag}": tag for tag in ("v1.8.4", "v1.7.4", "v1.6.6")}}
RUNNER = load_script(ROOT / "runner.py", "pods_runner") if (ROOT / "runner.py").exists() else None
CASES = [(tag, p.name) for tag, d in CORPORA.items() if d.exists() for p in sorted(d.iterdir()) if p.is_dir()]

# Cases that do not pass, each with why (strict: one that starts passing fails here until taken off the list).
ORACLE_NAD_V184 = ("the v1.8.4 oracle finds no NetworkAttachmentDefinition of the input; KubeVirt v1.8.4 reads "
                   "the one the input holds")


def _pending() -> dict[tuple[str, str], str]:
    out = {}
    for tag, name in CASES:
        text = (CORPORA[tag] / name / "input.yaml").read_text(encoding="utf-8")
        if tag == "v1.8.4" and "failed to locate network attachment definition" in _error(tag, name) \
                and "kind: NetworkAttachmentDefinition" in text:
            out[(tag, name)] = ORACLE_NAD_V184
    return out


def _error(tag: str, name: str) -> str:
    path = CORPORA[tag] / name / "error-pod.txt"
    return path.read_text(encoding="utf-8").strip() if path.exists() else ""


PENDING = _pending() if CASES else {}


def _params() -> list[Any]:
    return [pytest.param(tag, name, marks=pytest.mark.xfail(reason=PENDING[(tag, name)], strict=True))
            if (tag, name) in PENDING else pytest.param(tag, name) for tag, name in CASES]


def render_pod_case(case: Path, version: str) -> tuple[Any, list[str]]:
    """The Pod of a case (or None) and the problems, loaded and rendered as ``render --pod`` does."""
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    loaded = gather(Request((str(case / "input.yaml"),), builtin=False, kubevirt_version=version,
                            as_stored=("KubeVirt",)), FILES)
    result = render(loaded.documents, loaded.catalog, Options(config=loaded.config),
                    launcher_renderer(loaded, meta["launcher_image"]))
    pods = [i.rendered for i in result.items if i.is_vm and isinstance(i.rendered, dict)]
    problems = [str(p) for p in (*loaded.problems, *result.problems)]
    return (pods[0] if pods else None), problems


@pytest.mark.skipif(not CASES or RUNNER is None, reason="testdata/conformance-pods is missing: scripts/refresh-corpus")
@pytest.mark.parametrize(("tag", "name"), _params())
def test_pod_case(tag: str, name: str) -> None:
    case = CORPORA[tag] / name
    pod, problems = render_pod_case(case, VERSIONS.get(tag, tag))
    expected = case / "expected-pod.json"
    if expected.exists():
        assert not problems, problems  # a KubeVirt CR's unknown field is a warning here (read as stored)
        assert RUNNER is not None
        differences = RUNNER.diff(RUNNER.normalise(json.loads(expected.read_text(encoding="utf-8"))),
                                  RUNNER.normalise(pod))
        assert not differences, differences
    else:
        error = _error(tag, name)
        assert pod is None
        assert any(error in p for p in problems), (error, problems)
