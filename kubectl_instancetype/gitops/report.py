"""The three views of a ``diff`` report: text for a terminal, JSON for tools, Markdown for a pull request.

The Markdown comes from ``templates/diff.md.j2``, shipped in the package; jinja2 is imported only here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..escape import markdown as md
from ..escape.terminal import lines, one_line
from ..schemas import header
from . import node_resources
from .fields import FieldChange
from .vmdiff import VMChange, VMState

SHOWN = ("added", "removed", "changed", "failing", "fixed")


def _arrow(before: object, after: object) -> str:
    if before == after:
        return "" if before is None else str(before)
    return f"{'—' if before is None else before} → {'—' if after is None else after}"


def row(change: VMChange) -> dict[str, str]:
    """The summary-table cells of one VM: each ``before → after`` when it moved, else its one value."""
    old, new = change.before, change.after

    def cell(field: str) -> str:
        return _arrow(getattr(old, field) if old else None, getattr(new, field) if new else None)

    plain = change.status in ("unchanged", "added", "removed")
    status = change.status if plain else f"{change.status} ({change.cause})"
    either = new or old
    return {"vm": f"{change.namespace}/{change.name}", "instancetype": cell("instancetype"),
            "preference": cell("preference"), "vcpus": cell("vcpus"), "memory": cell("memory"), "status": status,
            "source": either.source if either else ""}


def text(changes: Sequence[VMChange], base: str) -> str:
    """Per changed VM a header, its summary and its unified diff; a closing count. Each line but the diff's is
    terminal text (:func:`~kubectl_instancetype.escape.terminal.one_line`): a value's line breaks and control
    characters escaped as the text report escapes them."""
    out: list[str] = []
    for change in (c for c in changes if c.status in SHOWN):
        cells = row(change)
        out.append(one_line(f"VirtualMachine {cells['vm']} ({cells['source']}): {cells['status']}") + "\n")
        facts = [f"{k} {cells[k]}" for k in ("instancetype", "preference", "vcpus", "memory") if "→" in cells[k]]
        if facts:
            out.append("  " + one_line(", ".join(facts)) + "\n")
        out.extend(f"  {one_line(field.sentence())}\n" for field in change.fields)
        if change.after and change.after.drift:
            out.append(f"  {one_line(drift_line(change.after.drift))}\n")
        out.extend(f"  node: {one_line(move.sentence())}\n" for move in node_moves(change))
        error = change.after.error if change.after else ""
        out.append(f"  error: {one_line(error)}\n" if error else lines(change.diff))
    shown = sum(c.status in SHOWN for c in changes)
    out.extend(f"node total: {one_line(move.sentence())}\n" for move in node_total(changes))
    out.append(one_line(f"{shown} of {len(changes)} VirtualMachines change against {base}") + "\n")
    return "".join(out)


def node_moves(change: VMChange) -> list[node_resources.Move]:
    """What the change does to the node-level requests and limits of the VM's launcher Pod."""
    return node_resources.moves(change.before.node if change.before else None,
                                change.after.node if change.after else None)


def node_total(changes: Sequence[VMChange]) -> list[node_resources.Move]:
    """What the change does to the launcher Pods' requests and limits of all VMs together."""
    if not any(s is not None and s.node is not None for c in changes for s in (c.before, c.after)):
        return []
    return node_resources.moves(node_resources.total(c.before.node for c in changes if c.before),
                                node_resources.total(c.after.node for c in changes if c.after))


def drift_line(pointers: Sequence[str]) -> str:
    """What a reviewer should know before merging: the fields the cluster will write after apply."""
    count = len(pointers)
    return (f"drift after apply: the cluster will write {count} more field{'s' if count != 1 else ''} than the "
            f"file sets ({', '.join(pointers)}); ignore or pin {'them' if count != 1 else 'it'} "
            "(kubectl instancetype drift)")


def _state(state: VMState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    return {"source": state.source, "instancetype": state.instancetype, "preference": state.preference,
            "vcpus": state.vcpus, "memory": state.memory, "error": state.error or None,
            "drift": list(state.drift), **({"node": node_resources.as_json(state.node)} if state.node else {})}


def as_json(changes: Sequence[VMChange], base: str) -> str:
    """Every VM with both states, its status, cause and diff."""
    vms = [{"namespace": c.namespace, "name": c.name, "status": c.status, "cause": c.cause or None,
            "before": _state(c.before), "after": _state(c.after), "fields": [f.as_json() for f in c.fields],
            "diff": c.diff} for c in changes]
    total = [{"kind": m.kind, "resource": m.resource, "before": m.before or None, "after": m.after or None,
              "delta": m.delta} for m in node_total(changes)]
    out = {**header("Diff"), "base": base, "vms": vms, **({"node_total": total} if total else {})}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def field_line(change: FieldChange) -> str:
    """One changed field as a Markdown list item's text: field, values and origins."""
    before, after = change.values()
    return f"{md.code(change.field)} {md.code(before)} → {md.code(after)} ({md.text(change.origins())})"


def behind(change: VMChange) -> str:
    """What set the changed values now, each named once: ``instancetype acme.small, the VM``."""
    said = dict.fromkeys(field.origins().rsplit(" → ", 1)[-1] for field in change.fields)
    return ", ".join(said)


MARKER = "<!-- kubectl-instancetype diff -->"
COMMENT_LIMIT = 65_536  # GitHub refuses a pull-request comment longer than this


def markdown(changes: Sequence[VMChange], base: str, cap: int = COMMENT_LIMIT, again: str = "") -> str:
    """A pull-request comment of at most ``cap`` characters: a hidden marker (the GitHub action finds its
    comment by it), the summary table, and as many collapsible per-VM diffs as fit, with a note saying how
    many were left out. The table is always complete unless it alone would not fit. ``again`` is the command
    that shows every diff (default: ``kubectl instancetype diff --base BASE``)."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("kubectl_instancetype", "templates"),
                             autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    # every value reaches the comment through one of the Markdown escapes (kubectl_instancetype.escape.markdown)
    env.filters.update(code=md.code, text=md.text, cell=lambda value: md.cell(str(value)), code_cell=md.code_cell,
                       html=md.html, fenced=md.fenced, field_line=field_line, behind=behind, drift_line=drift_line)
    template = env.get_template("diff.md.j2")
    shown = [c for c in changes if c.status in SHOWN]
    rows = [row(c) for c in shown]

    node = [(f"{c.namespace}/{c.name}", move) for c in shown for move in node_moves(c)]
    node += [("", move) for move in node_total(changes)]  # "": all VMs
    gap = any(not move.before or not move.after for _, move in node)

    def comment(tabled: int, detailed: int) -> str:
        return template.render(marker=MARKER, base=base, total=len(changes), shown=len(shown), rows=rows[:tabled],
                               node=node if tabled == len(shown) else [], node_gap=gap,
                               rows_left_out=len(shown) - tabled, changes=shown[:detailed],
                               left_out=len(shown) - detailed, cap=f"{cap:,}",
                               again=again or f"kubectl instancetype diff --base {base}")

    if len(comment(len(shown), 0)) > cap:  # not even the table fits: as many rows as do, no diffs
        tabled = _most(len(shown), lambda n: len(comment(n, 0)) <= cap)
        return md.clip(comment(tabled, 0), cap, CUT_NOTE)
    return comment(len(shown), _most(len(shown), lambda n: len(comment(len(shown), n)) <= cap))


CUT_NOTE = "\n… cut here to keep this comment within --max-comment-chars (`kubectl instancetype diff` prints it all).\n"


def _most(upper: int, fits: Callable[[int], bool]) -> int:
    """The largest n in 0..upper for which ``fits(n)`` holds (``fits`` is monotonic; 0 is taken to fit)."""
    low, high = 0, upper
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
