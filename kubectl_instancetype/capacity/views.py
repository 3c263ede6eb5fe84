"""The capacity report as a table for people, JSON for platforms and Markdown for a pull request.

The table is laid out as kubectl lays out its own (columns three spaces apart); the JSON is versioned
(``apiVersion``/``kind``) and described by the shipped schema of ``CapacityReport`` (:mod:`..schemas`); every
string of the manifests goes into the Markdown through :func:`markdown_text`, the Markdown escape of :mod:`..escape`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import one_line
from ..escape import markdown as md
from ..quantity import Quantity
from ..schemas import header
from .model import ADMITTED, FAILED, REFUSED, STOPPED, NamespaceReport, Report, Row, devices, hugepages

COUNTED = ("only the launcher Pods of the VirtualMachines in the files, and the Pods there, count, created in file "
           "order; the quotas' current use in a cluster is not known offline and other Pods, PVCs and objects are "
           "not counted")
FROM_STATUS = ("the launcher Pods of the VirtualMachines in the files, and the Pods there, are added in file order "
               "to what each quota's status.used says is used")
NONE = "-"
MIGRATION = "no room for a live migration's target Pod"
HEADERS = ["VM", "CPU REQ", "CPU LIM", "MEMORY REQ", "MEMORY LIM", "HUGEPAGES", "DEVICES", "EPHEMERAL", "QUOTA"]
KUBEVIRT_DEVICES = "devices.kubevirt.io/"  # /dev/kvm, tun, vhost-net: shown by their short names in the tables


def _value(values: Mapping[str, Quantity], name: str) -> str:
    return str(values[name]) if name in values else NONE


def _pairs(values: Mapping[str, Quantity]) -> str:
    return ",".join(f"{name.removeprefix(KUBEVIRT_DEVICES)}={values[name]}" for name in sorted(values)) or NONE


def _status(row: Row) -> str:
    if row.status == REFUSED:
        return f"refused ({row.quota})" if row.quota else "refused"
    if row.status == STOPPED:
        return "stopped: not counted"
    if row.status == FAILED:
        return "unreadable" if row.launcher.kind == "Pod" else "no Pod (KubeVirt's error)"
    return ADMITTED


UNBOUNDED = "*"
UNBOUNDED_NOTE = ("* a container sets no limit there: the Pod's limit (the sum of the limits that are set) does not "
                  "bound it")


def cells(name: str, requests: Mapping[str, Quantity], limits: Mapping[str, Quantity], status: str,
          open_ended: Sequence[str] = ()) -> list[str]:
    """One table row: the VM (or TOTAL) and its node-level figures; ``open_ended``: the limits (cpu, memory)
    that do not bound it, marked with a star."""
    def limit(name: str) -> str:
        return _value(limits, name) + (UNBOUNDED if name in open_ended else "")

    return [name, _value(requests, "cpu"), limit("cpu"), _value(requests, "memory"), limit("memory"),
            _pairs(hugepages(requests)), _pairs(devices(requests)), _value(requests, "ephemeral-storage"), status]


def _row(row: Row) -> list[str]:
    return cells(row.launcher.name, row.requests, row.limits, _status(row), row.unbounded)


def _total(rows: Sequence[Row], requests: Mapping[str, Quantity], limits: Mapping[str, Quantity]) -> list[str]:
    """The TOTAL row of ``rows``' admitted Pods; a limit is starred when one of theirs is."""
    admitted = [r for r in rows if r.counted]
    starred = sorted({name for r in admitted for name in r.unbounded})
    return cells("TOTAL (admitted)", requests, limits, f"{len(admitted)} admitted", starred)


def _note(rows: Sequence[Row]) -> list[str]:
    return [UNBOUNDED_NOTE] if any(r.unbounded for r in rows) else []


def _layout(rows: Sequence[list[str]], indent: str = "") -> list[str]:
    """kubectl's table layout; every cell on one line, its control characters escaped (a name is no terminal
    escape)."""
    rows = [[one_line(cell) for cell in row] for row in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return [(indent + "   ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]])).rstrip()
            for r in rows]


def _quota_lines(ns: NamespaceReport) -> list[str]:
    out: list[str] = []
    for use in ns.quotas:
        quota = use.placed.quota
        scopes = ",".join(str(s.get("scopeName")) for s in quota.selectors)
        scoped = f" scopes: {scopes}" if scopes else ""
        out.append(one_line(f"ResourceQuota {quota.name} ({use.placed.location}){scoped}"))
        left = use.remaining()
        rows = [["RESOURCE", "USED", "HARD", "LEFT"]]
        rows += [[name, str(use.used[name]), str(quota.hard[name]), str(left[name])] for name in sorted(quota.hard)]
        out.extend(_layout(rows, "  "))
    return out


def text(report: Report) -> str:
    """Per namespace: one row per VM and the total of the admitted ones, then each quota's use and headroom."""
    out: list[str] = []
    for ns in report.namespaces:
        out.append(one_line(f"Namespace {ns.namespace}"))
        rows = [HEADERS, *(_row(r) for r in ns.rows), _total(ns.rows, ns.requests, ns.limits)]
        out.extend(_layout(rows, "  ") if ns.rows else ["  no VirtualMachine"])
        out.extend(f"  {line}" for line in _note(ns.rows))
        out.extend(one_line(f"  {r.launcher.name}: {MIGRATION}: {r.migration}") for r in ns.rows if r.migration)
        out.extend(_quota_lines(ns))
        out.append("")
    if len(report.namespaces) > 1:
        out += ["All namespaces", *_layout([HEADERS, _all(report)], "  "), ""]
    out.append(summary(report))
    return "\n".join(out) + "\n"


def _all(report: Report) -> list[str]:
    """The row of the admitted Pods of every namespace."""
    requests, limits = report.totals()
    return _total(report.rows(), requests, limits)


def summary(report: Report) -> str:
    """The closing line: how many VMs, admitted, refused, stopped, and what counted."""
    pods = sum(row.launcher.kind == "Pod" for row in report.rows())
    vms = len(report.rows()) - pods
    what = f"{vms} VirtualMachine{'s' if vms != 1 else ''}" + (f" and {pods} Pod{'s' if pods != 1 else ''}"
                                                                 if pods else "")
    counts = (f"{what}: {report.count(ADMITTED)} admitted, {report.count(REFUSED)} refused, "
              f"{report.count(STOPPED)} stopped, {report.count(FAILED)} without a Pod")
    return f"{counts} ({FROM_STATUS if report.from_status else COUNTED})"


def _list(values: Mapping[str, Quantity]) -> dict[str, str]:
    return {name: str(values[name]) for name in sorted(values)}


def _row_json(row: Row) -> dict[str, Any]:
    launcher = row.launcher
    return {"kind": launcher.kind, "name": launcher.name, "source": str(launcher.location), "status": row.status,
            "requests": _list(row.requests), "limits": _list(row.limits),
            "refusal": {"quota": row.quota, "message": row.reason} if row.status == REFUSED else None,
            "unbounded": list(row.unbounded),
            "error": row.reason if row.status == FAILED else None,
            "migration": ({"admitted": not row.migration, "message": row.migration or None}
                          if row.status == ADMITTED and launcher.kind != "Pod" else None)}


def as_json(report: Report) -> str:
    """The versioned report object (the schema of ``CapacityReport``)."""
    namespaces = [{
        "namespace": ns.namespace, "requests": _list(ns.requests), "limits": _list(ns.limits),
        "vms": [_row_json(row) for row in ns.rows],
        "quotas": [{"name": use.placed.quota.name, "source": str(use.placed.location),
                    "scopes": [dict(s) for s in use.placed.quota.selectors], "hard": _list(use.placed.quota.hard),
                    "used": _list(use.used), "remaining": _list(use.remaining())} for use in ns.quotas],
    } for ns in report.namespaces]
    counts = {status: report.count(status) for status in (ADMITTED, REFUSED, STOPPED, FAILED)}
    requests, limits = report.totals()
    out: dict[str, Any] = {**header("CapacityReport"), "counted": FROM_STATUS if report.from_status else COUNTED,
           "requests": _list(requests), "limits": _list(limits), "namespaces": namespaces,
           "summary": {"vms": len(report.rows()), **counts}}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def markdown_text(value: str) -> str:
    """Any string of the manifests as inert Markdown text (one line), safe in a table cell."""
    return md.cell(value)


MARKER = "<!-- kubectl-instancetype capacity -->"
COMMENT_LIMIT = 65_536  # GitHub refuses a pull-request comment longer than this


def markdown(report: Report, cap: int = COMMENT_LIMIT) -> str:
    """A pull-request comment of at most ``cap`` characters: a hidden marker (to find the comment again), per
    namespace a table of the VMs and one of each quota, then the refusals. When that is too long, the VM rows
    and then the refusals are left out with a note (the totals and quotas stay)."""
    for detail in (2, 1, 0):
        text = _markdown(report, detail)
        if len(text) <= cap:
            return text
    return text[:cap]  # not even the totals fit: cut, as a comment cannot be longer


def _markdown(report: Report, detail: int) -> str:
    """The comment with its VM rows (``detail`` 2), only the refusals (1), or only totals and quotas (0)."""
    out = [MARKER, "### kubectl instancetype capacity", "", f"{markdown_text(summary(report))}.", ""]
    if detail < 2:
        out += ["The VMs' rows are left out to keep this comment within GitHub's limit: `-o json` or the table "
                "has them all.", ""]
    for ns in report.namespaces:
        out += [f"#### Namespace {markdown_text(ns.namespace)}", ""]
        rows = [_row(r) for r in ns.rows] if detail == 2 else []
        out += _md_table(HEADERS, [*rows, _total(ns.rows, ns.requests, ns.limits)])
        out += [markdown_text(line) for line in _note(ns.rows)] + ([""] if _note(ns.rows) else [])
        for use in ns.quotas:
            quota, left = use.placed.quota, use.remaining()
            out += [f"ResourceQuota {markdown_text(quota.name)}:", ""]
            out += _md_table(["RESOURCE", "USED", "HARD", "LEFT"],
                             [[n, str(use.used[n]), str(quota.hard[n]), str(left[n])] for n in sorted(quota.hard)])
        said = [(r, r.reason) for r in ns.rows if r.status == REFUSED]
        said += [(r, f"{MIGRATION}: {r.migration}") for r in ns.rows if r.migration]
        out += [f"- {markdown_text(r.launcher.name)}: {markdown_text(text)}" for r, text in said] if detail else []
        out += [""] if said and detail else []
    if len(report.namespaces) > 1:
        out += ["#### All namespaces", "", *_md_table(HEADERS, [_all(report)])]
    return "\n".join(out).rstrip("\n") + "\n"


def _md_table(headers: list[str], rows: Sequence[list[str]]) -> list[str]:
    """A Markdown table; every cell escaped."""
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(markdown_text(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]
