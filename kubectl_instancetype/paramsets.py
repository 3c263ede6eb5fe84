"""Every parameter set of a template, processed and admitted or refused as KubeVirt would: the table a template
author needs before publishing (``validate --param-sets``).

A set is a map of parameter values. The sets come from a file (a YAML or JSON list of maps), or from the
template itself: the annotation ``kubectl-instancetype.io/parameter-values`` holds, as YAML or JSON, a map from
parameter names to the list of values each may take, and every combination of them is one set (the first
parameter varies slowest). Each set is processed as ``virtctl template process`` processes it (generated values
from a fixed seed, so that the table is the same on every run), the VM is checked as the API server checks it
on create and rendered through KubeVirt's VM webhooks; a refusal is KubeVirt's (or the engine's) message.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from .catalog import Catalog
from .config import ClusterConfig
from .errors import InputError, ToolError
from .escape.terminal import one_line
from .records import dataclass
from .render import Options, render
from .schema.server import Options as ValidateOptions
from .validation import check_document
from .vmtemplate.generator import Entropy
from .vmtemplate.processor import ProcessError, process
from .vmtemplate.source import LoadedTemplate
from .vmtemplate.stage import prune_nulls
from .yamlio import Document

ANNOTATION = "kubectl-instancetype.io/parameter-values"
SEED = 0  # generated values of every set: the seeded stream of --seed 0


@dataclass(frozen=True)
class Verdict:
    """One parameter set and what KubeVirt answers: ``refusal`` is empty when it admits the VM."""

    values: Mapping[str, str]
    refusal: str = ""
    stage: str = ""  # which step refuses: process, the API server (schema), or KubeVirt's webhooks (admit)

    @property
    def admitted(self) -> bool:
        return not self.refusal


def sets_from_annotation(loaded: LoadedTemplate) -> list[dict[str, str]]:
    """The combinations of the values the template's annotation declares (none without the annotation)."""
    from .yamlio import load_stream

    text = (loaded.template.annotations or {}).get(ANNOTATION)
    if not isinstance(text, str):
        return []
    where = loaded.document.locate(("metadata", "annotations", ANNOTATION))
    try:
        docs = load_stream(text, where.path)
    except InputError as exc:
        raise InputError(f"annotation {ANNOTATION}: {exc.message}", where) from None
    declared = docs[0].data if docs else None
    if not isinstance(declared, dict) or not all(isinstance(v, list) for v in declared.values()):
        raise InputError(f"annotation {ANNOTATION}: expected a map of parameter names to lists of values", where)
    names = [str(name) for name in declared]
    choices = [[_text(v) for v in values] for values in declared.values()]
    return [dict(zip(names, combination, strict=True)) for combination in itertools.product(*choices)]


def _text(value: Any) -> str:
    from .vmtemplate.document import go_string

    return go_string(value, (), True)


def sets_from_file(data: Any, source: str) -> list[dict[str, str]]:
    """A params-sets file: a list of maps of parameter values."""
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise InputError("--param-sets: expected a list of maps of parameter values", _where(source))
    return [{str(k): _text(v) for k, v in item.items()} for item in data]


def _where(source: str) -> Any:
    from .errors import Location

    return Location(source)


def verdicts(loaded: LoadedTemplate, sets: list[dict[str, str]], catalog: Catalog, config: ClusterConfig,
             validate: ValidateOptions, namespace: str) -> Iterator[Verdict]:
    """What KubeVirt answers to each set."""
    for values in sets:
        yield _verdict(loaded, values, catalog, config, validate, namespace)


def _verdict(loaded: LoadedTemplate, values: dict[str, str], catalog: Catalog, config: ClusterConfig,
             validate: ValidateOptions, namespace: str) -> Verdict:
    try:
        processed = process(loaded.template, values, Entropy(SEED), config.release.name)
    except ProcessError as exc:
        return Verdict(values, exc.message, "process")
    doc: Document = loaded.document.nested(prune_nulls(processed.vm), *loaded.template.origin)
    problems: list[ToolError] = []
    checked = check_document(doc, validate, problems, [])
    if checked is None:
        return Verdict(values, "; ".join(p.message for p in problems) or "refused", "schema")
    result = render([checked], catalog, Options(namespace=namespace, config=config))
    if result.problems:
        return Verdict(values, "; ".join(_kubevirt(p) for p in result.problems), "admit")
    return Verdict(values, "", "")


def _kubevirt(problem: ToolError) -> str:
    """KubeVirt's own message, without the ``VirtualMachine ns/name: `` label the render puts in front."""
    message = problem.message
    head, sep, rest = message.partition(": ")
    return rest if sep and head.startswith("VirtualMachine ") else message


def table(name: str, verdicts_: list[Verdict]) -> list[str]:
    """The lines of one template's table."""
    admitted = sum(v.admitted for v in verdicts_)
    lines = [one_line(f"{name}: {len(verdicts_)} parameter sets, {admitted} admitted, "
                      f"{len(verdicts_) - admitted} refused")]
    for verdict in verdicts_:
        values = " ".join(f"{k}={v}" for k, v in verdict.values.items()) or "(defaults)"
        lines.append(f"  {'admitted' if verdict.admitted else 'refused '}  {one_line(values)}")
        if not verdict.admitted:
            lines.append(f"            {one_line(verdict.refusal)}")
    return lines
