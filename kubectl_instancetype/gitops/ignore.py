"""Ignore rules of Argo CD and Flux as values: which objects a rule selects, and what is left of an object once
the rule's fields are removed — each tool's own algorithm, so that ``drift --against`` covers a field exactly
when the tool would stop seeing it.

Argo CD (util/argo/normalizers/diff_normalizer.go, ``NewIgnoreNormalizer`` and ``Normalize``): a rule applies
to an object when its ``group`` and ``kind`` match as globs (github.com/gobwas/glob: an absent group is the
core group ``""`` and matches no VirtualMachine, an absent kind matches nothing) and its ``name`` and
``namespace`` are empty or equal. Each ``jsonPointers`` entry is a JSON patch ``remove`` of its own, each
``jqPathExpressions`` entry the jq program ``del(EXPR)``; a patch that fails (a missing field, a jq error, a
program with other than one result) is skipped. Both the desired and the live object are normalised, then
compared.

Flux (fluxcd/pkg ssa/jsondiff: unstructured.go ``UnstructuredList``, selector.go): a rule without ``target``
applies to every object; a target's group, version, kind, name and namespace are anchored Go regular
expressions, an empty one matching all, with label and annotation selectors. All ``paths`` are removed from
both objects in one patch that skips missing ones (``AllowMissingPathOnRemove``, negative indices counted from
the end); the path ``""`` excludes the whole object.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import Location
from ..records import dataclass
from .argoglob import glob_match

ARGOCD = "Argo CD"
FLUX = "Flux"
_REMOVED = object()


@dataclass(frozen=True)
class ArgoTarget:
    """An Argo CD ``ignoreDifferences`` entry's selector (globs for group and kind, exact name and namespace)."""

    group: str
    kind: str
    name: str = ""
    namespace: str = ""

    def selects(self, obj: Mapping[str, Any], namespace: str) -> bool:
        group, _, kind = _gvk(obj)
        meta = _meta(obj)
        return (glob_match(self.group, group) and glob_match(self.kind, kind)
                and self.name in ("", str(meta.get("name") or ""))
                and self.namespace in ("", namespace))

    @property
    def exact_name(self) -> str | None:
        return self.name or None


@dataclass(frozen=True)
class FluxTarget:
    """A Flux ``target`` (kustomize's Selector): anchored regular expressions, label and annotation selectors."""

    group: str = ""
    version: str = ""
    kind: str = ""
    name: str = ""
    namespace: str = ""
    labels: Callable[[Mapping[str, str]], bool] | None = None
    annotations: Callable[[Mapping[str, str]], bool] | None = None

    def selects(self, obj: Mapping[str, Any], namespace: str) -> bool:
        group, version, kind = _gvk(obj)
        meta = _meta(obj)
        pairs = ((self.group, group), (self.version, version), (self.kind, kind),
                 (self.name, str(meta.get("name") or "")), (self.namespace, namespace))
        if not all(not pattern or _anchored(pattern).match(value) for pattern, value in pairs):
            return False
        for match, key in ((self.labels, "labels"), (self.annotations, "annotations")):
            values = meta.get(key)
            if match is not None and not match(values if isinstance(values, dict) else {}):
                return False
        return True

    @property
    def exact_name(self) -> str | None:
        """The name when the pattern is a literal one (an object name, its dots escaped)."""
        if re.fullmatch(r"(?:[A-Za-z0-9_-]|\\\.)+", self.name):
            return self.name.replace("\\.", ".")
        return None


@dataclass(frozen=True)
class FluxExcluded:
    """Objects Flux leaves out of drift detection: labelled or annotated ``helm.toolkit.fluxcd.io/driftDetection:
    disabled`` (helm-controller internal/action/diff.go, its ``ExclusionSelector``)."""

    key: str = "helm.toolkit.fluxcd.io/driftDetection"
    value: str = "disabled"

    def selects(self, obj: Mapping[str, Any], namespace: str) -> bool:
        meta = _meta(obj)
        return any(isinstance(meta.get(k), dict) and meta[k].get(self.key) == self.value
                   for k in ("labels", "annotations"))

    @property
    def exact_name(self) -> str | None:
        return None


@dataclass(frozen=True)
class Rule:
    """One rule as its tool reads it: where it is written, what it selects, and the fields it removes."""

    tool: str
    location: Location
    target: ArgoTarget | FluxTarget | FluxExcluded | None  # Flux: None applies to every object
    pointers: tuple[str, ...] = ()
    jq: tuple[str, ...] = ()
    managers: tuple[str, ...] = ()

    def selects(self, obj: Mapping[str, Any], namespace: str) -> bool:
        return self.target is None or self.target.selects(obj, namespace)

    @property
    def exact_name(self) -> str | None:
        """The one object name the rule can select, when it names one (an index for many VMs)."""
        return None if self.target is None else self.target.exact_name


@dataclass(frozen=True)
class RuleIndex:
    """Rules looked up by object name: a rule naming one object is only tried on it (a rule per VM for
    thousands of VMs stays linear)."""

    named: Mapping[str, tuple[Rule, ...]]
    general: tuple[Rule, ...]

    @classmethod
    def of(cls, rules: Iterable[Rule]) -> RuleIndex:
        named: dict[str, list[Rule]] = {}
        general: list[Rule] = []
        for rule in rules:
            name = rule.exact_name
            if name is None:
                general.append(rule)
            else:
                named.setdefault(name, []).append(rule)
        return cls({k: tuple(v) for k, v in named.items()}, tuple(general))

    def selecting(self, obj: Mapping[str, Any], namespace: str) -> list[Rule]:
        """The rules that apply to ``obj``, in the order they were written."""
        name = str(_meta(obj).get("name") or "")
        candidates = [*self.general, *self.named.get(name, ())]
        if self.named.get(name) and self.general:
            order = {id(rule): i for i, rule in enumerate(candidates)}
            candidates.sort(key=lambda r: (r.location.path, r.location.line, r.location.col, order[id(r)]))
        return [rule for rule in candidates if rule.selects(obj, namespace)]


JqRun = Callable[[tuple[str, ...], Any], Any]


def run_jq(expressions: tuple[str, ...], doc: Any) -> Any:
    """``doc`` after each ``del(EXPR)`` in turn, run here by libjq: a program that fails, or gives other than
    one result, is skipped (Argo CD's ``Normalize`` goes on with the next patch)."""
    for expression in expressions:
        try:
            results = jq_program(expression).input_value(doc).all()
        except ValueError:
            continue
        if len(results) == 1:
            doc = results[0]
    return doc


def normalized(obj: Any, rules: Iterable[Rule], jq: JqRun = run_jq) -> Any:
    """``obj`` as the tools compare it once ``rules`` (already selected for it) are applied: a copy; None
    when a Flux rule excludes the whole object. ``jq`` runs the jq programs (the CLI bounds their time)."""
    out = copy.deepcopy(obj)
    for rule in rules:
        if rule.tool == FLUX:
            if "" in rule.pointers:
                return None
            for path in rule.pointers:
                out = _remove(out, path, negative=True)
            continue
        for path in rule.pointers:
            out = _remove(out, path, negative=False)
        if rule.jq:
            out = jq(rule.jq, out)
    return out


def value_at(obj: Any, pointer: str) -> Any:
    """The value at a JSON pointer, or a sentinel distinct from every value where there is none."""
    node = obj
    for token in _tokens(pointer) or ():
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _REMOVED
    return node


def _tokens(pointer: str) -> list[str] | None:
    """RFC 6901 reference tokens; None for a pointer that is not ``""`` and does not start with ``/``."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _remove(doc: Any, pointer: str, negative: bool) -> Any:
    """A JSON patch ``remove`` of ``pointer`` (in place; ``doc`` unchanged when the path is missing, as the
    tools skip the patch). ``negative``: an index ``-n`` counts from the end (Flux's option)."""
    tokens = _tokens(pointer)
    if not tokens:
        return doc
    parent = doc
    for token in tokens[:-1]:
        parent = _child(parent, token, negative)
        if parent is _REMOVED:
            return doc
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list):
        index = _index(last, len(parent), negative)
        if index is not None:
            del parent[index]
    return doc


def _child(node: Any, token: str, negative: bool) -> Any:
    if isinstance(node, dict):
        return node.get(token, _REMOVED)
    if isinstance(node, list):
        index = _index(token, len(node), negative)
        return _REMOVED if index is None else node[index]
    return _REMOVED


def _index(token: str, length: int, negative: bool) -> int | None:
    if re.fullmatch(r"0|[1-9][0-9]*", token) and int(token) < length:
        return int(token)
    if negative and re.fullmatch(r"-[1-9][0-9]*", token) and -int(token) <= length:
        return length + int(token)
    return None


def jq_program(expression: str) -> Any:
    """The compiled jq program ``del(EXPR)``, as Argo CD builds it; ValueError when jq cannot compile it,
    ImportError when the jq module (libjq's bindings) is not installed."""
    return _compiled(f"del({expression})")


_PROGRAMS: dict[str, Any] = {}


def _compiled(program: str) -> Any:
    found = _PROGRAMS.get(program)
    if found is None:
        import jq

        found = _PROGRAMS[program] = jq.compile(program)
    return found


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _anchored(pattern: str) -> re.Pattern[str]:
    """A Flux selector pattern as Go anchors it (selector.go ``anchorRegex``): ``^(?:PATTERN)$``."""
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = re.compile(f"(?:{pattern})\\Z")
    return found


def _gvk(obj: Mapping[str, Any]) -> tuple[str, str, str]:
    api = str(obj.get("apiVersion") or "")
    group, _, version = api.rpartition("/")
    return group, version, str(obj.get("kind") or "")


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}
