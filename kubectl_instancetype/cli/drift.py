"""``kubectl instancetype drift``: the fields each live VirtualMachine will differ in from its file, and the
ignore rules for Argo CD and Flux that cover exactly those."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import ToolError
from ..escape.terminal import one_line
from ..gitops.drift import (
    MISSING,
    Drift,
    argocd_application,
    argocd_configmap,
    differences,
    flux_drift_detection,
    shared_pointers,
    uncovered,
)
from ..gitops.ignore import RuleIndex
from ..records import replace
from ..render import Options, render_each, vm_label
from ..reporters import Checked, RunResult
from ..yamlio import dump_json, dump_yaml
from . import exit_codes_help
from .against import against_rules, timed_out
from .jqrun import JqRunner
from .options import CatalogOptions, InputOptions, catalog_options, input_options, load
from .report import report

FORMATS = ("text", "json", "argocd", "argocd-cm", "flux", "argocd-health", "flux-health")
HEALTH = ("argocd-health", "flux-health")  # outputs that need no input


@click.command(epilog=exit_codes_help("drift that no --against rule covers (text and json output)"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@click.option("-o", "--output", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text or json: each VM's drift; argocd: an Application's spec.ignoreDifferences (a merge patch, "
                   "one rule per VM); argocd-cm: the argocd-cm ConfigMap with what every VM drifts in; flux: a "
                   "HelmRelease's spec.driftDetection; argocd-health: the argocd-cm health check for VirtualMachines "
                   "(Argo CD's, plus RestartRequired=True as Degraded), a merge patch of argocd-cm; flux-health: a "
                   "Kustomization's spec.healthCheckExprs (CEL) for VMs and VMIs with the same answers. The health "
                   "outputs need no input. Each prints one YAML document, its comment saying where it goes.")
@click.option("--against", "against", multiple=True, type=click.Path(dir_okay=False),
              help="An Argo CD Application (or its ignoreDifferences), argocd-cm ConfigMap or Flux HelmRelease whose "
                   "rules are in use, applied as Argo CD and Flux apply them: drift they cover is not reported as "
                   "uncovered. A regular file within --max-input-bytes; repeatable.")
def drift(paths: tuple[str, ...], inputs: InputOptions, catalogs: CatalogOptions, output: str,
          against: tuple[str, ...]) -> None:
    """Show what the cluster will write into each VirtualMachine after kubectl apply.

    Each VM is rendered as the cluster stores it (render --stored: KubeVirt's mutating webhook and
    virt-controller's first reconcile, for the configured cluster and release), and compared with its file.
    Every field the cluster adds or changes is one JSON pointer. Values the cluster draws at random (firmware
    UUID and serial) drift too: pin them in the file with render --write --pin --pin-firmware. Metadata
    bookkeeping (uid, generation, resourceVersion, creationTimestamp, managedFields) and status are not drift.

    \b
    Examples:
      kubectl instancetype drift -f vms/ -R
      kubectl instancetype drift -f vms/ -R -o argocd > ignore-differences.yaml
      kubectl patch application vms -n argocd --type merge --patch-file ignore-differences.yaml
      kubectl instancetype drift -f vms/ -R -o argocd-cm > argocd-cm-patch.yaml
      kubectl instancetype drift -f vms/ -R --against argocd/application.yaml   # exit 1: uncovered drift
      kubectl instancetype drift -f vms/ -R -o flux
      kubectl instancetype drift -o argocd-health > health.yaml   # RestartRequired shows Degraded
      kubectl patch configmap argocd-cm -n argocd --type merge --patch-file health.yaml
      kubectl instancetype drift -o flux-health   # paste under the Kustomization's spec
    """
    if output in HEALTH:
        if paths or inputs.filenames or against:
            raise click.UsageError(f"-o {output} prints a health check for every VM: it reads no input")
        click.echo(_health(output), nl=False)
        return
    inputs = replace(inputs, filenames=inputs.filenames + paths)
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    rules, notices, problems = against_rules(against, inputs.limits)
    index = RuleIndex.of(rules)
    jq = JqRunner()
    loaded = load(inputs, catalogs)
    found_problems: list[ToolError] = [*loaded.problems, *problems]
    from ..pipeline.stages import render_stored

    options = Options(namespace=inputs.namespace, config=loaded.config)
    results: list[dict[str, Any]] = []
    entries: list[tuple[str, str, list[str]]] = []
    open_total = 0
    checked: list[Checked] = []  # the VMs looked at, for --summary and JUnit
    for item in render_each(loaded.documents, loaded.catalog, options, render_stored):
        if not item.is_vm or item.document.data.get("kind") != "VirtualMachine":
            continue
        checked.append(Checked(vm_label(item.document.data, inputs.namespace), item.document.source, item.problem))
        if item.problem is not None:
            found_problems.append(item.problem)
            continue
        vm = item.document.data
        meta = vm.get("metadata") or {}
        namespace, name = str(meta.get("namespace") or inputs.namespace), str(meta.get("name") or "")
        found = differences(vm, item.rendered)
        open_ = uncovered(vm, item.rendered, found, index.selecting(item.rendered, namespace), jq)
        open_total += len(open_)
        entries.append((str(meta.get("namespace") or ""), name, [d.pointer for d in found]))
        results.append({"file": item.document.source, "line": item.document.line, "column": item.document.col,
                        "name": name, "namespace": namespace, "drift": found, "uncovered": open_})
    jq.close()
    notices += timed_out(jq.timed_out, rules)
    status = report(RunResult(tuple(found_problems), (*loaded.notices, *notices), checked=tuple(checked)),
                    provenance=loaded.provenance)
    _print(output, results, entries)
    if status == 0 and open_total and output in ("text", "json"):
        status = 1
    raise SystemExit(status)


ARGOCD_HEADER = """\
# spec.ignoreDifferences for the Argo CD Application that syncs these VMs (drift -o argocd).
# Paste it under the Application's spec, or patch: kubectl patch application NAME -n argocd
# --type merge --patch-file FILE (a merge patch replaces the whole list: add your own entries here).
"""
ARGOCD_CM_HEADER = """\
# argocd-cm's rule for every VirtualMachine: the fields all these VMs drift in (drift -o argocd-cm).
# Merge it into argocd-cm: kubectl patch configmap argocd-cm -n argocd --patch-file FILE, or a
# kustomize patch (kubectl apply would replace argocd-cm's other settings).
"""


def _health(output: str) -> str:
    """The Argo CD or Flux health check, with the comment that says how to merge it."""
    if output == "argocd-health":
        from ..gitops import argocd_health

        return argocd_health.HEADER + dump_yaml(argocd_health.health_patch())
    from ..gitops import flux_health

    return flux_health.HEADER + dump_yaml(flux_health.kustomization_patch())


def _value(value: Any) -> str:
    return "(absent)" if value is MISSING else json.dumps(value, ensure_ascii=False, sort_keys=False)


def _json_drift(d: Drift, open_: list[Drift]) -> dict[str, Any]:
    op = "add" if d.added else "remove" if d.after is MISSING else "replace"
    out: dict[str, Any] = {"pointer": d.pointer, "op": op}
    if d.before is not MISSING:
        out["file"] = d.before
    if d.after is not MISSING:
        out["live"] = d.after
    out["covered"] = d not in open_
    return out


def _print(output: str, results: list[dict[str, Any]], entries: list[tuple[str, str, list[str]]]) -> None:
    if output == "argocd":
        click.echo(ARGOCD_HEADER + dump_yaml(argocd_application(entries)), nl=False)
    elif output == "argocd-cm":
        click.echo(ARGOCD_CM_HEADER + dump_yaml(argocd_configmap(shared_pointers(entries))), nl=False)
    elif output == "flux":
        click.echo(dump_yaml(flux_drift_detection(entries)), nl=False)
    elif output == "json":
        from ..schemas import header

        click.echo(dump_json({**header("DriftList"), "items": [{
            "file": r["file"], "namespace": r["namespace"], "name": r["name"],
            "drift": [_json_drift(d, r["uncovered"]) for d in r["drift"]],
        } for r in results]}))
    else:
        for r in results:
            label = vm_label({"metadata": {"name": r["name"], "namespace": r["namespace"]}}, r["namespace"])
            count = len(r["drift"])
            if not count:
                click.echo(one_line(f"{r['file']}:{r['line']}:{r['column']}: {label}: no drift"))
                continue
            done = count - len(r["uncovered"])
            click.echo(one_line(f"{r['file']}:{r['line']}:{r['column']}: {label}: {count} field"
                                f"{'s' if count != 1 else ''} will drift ({done} covered)"))
            for d in r["drift"]:
                mark = "=" if d not in r["uncovered"] else "+" if d.added else "~"
                said = f"{_value(d.before) + ' -> ' if not d.added else ''}{_value(d.after)}"
                click.echo(f"  {mark} {one_line(f'{d.pointer}: {said}')}")
