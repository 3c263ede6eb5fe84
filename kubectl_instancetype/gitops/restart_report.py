"""The views of ``diff --restart-impact``: one line per VM for a terminal or a pull-request comment, and the JSON
object tools read (``outcome``, ``restart_message``, ``live`` for the one VM or the worst of several, then
``vms`` and ``summary``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..escape import markdown as md
from ..escape.terminal import one_line
from ..pipeline.restart import ERROR, LIVE_UPDATE, NO_CHANGE, RESTART_REQUIRED, UPDATE_STAGE, Impact
from ..schemas import header
from .restart_impact import DELETED, READ_STAGE, SEVERITY, SHUTS_DOWN, Summary, VMImpact, summary

ICON = {RESTART_REQUIRED: "🔁", LIVE_UPDATE: "⚡", NO_CHANGE: "·", ERROR: "⛔", SHUTS_DOWN: "⏹️", DELETED: "🗑️"}
COMPLETES = {"": "", "none": "completes at the next migration (no workloadUpdateMethods)",
             "migrate": "completes by live migration (workloadUpdateMethods LiveMigrate)",
             "evict": "completes when the VMI is evicted (workloadUpdateMethods Evict): a restart"}
# The workload updater migrates only live-migratable VMIs: one that is not keeps the hot-plug pending until it
# restarts, whatever workloadUpdateMethods allow (pkg/virt-controller/watch/workload-updater).
AT_RESTART = "reaches the guest at the next restart (the VMI is not live-migratable: it is never migrated)"
STORED = ("stored for the next start: the running VMI keeps what it runs with, and no field virt-controller "
          "compares changed (no RestartRequired)")


def _live_parts(impact: Impact) -> list[str]:
    parts = []
    if impact.cpu:
        parts.append(f"CPU sockets {impact.cpu[0]} → {impact.cpu[1]}")
    if impact.memory:
        parts.append(f"guest memory {impact.memory[0]} → {impact.memory[1]}")
    parts += [word for word, on in (("placement updated (node selector, affinity, tolerations)", impact.placement),
                                    ("NICs hot-plugged", impact.network), ("volumes hot-plugged", impact.volumes))
              if on]
    return parts


def _completes(impact: Impact) -> str:
    if impact.actuation in ("none", "migrate") and not impact.migratable:
        return AT_RESTART
    return COMPLETES[impact.actuation]


def sentence(row: VMImpact) -> str:
    """What happens to the running VM, in one line."""
    impact = row.impact
    if impact.outcome == ERROR:
        if impact.error_stage == READ_STAGE:
            return f"error: HEAD's file cannot be read, so nothing of it can be applied: {impact.error}"
        if impact.error_stage and impact.error_stage != UPDATE_STAGE:
            return f"error: KubeVirt accepts the update but virt-controller cannot apply it: {impact.error}"
        return f"refused on update: {impact.error}"
    if impact.outcome in (SHUTS_DOWN, DELETED):
        return f"{'shuts down' if impact.outcome == SHUTS_DOWN else 'deleted'}: {row.when}"
    live = _live_parts(impact)
    if impact.outcome == RESTART_REQUIRED:
        said = f"restart required: {impact.restart_message}"
        if live:
            said += f" (hot-plugged anyway: {', '.join(live)})"
        return said
    if impact.outcome == LIVE_UPDATE:
        done = _completes(impact)
        return f"live update: {', '.join(live)}" + (f"; {done}" if done else "")
    if row.situation:
        return f"{row.situation}: {row.when}"
    return STORED


def because(row: VMImpact) -> list[str]:
    """Which field changes made the restart necessary (where HEAD's value comes from, and the change that would
    make it live where KubeVirt's rule gives one)."""
    return [f"{c.path}: {_value(c.before)} → {_value(c.after)} ({c.origin})" + (f"; {c.fix}" if c.fix else "")
            for c in row.impact.causes]


def _value(value: Any) -> str:
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def count_line(total: Summary) -> str:
    return (f"{total.restart} restart required, {total.live} live-updated, {total.no_change} without effect on the "
            "running VM"
            + (f", {total.shuts_down} shut down" if total.shuts_down else "")
            + (f", {total.deleted} deleted" if total.deleted else "")
            + (f", {total.error} refused" if total.error else ""))


def where(row: VMImpact) -> str:
    """``path:line:col`` of the field that decided the outcome (else the VM's file)."""
    return str(row.location) if row.location is not None else row.source


def text(rows: Sequence[VMImpact]) -> str:
    out = []
    for row in rows:
        out.append(one_line(f"{row.namespace}/{row.name} ({where(row)}): {sentence(row)}") + "\n")
        located = [*row.cause_locations, *([None] * len(row.impact.causes))]
        out.extend("  because " + one_line(line + (f" [{located[i]}]" if located[i] is not None else "")) + "\n"
                   for i, line in enumerate(because(row)))
        out.extend(f"  warning: {one_line(w)}\n" for w in row.warnings)
        out.extend(f"  note: {one_line(n)}\n" for n in row.impact.notes)
    out.append(f"restart impact: {count_line(summary(rows))}\n")
    return "".join(out)


def markdown(rows: Sequence[VMImpact], base: str, cap: int = 40_000) -> str:
    """The restart-impact section of the pull-request comment: the count, then one line per changed VM, the most
    severe first (error, restart, live, no change), within ``cap`` characters (a note says how many are left
    out)."""
    out = [f"### Will this restart running VMs? (against {md.code(base)})\n\n", f"**{count_line(summary(rows))}**\n\n"]
    ordered = sorted(rows, key=lambda r: -SEVERITY[r.outcome])
    size = sum(map(len, out))
    for shown, row in enumerate(ordered):
        lines = [f"- {ICON[row.outcome]} {md.code(f'{row.namespace}/{row.name}')}: {md.text(sentence(row))}\n"]
        lines.extend(f"  - because {md.code(line)}\n" for line in because(row))
        lines.extend(f"  - ⚠️ {md.text(w)}\n" for w in row.warnings)
        if size + sum(map(len, lines)) > cap:
            out.append(f"\n{len(ordered) - shown} more VMs left out to keep this comment short; "
                       f"{md.code(f'kubectl instancetype diff --restart-impact --base {base}')} lists them all.\n")
            break
        out.extend(lines)
        size += sum(map(len, lines))
    if not rows:
        out.append("No running VirtualMachine is touched.\n")
    return "".join(out) + "\n"


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
            "location": str(row.location) if row.location is not None else None,
            "causes": [_cause_json(c, row.cause_locations[i] if i < len(row.cause_locations) else None)
                       for i, c in enumerate(impact.causes)],
            "warnings": list(row.warnings), "notes": list(impact.notes), "summary": sentence(row)}


def _cause_json(cause: Any, location: Any) -> dict[str, Any]:
    out = {"path": cause.path, "before": cause.before, "after": cause.after, "origin": cause.origin,
           "location": str(location) if location is not None else None}
    if cause.fix:
        out["fix"] = cause.fix
    return out


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
                       "shuts-down": total.shuts_down, "deleted": total.deleted, "error": total.error}}
    return json.dumps(out, indent=2, ensure_ascii=False, default=str) + "\n"
