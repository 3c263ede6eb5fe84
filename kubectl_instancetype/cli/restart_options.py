"""The options of ``diff --restart-impact`` and the printing of its views (the decision is
:mod:`..pipeline.restart`, the per-VM model :mod:`..gitops.restart_impact`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from ..config import ARCHITECTURES
from ..errors import KubeVirtError, ToolError
from ..pipeline.restart import ASSUMED, VMIFacts
from ..records import dataclass

FAIL_ON = ("live", "restart", "stop", "error")


@dataclass(frozen=True)
class RestartOptions:
    """Whether to answer the restart question, with what the files cannot tell, and what fails the run."""

    enabled: bool = False
    facts: VMIFacts = ASSUMED
    fail_on: str | None = None


def restart_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--restart-impact, the VMI facts (--vmi-migratable/--vmi-not-migratable, --vmi-arch) and --fail-on."""

    options = (
        click.option("--restart-impact", "restart_impact", is_flag=True,
                     help="Say what applying the change does to each running VM, as KubeVirt's virt-controller "
                          "decides: live update (hot-plug), RestartRequired with KubeVirt's message and its cause, "
                          "or nothing until the next start. The VM is taken to run as the base revision started "
                          "it and the change to be applied with kubectl apply."),
        click.option("--vmi-migratable/--vmi-not-migratable", "--assume-migratable/--assume-not-migratable",
                     "vmi_migratable", default=True, show_default=True,
                     help="With --restart-impact: whether the running VMI is live-migratable (LiveMigratable=True; "
                          "memory hot-plug and the workload updater's migration need it)."),
        click.option("--vmi-arch", "--assume-arch", "vmi_arch", type=click.Choice(ARCHITECTURES),
                     help="With --restart-impact: the cluster's default architecture the VM got when it was "
                          "created (default: the KubeVirt CR's, else amd64)."),
        click.option("--fail-on", "fail_on", type=click.Choice(FAIL_ON),
                     help="With --restart-impact: exit 1 (and report each such VM as an error at the field that "
                          "decided it, also in --junit-xml) only when a VM's outcome is at least the one named, in "
                          "this order: live (live-updated), restart (RestartRequired), stop (a running VM halted by "
                          "HEAD shuts down, or a VM HEAD deletes is deleted by a pruning sync), error (refused on "
                          "update, or virt-controller cannot apply it); without it, any change of an expansion "
                          "exits 1."),
    )
    for option in reversed(options):
        func = option(func)

    def wrapper(*args: Any, restart_impact: bool, vmi_migratable: bool, vmi_arch: str | None,
                fail_on: str | None, **kwargs: Any) -> Any:
        if not restart_impact and (fail_on or vmi_arch or not vmi_migratable):
            raise click.UsageError("--fail-on, --vmi-arch and --vmi-not-migratable go with --restart-impact"
                                   f"{_from_config('fail_on', 'vmi_arch', 'vmi_migratable')}")
        facts = VMIFacts(vmi_migratable, vmi_arch or "")
        return func(*args, restart=RestartOptions(restart_impact, facts, fail_on), **kwargs)

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return _carry(func, wrapper)


def _from_config(*names: str) -> str:
    """Where the options ``names`` were set, when the config file's table set one of them: else the message
    would name options the user never typed."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return ""
    given = [n for n in names if ctx.get_parameter_source(n) == click.core.ParameterSource.DEFAULT_MAP]
    if not given:
        return ""
    keys = ", ".join(n.replace("_", "-") for n in given)
    return f" (the config file's {ctx.command.name} table sets {keys}: add restart-impact: true there too)"


def _carry(func: Any, wrapper: Any) -> Any:
    """``wrapper`` with the click parameters ``func`` collected (the decorators above apply to ``func``)."""
    wrapper.__click_params__ = getattr(func, "__click_params__", [])
    func.__click_params__ = []
    return wrapper


def restart_views(found: Sequence[Any] | None, changes: Sequence[Any], base: str, fmt: str, cap: int) -> str:
    """The report of ``diff --restart-impact`` in ``fmt``: JSON alone; markdown and text followed by the diff."""
    from ..gitops import report as views
    from ..gitops import restart_report

    rows = list(found or [])
    if fmt == "json":
        return restart_report.as_json(rows, base)
    if fmt == "markdown":  # at most cap characters in all: the restart section first, the diff in what is left
        from ..escape.markdown import clip

        section = restart_report.markdown(rows, base, cap * 6 // 10)
        comment = views.markdown(changes, base, cap - len(section))
        marker, _, rest = comment.partition("\n")
        return clip(f"{marker}\n{section}{rest}", cap, views.CUT_NOTE)
    return restart_report.text(rows) + views.text(changes, base)


def restart_findings(found: Sequence[Any] | None, restart: RestartOptions, side: Any) -> tuple[ToolError, ...]:
    """The VMs --fail-on names, as findings at the field that decided each (else at their documents)."""
    from ..gitops.restart_impact import FAIL_ON as OUTCOMES
    from ..gitops.restart_impact import SEVERITY
    from ..gitops.restart_report import because, sentence

    if not found or restart.fail_on is None:
        return ()
    threshold = SEVERITY[OUTCOMES[restart.fail_on]]
    out: list[ToolError] = []
    for row in found:
        if SEVERITY[row.outcome] >= threshold:
            causes = because(row)
            more = f" (and {len(causes) - 1} more)" if len(causes) > 1 else ""
            problem = KubeVirtError(f"VirtualMachine {row.namespace}/{row.name}: {sentence(row)}"
                                    + (f"; because {causes[0]}{more}" if causes else ""))
            out.append(problem.with_location(row.location) if row.location is not None else problem)
    return tuple(out)
