"""The template input stage: every VirtualMachineTemplate (or OpenShift Template of one VM) among a command's
documents becomes the VirtualMachine it processes into, before any other stage sees a VM.

The processed VM is a document nested in the template's (at ``spec.virtualMachine``, or ``objects[0]``), so every
later problem points into the template file, at the field the VM's value came from. Parameter values come from a
params file beside the template (``NAME.params.yaml``, ``.yml`` or ``.json`` for ``NAME.yaml``: a map of
strings, as ``--params-file``), processed as ``virtctl template process`` processes them. Without one, the
template is checked as KubeVirt's template webhook checks it on create (virt-template
``internal/webhook/v1beta1/virtualmachinetemplate_webhook.go``): references checked, then processed with each
parameter's own value or generator — unless a required parameter has neither, which KubeVirt reports as
``processing validation skipped: required parameter "X" has neither value nor generator`` and so does this.

Which KubeVirt serves the kind: none before v1.8; v1.8 serves ``v1alpha1`` behind the ``Template`` feature gate
(Alpha); v1.9 and later serve ``v1alpha1`` and ``v1beta1``, the gate Beta and on by default.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..api.releases import Release
from ..api.templatekinds import is_template
from ..errors import InputError, Notice, ToolError
from ..records import dataclass
from ..yamlio.load import Document
from .document import read_template
from .generator import Entropy
from .parameters import aggregate, check_references, references_in
from .processor import LIMIT, ProcessError, process
from .source import LoadedTemplate, TemplateError, TemplateInputError, load_params, located, parameter_location_at
from .substitution import referenced

PARAMS_SUFFIXES = (".params.yaml", ".params.yml", ".params.json")
# (the template's file, its metadata.name) -> the text of its values and where they are, or None
ParamsReader = Callable[[str, str], "tuple[str, str] | None"]


@dataclass(frozen=True)
class Staged:
    """What the stage made of the documents: the documents (templates replaced by their VMs), the problems
    (each with the document it is about) and the notices."""

    documents: tuple[Document, ...]
    problems: tuple[tuple[ToolError, Document], ...] = ()
    notices: tuple[Notice, ...] = ()


def params_paths(path: str) -> tuple[str, ...]:
    """The params files looked for beside a template file, in order."""
    stem, _ = os.path.splitext(path)
    return tuple(stem + suffix for suffix in PARAMS_SUFFIXES)


def served(data: dict[str, Any], release: Release, gated: bool) -> str:
    """Why ``release`` does not serve this template's kind and version ("" when it does); ``gated``: whether
    the cluster has the Template feature gate on (virt-operator deploys virt-template only then)."""
    if data.get("kind") == "Template":
        return ""  # an OpenShift Template is converted (virtctl template convert), not served by KubeVirt
    version = str(data.get("apiVersion", "")).partition("/")[2]
    if release.line < (1, 8):
        return (f"KubeVirt {release.name} does not serve template.kubevirt.io (VirtualMachineTemplates arrived in "
                "v1.8)")
    if not gated:
        return f"KubeVirt {release.name} serves VirtualMachineTemplates only with the Template feature gate"
    if release.line == (1, 8):
        if version != "v1alpha1":
            return (f'no matches for kind "VirtualMachineTemplate" in version "template.kubevirt.io/{version}" '
                    f"(KubeVirt {release.name} serves v1alpha1)")
    elif version not in ("v1alpha1", "v1beta1"):
        return f'no matches for kind "VirtualMachineTemplate" in version "template.kubevirt.io/{version}"'
    return ""


def prune_nulls(value: Any) -> Any:
    """The VM as the API server holds it: null members dropped (virtctl prints ``"template": null``)."""
    if isinstance(value, dict):
        return {k: prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune_nulls(v) for v in value]
    return value


def stage(docs: list[Document], params_of: ParamsReader, release: Release, gated: bool,
          seed: int | str | None = None, raw: bool = False) -> Staged:
    """Every template of ``docs`` processed (see the module docstring), or with ``raw`` replaced by its VM as
    written (placeholders kept, for a rewrite of the template's VM); other documents as they are."""
    out: list[Document] = []
    problems: list[tuple[ToolError, Document]] = []
    notices: list[Notice] = []
    for doc in docs:
        if not is_template(doc.data):
            out.append(doc)
            continue
        refusal = served(doc.data, release, gated)
        if refusal:
            problems.append((InputError(refusal, doc.location), doc))
            continue
        refused = schema_problems(doc)
        if refused and not raw:
            problems.extend((problem, doc) for problem in refused)
            continue
        try:
            made = _raw(doc) if raw else _processed(doc, params_of, release, seed, notices)
        except ToolError as exc:
            problems.append((exc, doc))
            continue
        out.append(made if made is not None else doc)
    return Staged(tuple(out), tuple(problems), tuple(notices))


def schema_problems(doc: Document) -> list[ToolError]:
    """The API server's refusals of a VirtualMachineTemplate's schema (an OpenShift Template is not served)."""
    from ..errors import RefusedError
    from .crd import crd_errors

    if doc.data.get("kind") != "VirtualMachineTemplate":
        return []
    name = (doc.data.get("metadata") or {}).get("name", "") if isinstance(doc.data.get("metadata"), dict) else ""
    head = f'VirtualMachineTemplate.template.kubevirt.io "{name}" is invalid: '
    return [RefusedError(head + error.text(), doc.locate(error.path)) for error in crd_errors(doc.data)]


def _raw(doc: Document) -> Document | None:
    """The template's VM as written, as a document of its own (None when it holds none)."""
    template = loaded_template(doc).template
    vm = template.vm
    if not isinstance(vm, dict) or vm.get("kind") != "VirtualMachine":
        return None
    from ..records import replace
    from .standin import with_standins

    # checked and suggested for with stand-ins for its placeholders; the rewrite restores them
    return replace(doc.nested(with_standins(vm), *template.origin), original=vm)


def loaded_template(doc: Document) -> LoadedTemplate:
    """The template ``doc`` holds, decoded as virtctl decodes it; its errors located in the file."""
    from .document import ConvertError, DecodeError

    try:
        return LoadedTemplate(doc, read_template(doc.data))
    except DecodeError as exc:
        raise TemplateInputError(f"error decoding VirtualMachineTemplate: {exc}", doc.locate(exc.path)) from None
    except ConvertError as exc:
        raise TemplateError(str(exc), stage="convert").with_location(doc.locate(("objects",))) from None


def _processed(doc: Document, params_of: ParamsReader, release: Release, seed: int | str | None,
               notices: list[Notice]) -> Document | None:
    """The VM document of a template (None: left as it is, with the notices saying why)."""
    loaded = loaded_template(doc)
    template = loaded.template
    found = params_of(doc.source, template.name)
    if found is None:
        if not _webhook_checks(loaded, notices):
            return None
        passed: dict[str, str] = {}
    else:
        text, name = found
        passed = load_params(text, name)
    try:
        result = process(template, passed, Entropy(seed), release.name)
    except ProcessError as exc:
        if found is None and exc.stage != LIMIT:
            exc = ProcessError(f"processing validation failed: {exc.message.split(': ', 1)[1]}", exc.stage,
                               exc.path, exc.parameter)
        raise located(exc, loaded) from None
    if found is not None:
        notices.extend(_warning(loaded, w) for w in result.warnings)
    return doc.nested(prune_nulls(result.vm), *template.origin)


def _warning(loaded: LoadedTemplate, text: str) -> Notice:
    head = text.split(":", 1)[0]  # spec.parameters[i].name
    index = head[head.find("[") + 1:head.find("]")] if "[" in head else ""
    location = loaded.document.location
    if index.isdigit() and int(index) < len(loaded.template.parameters):
        location = parameter_location_at(loaded, int(index))  # the index the warning names (issue 36 H5)
    return Notice(text, location)


def _webhook_checks(loaded: LoadedTemplate, notices: list[Notice]) -> bool:
    """KubeVirt's template webhook before processing: the reference check (an undefined reference refuses the
    template; unused parameters are warnings), then a required parameter without value or generator skips the
    processing check. Whether processing is to be tried."""
    template = loaded.template
    vm = template.vm if isinstance(template.vm, dict) else {}
    check = check_references(template.parameters, referenced(vm) | references_in(template.message))
    notices.extend(_warning(loaded, w) for w in check.warnings)
    if check.errors:
        raise TemplateError(aggregate(check.errors), stage="validate").with_location(
            loaded.document.locate(template.origin))
    skipped = [(i, p) for i, p in enumerate(template.parameters) if p.required and p.value == "" and p.generate == ""]
    for i, parameter in skipped:
        notices.append(Notice(f'processing validation skipped: required parameter "{parameter.name}" has neither '
                              "value nor generator", parameter_location_at(loaded, i)))
    return not skipped
