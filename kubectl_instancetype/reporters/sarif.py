"""The SARIF 2.1.0 report (``--output-format sarif``), for GitHub code scanning and GitLab.

One run of the tool ``kubectl-instancetype`` with one rule per kind of finding (each with an id, a short and a
full description and help); one result per problem (per cause, when KubeVirt refuses a VM with several) and
per warning, each at its file, line and column. Notes (an instancetype that was not found behind KubeVirt's
refusal) are related locations of their result, and said in its message too (code scanning shows only the
message). No ``region.snippet`` is written: an empty one makes code
scanning reject the upload.

In a git repository, file locations are relative to its top directory with ``uriBaseId`` ``%SRCROOT%``, from
whichever directory the tool ran in: GitHub code scanning resolves a relative URI against the checkout's root
(a run in ``vms/`` that reported ``web.yaml`` pointed at no file).
"""

from __future__ import annotations

import json
import posixpath
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..errors import HygieneError, KubeVirtError, Location, Notice, OutOfDate, RefusedError, ToolError
from ..escape import sarif
from ..records import dataclass
from .status import RunResult

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
INFORMATION_URI = "https://github.com/kubevirt/kubectl-instancetype"
# id, name, short description, full description, help
RULES: tuple[tuple[str, str, str, str, str], ...] = (
    ("KIT001", "KubeVirtRefuses", "KubeVirt would refuse this VirtualMachine or fail to expand it",
     "A KubeVirt webhook or controller refuses the VirtualMachine, or its instancetype or preference cannot be "
     "found or applied; the message is KubeVirt's own.",
     "Fix the field the message names; a note beside it names an instancetype or preference that was not found. "
     "Pass instancetypes and preferences with -f or --catalog."),
    ("KIT002", "APIServerRefuses", "The API server (or kubectl) would refuse this object",
     "The object fails the API server's schema or metadata validation as kubectl apply --validate=strict does.",
     "Fix the field the message names, or choose --validate=warn or ignore to prune unknown fields."),
    ("KIT003", "Unprocessable", "The input cannot be processed",
     "A file that does not parse, cannot be read, or holds an object of an unknown version.",
     "Fix the syntax at the position given, or leave the file out with --exclude."),
    ("KIT004", "Warning", "KubeVirt or the API server warns about this object",
     "A warning KubeVirt's webhooks or the API server answer with an object they accept.",
     "The object is accepted; the warning says what may change or is deprecated."),
    ("KIT005", "OutOfDate", "The file is not as --write would write it",
     "With --check or --diff: the file's VirtualMachines (or objects) are not written as --write writes them.",
     "Run the same command with --write (or --output-dir) and commit the result."),
)
# template hygiene (``template hygiene``): listed after the others, in logs that hold such a finding
HYGIENE_RULES: tuple[tuple[str, str, str, str, str], ...] = (
    ("KIT006", "CloudInitSecret", "A password or private key in a template's cloud-init user data",
     "Every VM made from the template gets the same credential (template hygiene).",
     "Make it a parameter with generate: expression, or take it from a Secret (userDataSecretRef); silence with "
     "the template's kubectl-instancetype.io/hygiene-ignore annotation or --ignore KIT006."),
    ("KIT007", "FixedIdentifier", "A machine identifier every VM made from the template would share",
     "A firmware UUID or serial, a MAC address, a hostname or the source VM's identity (template hygiene).",
     "Leave it out (KubeVirt assigns one) or make it a parameter; silence with the hygiene-ignore annotation or "
     "--ignore KIT007."),
    ("KIT008", "PinnedOverInstancetype", "A value in the template that defeats the instancetype it offers",
     "A revisionName of one cluster, or a size written beside the instancetype (template hygiene).",
     "Remove it; silence with the hygiene-ignore annotation or --ignore KIT008."),
)
LEVEL = {"KIT001": "error", "KIT002": "error", "KIT003": "error", "KIT004": "warning", "KIT005": "error",
         "KIT006": "error", "KIT007": "error", "KIT008": "error"}


@dataclass(frozen=True)
class Root:
    """Where paths are resolved: the repository's top directory and the working directory (absolute POSIX
    paths); an empty ``top`` outside a repository (paths stay as they are)."""

    top: str = ""
    cwd: str = ""

    def uri(self, path: str) -> tuple[str, bool]:
        """The URI of ``path`` and whether it is relative to ``%SRCROOT%``."""
        path = path.replace("\\", "/").removeprefix("./")
        if self.top:
            absolute = posixpath.normpath(posixpath.join(self.cwd, path))
            inside = posixpath.relpath(absolute, self.top)
            if inside != ".." and not inside.startswith("../"):
                return quote(inside), True
            return PurePosixPath(absolute).as_uri(), False
        return (PurePosixPath(path).as_uri(), False) if path.startswith("/") else (quote(path), False)


def sarif_log(result: RunResult, root: Root | None = None) -> str:
    """The SARIF log of ``result`` as JSON text, its file locations resolved from ``root``."""
    where = root or Root()
    results: list[dict[str, Any]] = []
    for problem in result.problems:
        results.extend(_problem(problem, where))
    results.extend(_notice(n, where) for n in result.notices if n.severity == "warning")
    listed = RULES + (HYGIENE_RULES if any(isinstance(p, HygieneError) for p in result.problems) else ())
    rules = [{"id": rid, "name": name, "shortDescription": {"text": short}, "fullDescription": {"text": full},
              "help": {"text": help_text}, "helpUri": f"{INFORMATION_URI}#errors-and-exit-status",
              "defaultConfiguration": {"level": LEVEL[rid]}}
             for rid, name, short, full, help_text in listed]
    log = {"$schema": SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "kubectl-instancetype", "version": __version__,
                                         "semanticVersion": __version__, "informationUri": INFORMATION_URI,
                                         "rules": rules}},
                     "columnKind": "unicodeCodePoints",
                     "results": results}]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _rule(problem: ToolError) -> str:
    if isinstance(problem, HygieneError):
        return problem.rule
    if isinstance(problem, KubeVirtError):
        return "KIT001"
    if isinstance(problem, RefusedError):
        return "KIT002"
    if isinstance(problem, OutOfDate):
        return "KIT005"
    return "KIT003"


def _problem(problem: ToolError, root: Root) -> list[dict[str, Any]]:
    rule = _rule(problem)
    related = [{"id": i, "message": {"text": sarif.text(n.message)}, **_physical(n.location, root)}
               for i, n in enumerate(problem.notes) if n.location is not None]
    causes = problem.located_causes or ((problem.message, problem.location),)
    out = []
    for message, where in causes:
        entry: dict[str, Any] = {"ruleId": rule, "ruleIndex": int(rule[3:]) - 1, "level": LEVEL[rule],
                                 "message": {"text": sarif.text(problem.headline(message))}}
        if where is not None and _has_file(where):
            entry["locations"] = [_physical(where, root)]
        if related:
            entry["relatedLocations"] = related
        out.append(entry)
    return out


def _notice(notice: Notice, root: Root) -> dict[str, Any]:
    entry: dict[str, Any] = {"ruleId": "KIT004", "ruleIndex": 3, "level": "warning",
                             "message": {"text": sarif.text(notice.message)}}
    if notice.location is not None and _has_file(notice.location):
        entry["locations"] = [_physical(notice.location, root)]
    return entry


def _has_file(where: Location) -> bool:
    return where.path not in ("<stdin>", "<defaults>", "")


def _physical(where: Location | None, root: Root) -> dict[str, Any]:
    if where is None:
        return {}
    uri, based = root.uri(where.path)
    artifact = {"uri": uri, "uriBaseId": SRCROOT} if based else {"uri": uri}
    return {"physicalLocation": {"artifactLocation": artifact,
                                 "region": {"startLine": where.line, "startColumn": where.col}}}
