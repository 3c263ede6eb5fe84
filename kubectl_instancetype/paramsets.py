"""Every parameter set of a template, processed and admitted or refused as KubeVirt would: the table a template
author needs before publishing (``validate --param-sets``).

A set is a map of parameter values. The sets come from a file (a YAML or JSON list of maps), or from the
template itself: the annotation ``kubectl-instancetype.io/parameter-values`` holds, as YAML or JSON, a map from
parameter names to the list of values each may take, and every combination of them is one set (the first
parameter varies slowest; more than :data:`MAX_SETS` combinations are refused before any is made). Each set
overrides the values ``render`` and ``validate`` use for the template (its params file or ``--template-values``
entry: a required parameter given there is not missing from every set). Each set is processed as ``virtctl
template process`` processes it (generated values from a fixed seed, so that the table is the same on every
run), the VM is checked as the API server checks it on create and rendered through KubeVirt's VM webhooks; a
refusal is KubeVirt's (or the engine's) message.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from .catalog import Catalog
from .config import ClusterConfig
from .errors import InputError, Location, ToolError
from .escape.terminal import one_line
from .records import dataclass
from .render import Options, render
from .schema.server import Options as ValidateOptions
from .validation import check_document
from .vmtemplate.document import DecodeError, read_params
from .vmtemplate.generator import Entropy
from .vmtemplate.processor import ProcessError, process
from .vmtemplate.source import LoadedTemplate, load_params
from .vmtemplate.stage import prune_nulls
from .yamlio import Document

ANNOTATION = "kubectl-instancetype.io/parameter-values"
SEED = 0  # generated values of every set: the seeded stream of --seed 0
MAX_SETS = 10_000  # the most sets one template's annotation may declare: the product is counted before it is made


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
    """The combinations of the values the template's annotation declares (none without the annotation).

    The number of combinations is counted before any is made: more than :data:`MAX_SETS` is refused."""
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
    counts = [len(values) for values in declared.values()]
    total = _product(counts)
    if total is None or total > MAX_SETS:
        sizes = f" ({' × '.join(str(n) for n in counts)} values)" if len(counts) <= 16 else ""
        raise InputError(f"annotation {ANNOTATION}: {_amount(total)} parameter sets{sizes}, more than the limit of "
                         f"{MAX_SETS}", where)
    names = [str(name) for name in declared]
    choices = []
    for name, values in zip(names, declared.values(), strict=True):
        texts = []
        for i, value in enumerate(values):
            try:
                texts.append(_text(name, value))
            except DecodeError as exc:
                raise InputError(f"annotation {ANNOTATION}: {name}[{i}]: {_go_words(exc)}", where) from None
        choices.append(texts)
    return [dict(zip(names, combination, strict=True)) for combination in itertools.product(*choices)]


def _product(counts: list[int]) -> int | None:
    """How many combinations: None when more than 10^100 (not worth counting on)."""
    total = 1
    for n in counts:
        total *= n
        if total > 10**100:
            return None
    return total


def _amount(total: int | None) -> str:
    """A count of sets as people read it: 1000000000000 is 10^12."""
    if total is None:
        return "more than 10^100"
    digits = str(total)
    if len(digits) <= 7:
        return digits
    head = digits[0] + ("." + digits[1:3].rstrip("0") if digits[1:3].rstrip("0") else "")
    return f"{head}×10^{len(digits) - 1}".removeprefix("1×")


def _text(name: str, value: Any) -> str:
    """A value as a params file gives it (a YAML scalar read into a Go string; a map or list is refused)."""
    return read_params({name: value})[name]


def _go_words(exc: DecodeError) -> str:
    """encoding/json's words, without sigs.k8s.io/yaml's ``error unmarshaling JSON: ...`` prefix."""
    text = str(exc)
    return text[text.find("json: "):] if "json: " in text else text


def sets_from_file(doc: Document | None, source: str) -> list[dict[str, str]]:
    """A params-sets file: a list of maps of parameter values, each read as a params file is read."""
    data = doc.data if doc is not None else None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise InputError("--param-sets: expected a list of maps of parameter values", Location(source))
    if not data or doc is None:
        raise InputError("no parameter sets (an empty list)", Location(source))
    out = []
    for i, item in enumerate(data):
        try:
            out.append(read_params(item))
        except DecodeError as exc:
            raise InputError(f"parameter set {i + 1}: {_go_words(exc)}", doc.locate((i, *exc.path))) from None
    return out


def base_values(text: str, source: str) -> dict[str, str]:
    """The values every set starts from: the template's params file (or its --template-values entry)."""
    return load_params(text, source)


def verdicts(loaded: LoadedTemplate, sets: list[dict[str, str]], catalog: Catalog, config: ClusterConfig,
             validate: ValidateOptions, namespace: str, base: Mapping[str, str] | None = None) -> Iterator[Verdict]:
    """What KubeVirt answers to each set, each overriding the ``base`` values (see :func:`base_values`)."""
    for values in sets:
        yield _verdict(loaded, values, catalog, config, validate, namespace, base or {})


def _verdict(loaded: LoadedTemplate, values: dict[str, str], catalog: Catalog, config: ClusterConfig,
             validate: ValidateOptions, namespace: str, base: Mapping[str, str]) -> Verdict:
    try:
        processed = process(loaded.template, {**base, **values}, Entropy(SEED), config.release.name)
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
