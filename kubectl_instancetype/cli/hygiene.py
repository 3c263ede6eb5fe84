"""``kubectl instancetype template hygiene``: what each template leaks to every VM made from it (see
:mod:`kubectl_instancetype.hygiene`), one finding per place, through every reporter."""

from __future__ import annotations

import re

import click

from ..errors import Location, ToolError
from ..hygiene import RULES, Finding, findings, ignored_by
from ..records import replace
from ..reporters import RunResult
from ..yamlio import Document
from . import exit_codes_help
from .options import CatalogOptions, InputOptions, input_options, load
from .report import finish

_RULE_NAMES = ", ".join(f"{rule_id} {name}" for rule_id, name, _, _ in RULES)


@click.command("hygiene", epilog=exit_codes_help("a template leaks a credential, an identifier or a pinned value"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@input_options(required=False)
@click.option("--ignore", "ignore", multiple=True, metavar="RULE",
              help=f"Leave out a rule, by id or name (repeatable): {_RULE_NAMES}.")
def hygiene_command(paths: tuple[str, ...], inputs: InputOptions, ignore: tuple[str, ...]) -> None:
    """Check that templates leak nothing to the VMs made from them.

    \b
    Rules (each finding at its place, path:line:col, and in every --output-format with its rule id):
      KIT006 cloud-init-secret         passwords (password:, chpasswd) and private keys in cloud-init user data
      KIT007 fixed-identifier          firmware UUID/serial, MAC addresses, hostnames, the source VM's uid
      KIT008 pinned-over-instancetype  instancetype/preference revisionName, sizes written beside an instancetype
    A value that references a parameter (${X}) is never a finding. Silence a rule for one template with its
    annotation kubectl-instancetype.io/hygiene-ignore: "KIT007,pinned-over-instancetype", or for the run with
    --ignore RULE.

    \b
    Examples:
      kubectl instancetype template hygiene -f templates/ -R
      kubectl instancetype template hygiene web.yaml --ignore fixed-identifier --output-format sarif
    """
    from ..api.templatekinds import is_template
    from ..vmtemplate.stage import loaded_template
    from .common import META

    click.get_current_context().meta.setdefault(META, {})["stdout_free"] = True  # reports may go to stdout
    inputs = replace(inputs, filenames=inputs.filenames + paths, templates="keep")
    if not inputs.filenames:
        raise click.UsageError("no input: give -f PATH or PATH arguments")
    loaded = load(inputs, CatalogOptions((), False, None, None))
    problems: list[ToolError] = list(loaded.problems)
    for doc in loaded.documents:
        if not is_template(doc.data):
            continue
        try:
            template = loaded_template(doc)
        except ToolError as exc:
            problems.append(exc)
            continue
        skipped = frozenset(ignore) | ignored_by(template.template.annotations)
        vm_doc = doc.nested(template.template.vm, *template.template.origin)
        kind = "Template" if template.template.openshift else "VirtualMachineTemplate"
        for finding in findings(template.template.vm, skipped):
            problems.append(_error(finding, vm_doc, f"{kind} {template.template.name}"))
    finish(RunResult(tuple(problems), loaded.notices))


def _error(finding: Finding, doc: Document, label: str) -> ToolError:
    from ..errors import HygieneError

    return HygieneError(f"{label}: {finding.message} [{finding.rule} {finding.name}]", finding.rule,
                        _where(doc, finding))


def _where(doc: Document, finding: Finding) -> Location:
    """The field, or inside a cloud-init text written as a block scalar, the line of that text."""
    where = doc.locate(finding.path)
    if not finding.line:
        return where
    lines = doc.stream_text.splitlines()
    head = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
    rest = head[where.col - 1:]
    if not (rest.lstrip().startswith(("|", ">")) or re.match(r"[^:]*:\s*[|>][-+0-9]*\s*(#.*)?$", rest)):
        return where
    target = where.line + finding.line
    if target > len(lines):
        return where
    text = lines[target - 1]
    return Location(where.path, target, len(text) - len(text.lstrip()) + 1)
