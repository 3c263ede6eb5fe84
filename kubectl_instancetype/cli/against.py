"""``drift --against``: the rules files read (regular files within ``--max-input-bytes``), each document's
rules (:mod:`..gitops.rulefiles`), and the warnings about them."""

from __future__ import annotations

import os
import stat

from ..errors import InputError, InternalLimitError, Location, Notice
from ..gitops.ignore import Rule
from ..yamlio import Limits
from .jqrun import LIMIT

NO_RULES = ("holds no rules this tool reads: no Argo CD Application (or its spec.ignoreDifferences), argocd-cm "
            "ConfigMap or Flux HelmRelease (or its spec.driftDetection)")


def against_rules(paths: tuple[str, ...], limits: Limits) -> tuple[list[Rule], list[Notice], list[InputError]]:
    """The rules of every ``--against`` file, what to tell about them, and the files that cannot be used."""
    from ..gitops.rulefiles import objects, rules_of
    from ..yamlio import load_stream

    rules: list[Rule] = []
    notices: list[Notice] = []
    problems: list[InputError] = []
    for path in paths:
        try:
            docs = load_stream(_read(path, limits.max_bytes), path, limits)
            read = [rules_of(obj) for doc in docs for obj in objects(doc)]
            if not any(r is not None for r in read):
                raise InputError(f"--against: this file {NO_RULES}", Location(path))
        except InputError as exc:
            problems.append(exc)
            continue
        for found in read:
            if found is not None:
                rules.extend(found.rules)
                notices.extend(found.notices)
    return rules, notices, problems


def timed_out(expressions: list[str], rules: list[Rule]) -> list[Notice]:
    """A warning at the first rule of each jq expression that ran out of time."""
    return [Notice(f"jq expression {expression!r} ran longer than {LIMIT:g} s: Argo CD skips it (its "
                   "ignore.normalizer.jq.timeout), and so did this run",
                   next(rule.location for rule in rules if expression in rule.jq)) for expression in expressions]


def _read(path: str, max_bytes: int) -> str:
    """A regular file's text, at most ``max_bytes`` (a device or a FIFO never ends or blocks: refused)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError("cannot read --against file: not a regular file", Location(path))
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read --against file: {exc.strerror or exc}", Location(path)) from None
    if len(data) > max_bytes:
        raise InternalLimitError(f"input is larger than the limit of {max_bytes} bytes (--max-input-bytes)",
                                 Location(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read --against file: not UTF-8 text ({exc.reason} at byte {exc.start})",
                         Location(path)) from None
