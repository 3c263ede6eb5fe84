"""JUnit XML (``--junit-xml FILE``): one test case per VirtualMachine, for CI systems that show test reports.

A VM KubeVirt refuses, or that cannot be processed, is a failing case whose failure carries the message
and its ``path:line:col`` (then each cause of a refusal with several at its own field's line, and the
notes); a problem that concerns no single VM (a file that does not parse, a catalog object refused) is a
failing case of its own, named after its file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..errors import EXIT_FINDINGS, ToolError, one_line
from ..escape import xml
from .status import Checked, RunResult


def junit_xml(result: RunResult, suite: str) -> str:
    """The XML document of ``result``: a ``testsuites`` holding one ``testsuite`` named ``suite``."""
    cases = list(result.checked)
    tied = {id(c.problem) for c in cases if c.problem is not None}
    cases.extend(Checked(str(p.location or "input"), _file(p), p) for p in result.problems if id(p) not in tied)
    failures = sum(c.problem is not None for c in cases)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0"}
    root = ET.Element("testsuites", {"name": "kubectl-instancetype", **counts})
    suite_element = ET.SubElement(root, "testsuite", {"name": suite, **counts})
    for case in cases:
        suite_element.append(_case(case))
    _well_formed(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _well_formed(root: ET.Element) -> None:
    """Every attribute and text of the tree as XML 1.0 allows (ElementTree writes forbidden characters as is)."""
    for element in root.iter():
        element.attrib.update((key, xml.text(value)) for key, value in element.attrib.items())
        if element.text:
            element.text = xml.text(element.text)


def _file(problem: ToolError) -> str:
    return problem.location.path if problem.location else ""


def _case(case: Checked) -> ET.Element:
    attributes = {"classname": case.file or "input", "name": case.name}
    problem = case.problem
    if problem is not None and problem.location is not None:
        attributes.update(file=problem.location.path, line=str(problem.location.line))
    element = ET.Element("testcase", attributes)
    if problem is not None:
        kind = "rejected" if problem.exit_code == EXIT_FINDINGS else "unprocessable"
        failure = ET.SubElement(element, "failure", {"message": problem.headline(), "type": kind})
        causes = [one_line(f"{where}: error: {message}") for message, where in problem.located_causes]
        failure.text = "\n".join((problem.render(), *causes, *(note.render() for note in problem.notes)))
    return element
