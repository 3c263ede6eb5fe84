"""``kubectl instancetype drift``: the fields each live VirtualMachine will differ in from its file, and the
ignore rules for Argo CD and Flux that cover exactly those."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import InputError, Location, ToolError
from ..gitops.drift import (
    MISSING,
    Drift,
    argocd_application,
    argocd_configmap,
    covered,
    differences,
    flux_drift_detection,
    rules_in,
)
from ..records import replace
from ..render import Options, render_each, vm_label
from ..reporters import Checked, RunResult
from ..yamlio import dump_json, dump_yaml, dump_yaml_all
from . import exit_codes_help
from .options import CatalogOptions, InputOptions, catalog_options, input_options, load
from .report import report

FORMATS = ("text", "json", "argocd", "flux", "argocd-health")


@click.command(epilog=exit_codes_help("drift that no --against rule covers (text and json output)"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@catalog_options
@click.option("-o", "--output", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text or json: each VM's drift; argocd: an Application's spec.ignoreDifferences and the argocd-cm "
                   "ConfigMap form; flux: a HelmRelease's spec.driftDetection; argocd-health: the argocd-cm health "
                   "check for VirtualMachines that reports RestartRequired=True as Degraded (needs no input).")
@click.option("--against", "against", multiple=True, type=click.Path(dir_okay=False),
              help="An Argo CD Application (or its ignoreDifferences), argocd-cm ConfigMap or Flux HelmRelease whose "
                   "rules are in use: drift they cover is not reported as uncovered. Repeatable.")
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
      kubectl instancetype drift -f vms/ -R --against argocd/application.yaml   # exit 1: uncovered drift
      kubectl instancetype drift -f vms/ -R -o flux
      kubectl instancetype drift -o argocd-health > argocd-cm-health.yaml   # RestartRequired shows Degraded
    """
    if output == "argocd-health":
        from ..gitops.argocd_health import health_configmap

        click.echo(dump_yaml(health_configmap()), nl=False)
        return
    inputs = replace(inputs, filenames=inputs.filenames + paths)
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    rule_docs, problems = _rule_documents(against)
    loaded = load(inputs, catalogs)
    found_problems: list[ToolError] = [*loaded.problems, *problems]
    from ..pipeline.stages import render_stored

    options = Options(namespace=inputs.namespace, config=loaded.config)
    results: list[dict[str, Any]] = []
    entries: list[tuple[str, str, list[str]]] = []
    uncovered = 0
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
        ignored = [p for doc in rule_docs for p in rules_in(doc, name, namespace)]
        open_ = [d for d in found if not covered(d, ignored)]
        uncovered += len(open_)
        entries.append((str(meta.get("namespace") or ""), name, [d.pointer for d in found]))
        results.append({"file": item.document.source, "line": item.document.line, "column": item.document.col,
                        "name": name, "namespace": namespace, "drift": found, "uncovered": open_})
    status = report(RunResult(tuple(found_problems), tuple(loaded.notices), checked=tuple(checked)),
                    provenance=loaded.provenance)
    _print(output, results, entries)
    if status == 0 and uncovered and output in ("text", "json"):
        status = 1
    raise SystemExit(status)


def _rule_documents(paths: tuple[str, ...]) -> tuple[list[Any], list[InputError]]:
    from ..yamlio import load_stream

    docs: list[Any] = []
    problems: list[InputError] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(InputError(f"cannot read --against file: {getattr(exc, 'strerror', None) or exc}",
                                       Location(path)))
            continue
        try:
            docs.extend(d.data for d in load_stream(text, path))
        except InputError as exc:
            problems.append(exc)
    return docs, problems


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
        pointers = sorted({p for _, _, ps in entries for p in ps if _shared(p, entries)})
        click.echo(dump_yaml_all([argocd_application(entries), argocd_configmap(pointers)]), nl=False)
    elif output == "flux":
        click.echo(dump_yaml(flux_drift_detection(entries)), nl=False)
    elif output == "json":
        click.echo(dump_json([{
            "file": r["file"], "namespace": r["namespace"], "name": r["name"],
            "drift": [_json_drift(d, r["uncovered"]) for d in r["drift"]],
        } for r in results]))
    else:
        for r in results:
            label = vm_label({"metadata": {"name": r["name"], "namespace": r["namespace"]}}, r["namespace"])
            count = len(r["drift"])
            if not count:
                click.echo(f"{r['file']}:{r['line']}:{r['column']}: {label}: no drift")
                continue
            done = count - len(r["uncovered"])
            click.echo(f"{r['file']}:{r['line']}:{r['column']}: {label}: {count} field"
                       f"{'s' if count != 1 else ''} will drift ({done} covered)")
            for d in r["drift"]:
                mark = "=" if d not in r["uncovered"] else "+" if d.added else "~"
                click.echo(f"  {mark} {d.pointer}: {_value(d.before) + ' -> ' if not d.added else ''}{_value(d.after)}")


def _shared(pointer: str, entries: list[tuple[str, str, list[str]]]) -> bool:
    """Whether every VM of the run drifts at ``pointer`` (the argocd-cm form applies to all VMs)."""
    return all(pointer in ps for _, _, ps in entries if ps)
