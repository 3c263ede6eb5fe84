"""The views of ``diff --restart-impact``: one line per VM for a terminal or a pull-request comment, and the JSON
object tools read (``outcome``, ``restart_message``, ``live`` for the one VM or the worst of several, then
``vms`` and ``summary``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..pipeline.restart import ERROR, LIVE_UPDATE, NO_CHANGE, RESTART_REQUIRED, Impact
from ..schemas import header
from .restart_impact import SEVERITY, Summary, VMImpact, summary

ICON = {RESTART_REQUIRED: "🔁", LIVE_UPDATE: "⚡", NO_CHANGE: "·", ERROR: "⛔"}
COMPLETES = {"": "", "none": "completes at the next migration (no workloadUpdateMethods)",
             "migrate": "completes by live migration (workloadUpdateMethods LiveMigrate)",
             "evict": "completes when the VMI is evicted (workloadUpdateMethods Evict): a restart"}


def _live_parts(impact: Impact) -> list[str]:
    parts = []
    if impact.cpu:
        parts.append(f"{impact.cpu[0]} → {impact.cpu[1]} CPU sockets")
    if impact.memory:
        parts.append(f"{impact.memory[0]} → {impact.memory[1]}")
    parts += [word for word, on in (("placement", impact.placement), ("NICs hot-plugged", impact.network),
                                    ("volumes", impact.volumes)) if on]
    return parts


def sentence(row: VMImpact) -> str:
    """What happens to the running VM, in one line."""
    impact = row.impact
    if impact.outcome == ERROR:
        return f"refused on update: {impact.error}"
    live = _live_parts(impact)
    if impact.outcome == RESTART_REQUIRED:
        said = f"restart required: {impact.restart_message}"
        if live:
            said += f" (hot-plugged anyway: {', '.join(live)})"
        return said
    if impact.outcome == LIVE_UPDATE:
        done = COMPLETES[impact.actuation]
        return f"live: {', '.join(live)}" + (f"; {done}" if done else "")
    if row.situation:
        return f"{row.situation}: {row.when}"
    return "no change to the running VM (nothing it runs with changed)"


def because(row: VMImpact) -> list[str]:
    """Which field changes made the restart necessary (and where HEAD's value comes from)."""
    return [f"{c.path}: {_value(c.before)} → {_value(c.after)} ({c.origin})" for c in row.impact.causes]


def _value(value: Any) -> str:
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def count_line(total: Summary) -> str:
    return (f"{total.restart} restart required, {total.live} live-updated, {total.no_change} without effect on the "
            "running VM"
            + (f", {total.error} refused" if total.error else ""))


def text(rows: Sequence[VMImpact]) -> str:
    out = []
    for row in rows:
        out.append(f"{row.namespace}/{row.name} ({row.source}): {sentence(row)}\n")
        out.extend(f"  because {line}\n" for line in because(row))
        out.extend(f"  warning: {w}\n" for w in row.warnings)
        out.extend(f"  note: {n}\n" for n in row.impact.notes)
    out.append(f"restart impact: {count_line(summary(rows))}\n")
    return "".join(out)


def markdown(rows: Sequence[VMImpact], base: str, cap: int = 40_000) -> str:
    """The restart-impact section of the pull-request comment: the count, then one line per changed VM, the most
    severe first (error, restart, live, no change), within ``cap`` characters (a note says how many are left
    out)."""
    out = [f"### Will this restart running VMs? (against `{base}`)\n\n", f"**{count_line(summary(rows))}**\n\n"]
    ordered = sorted(rows, key=lambda r: -SEVERITY[r.outcome])
    size = sum(map(len, out))
    for shown, row in enumerate(ordered):
        lines = [f"- {ICON[row.outcome]} `{row.namespace}/{row.name}`: {_md(sentence(row))}\n"]
        lines.extend(f"  - because `{_md(line)}`\n" for line in because(row))
        lines.extend(f"  - ⚠️ {_md(w)}\n" for w in row.warnings)
        if size + sum(map(len, lines)) > cap:
            out.append(f"\n{len(ordered) - shown} more VMs left out to keep this comment short; "
                       f"`kubectl instancetype diff --restart-impact --base {base}` lists them all.\n")
            break
        out.extend(lines)
        size += sum(map(len, lines))
    if not rows:
        out.append("No running VirtualMachine is touched.\n")
    return "".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace("`", "'")


def _live_json(impact: Impact) -> dict[str, Any]:
    return {"cpu": {"from": impact.cpu[0], "to": impact.cpu[1]} if impact.cpu else None,
            "memory": {"from": impact.memory[0], "to": impact.memory[1]} if impact.memory else None,
            "placement": impact.placement, "network": impact.network, "volumes": impact.volumes}


def vm_json(row: VMImpact) -> dict[str, Any]:
    impact = row.impact
    return {"namespace": row.namespace, "name": row.name, "source": row.source, "outcome": impact.outcome,
            "restart_message": impact.restart_message, "live": _live_json(impact),
            "vmi_conditions": list(impact.vmi_conditions), "actuation": impact.actuation,
            "error": {"message": impact.error} if impact.error else None,
            "situation": row.situation or "running", "applies": row.when or None,
            "causes": [{"path": c.path, "before": c.before, "after": c.after, "origin": c.origin}
                       for c in impact.causes],
            "warnings": list(row.warnings), "notes": list(impact.notes), "summary": sentence(row)}


def as_json(rows: Sequence[VMImpact], base: str) -> str:
    """One object: the worst VM's answer at the top (the contract of one VM), every VM, and the counts."""
    total = summary(rows)
    worst = max(rows, key=lambda r: SEVERITY[r.outcome], default=None)
    top = vm_json(worst) if worst is not None else {"outcome": NO_CHANGE, "restart_message": "",
                                                     "live": _live_json(Impact(NO_CHANGE))}
    out = {**header("RestartImpact"), "base": base, "outcome": top["outcome"],
           "restart_message": top["restart_message"], "live": top["live"],
           "error": top.get("error"), "vms": [vm_json(r) for r in rows],
           "summary": {"restart-required": total.restart, "live-update": total.live, "no-change": total.no_change,
                       "error": total.error}}
    return json.dumps(out, indent=2, ensure_ascii=False, default=str) + "\n"
