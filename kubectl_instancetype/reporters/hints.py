"""Hints a run's problems earn from what their messages quote: a quoted Helm template action.

A chart's template with its actions quoted (``name: "{{ .Release.Name }}-vm"``) parses as YAML, so the file is
not refused as a template is (:data:`~kubectl_instancetype.inputs.gather.TEMPLATE_HINT`): the API server or
KubeVirt refuses the value instead and quotes it. Such a problem gets a note saying what the value is.
"""

from __future__ import annotations

import re

from ..errors import Notice, ToolError
from .status import RunResult

# not ``${{X}}``: a VirtualMachineTemplate's whole-value reference
_ACTION = re.compile(r"(?<!\$)\{\{-?\s*[^{}]*?\s*-?\}\}")
TEMPLATE_NOTE = ("{action} is a Go template action (a Helm chart's template, quoted): render the chart first, "
                 "e.g. `helm template NAME CHART | kubectl instancetype render -f -`, or leave the file out with "
                 "--exclude")


def hinted(result: RunResult) -> RunResult:
    """``result`` with a note on each problem that quotes a template action (once per problem)."""
    if not any(_action(p) for p in result.problems):
        return result
    problems = tuple(_with_note(p) for p in result.problems)
    changed = {id(old): new for old, new in zip(result.problems, problems, strict=True) if old is not new}
    checked = tuple(c if c.problem is None or id(c.problem) not in changed else
                    type(c)(c.name, c.file, changed[id(c.problem)]) for c in result.checked)
    return RunResult(problems, result.notices, result.changed, result.shown, checked)


def _action(problem: ToolError) -> str:
    found = _ACTION.search(" ".join((problem.message, *(n.message for n in problem.notes))))
    return found[0] if found else ""


def _with_note(problem: ToolError) -> ToolError:
    action = _action(problem)
    if not action:
        return problem
    return problem.with_notes((Notice(TEMPLATE_NOTE.format(action=action), problem.location, "note"),))
