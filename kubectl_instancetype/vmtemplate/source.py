"""A template file's text in, a located template (or located errors) out: the first document decoded as
virtctl decodes it, every refusal pointing into the file (at the parameter it names, when it names one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    InputError,
    InternalLimitError,
    KubeVirtError,
    Location,
    Notice,
    ToolError,
)
from ..records import dataclass
from ..yamlio.load import Document, events, load_stream
from .document import (
    ConvertError,
    DecodeError,
    Template,
    is_openshift,
    json_decode_error,
    read_params,
    read_template,
)
from .jsonsyntax import json_syntax_error
from .processor import LIMIT, ProcessError

TEMPLATE_DECODE = "error decoding VirtualMachineTemplate: "
OPENSHIFT_DECODE = "error decoding Template: "
PARAMS_DECODE = "error reading params file: "


class TemplateError(KubeVirtError):
    """virtctl refuses to process the template (exit 1, like every refusal of KubeVirt's); ``stage`` is the
    processing step: ``convert``, ``merge``, ``validate`` or ``process``."""

    exit_code = EXIT_FINDINGS


class TemplateInputError(InputError):
    """The template or params file cannot be decoded (exit 3); the message is virtctl's."""

    exit_code = EXIT_INPUT


@dataclass(frozen=True)
class LoadedTemplate:
    """A template file's first document and the template decoded from it."""

    document: Document
    template: Template


def go_yaml_problem(text: str) -> str | None:
    """go-yaml's wording of a syntax error of ``text`` (``yaml: line 3: mapping values are not allowed in this
    context``): libyaml's problem, with the line go-yaml names (``parser.fail`` in go-yaml v2 decode.go: the
    problem's line, one more for a scanner error — go-yaml's scanner marks are one behind — else the
    context's line, nothing when that is the first line)."""
    try:
        for _ in events(text):
            pass
    except Exception as exc:  # libyaml's scanner, parser and reader errors
        problem = getattr(exc, "problem", None)
        if not problem:
            return None
        mark = getattr(exc, "problem_mark", None)
        context = getattr(exc, "context_mark", None)
        scanner = type(exc).__name__ == "ScannerError"
        line = 0
        if mark is not None and mark.line != 0:
            line = mark.line + (1 if scanner else 0)
        elif context is not None and context.line != 0:
            line = context.line
        where = f"line {line}: " if line else ""
        return f"yaml: {where}{problem}"
    return None


def _first_document(text: str, source: str, prefix: str) -> Document | None:
    try:
        docs = load_stream(text, source, nonfinite=True)  # .inf in a string field is processed (see document)
    except InputError as exc:
        syntax = json_syntax_error(text) if _is_json(text) else None
        if syntax is not None:  # JSON failed first: its error is the one returned when YAML fails too
            raise TemplateInputError(prefix + syntax, exc.location or Location(source)) from None
        problem = go_yaml_problem(text)
        if problem is None:
            raise
        raise TemplateInputError(f"{prefix}error converting YAML to JSON: {problem}",
                                 exc.location or Location(source)) from None
    return docs[0] if docs else None


def _is_json(text: str) -> bool:
    """Whether apimachinery's decoder reads ``text`` as JSON first (``GuessJSONStream``: a ``{`` after
    whitespace)."""
    return text.lstrip(" \t\r\n\ufeff").startswith("{")


def load_template(text: str, source: str, one_object: bool = True) -> LoadedTemplate:
    """The template of a file's first document; :class:`TemplateInputError` or :class:`TemplateError`
    (OpenShift conversion) located in the file. ``one_object``: False to read an OpenShift Template's
    parameters whatever the number of its objects."""
    doc = _first_document(text, source, TEMPLATE_DECODE)
    if doc is None:
        if not text:  # only an empty file has no document; any other text is a null one (an empty template)
            raise TemplateInputError(f"{TEMPLATE_DECODE}EOF", Location(source))
        doc = Document({}, source, 0, 1, 1, text)
    # JSON is read as YAML too: a number in a params file's JSON becomes its text (``1.0`` is "1", the corpus's
    # params.json), so the decoder converts JSON scalars to the target type as it converts YAML's
    yaml = True
    openshift = is_openshift(doc.data)
    try:
        template = read_template(doc.data, yaml, one_object=one_object)
    except DecodeError as exc:
        prefix = OPENSHIFT_DECODE if openshift else TEMPLATE_DECODE
        syntax = json_syntax_error(text) if _is_json(text) else None
        if syntax is not None:
            exc = DecodeError(syntax, exc.path)
        elif _is_json(text) and "unsupported value" not in str(exc):
            exc = json_decode_error(doc.data, "Template" if openshift else "VirtualMachineTemplate") or exc
        raise TemplateInputError(prefix + str(exc), doc.locate(exc.path)) from None
    except ConvertError as exc:
        raise TemplateError(str(exc), stage="convert").with_location(doc.locate(("objects",))) from None
    return LoadedTemplate(doc, template)


def load_params(text: str, source: str) -> dict[str, str]:
    """The values of a params file (a YAML or JSON map of strings)."""
    doc = _first_document(text, source, PARAMS_DECODE)
    if doc is None:
        if text:  # a null document (blank lines, comments, ---): the decoder leaves the map empty
            return {}
        raise TemplateInputError(f"{PARAMS_DECODE}EOF", Location(source))
    try:
        return read_params(doc.data)
    except DecodeError as exc:
        syntax = json_syntax_error(text) if _is_json(text) else None
        if syntax is not None:
            exc = DecodeError(syntax, exc.path)
        elif _is_json(text):
            exc = json_decode_error(doc.data, "", "params") or exc
        raise TemplateInputError(PARAMS_DECODE + str(exc), doc.locate(exc.path)) from None


def located(error: ProcessError, loaded: LoadedTemplate) -> ToolError:
    """A processing refusal pointing into the template file, with a note naming each parameter the field at
    fault was written with (``${X}``); a value beyond this tool's input limits is that limit's error (exit 3)."""
    if error.stage == LIMIT:
        return InternalLimitError(error.message, loaded.document.locate(error.path))
    found = TemplateError(error.message, stage=error.stage, field=error.path)
    origin = loaded.template.origin
    notes: tuple[Notice, ...] = ()
    if error.stage == "process" and error.path[:len(origin)] == origin and len(error.path) > len(origin):
        value: Any = loaded.document.data
        for step in error.path:
            value = value[step]
        notes = tuple(Notice(f"the value comes from template parameter {name}", parameter_location(loaded, name),
                             "note") for name in sorted(_names(value)))
    return found.with_location(loaded.document.locate(error.path)).with_notes(notes)


def _names(value: Any) -> set[str]:
    from .parameters import references_in

    if isinstance(value, str):
        return references_in(value)
    if isinstance(value, dict):
        return set().union(*(_names(v) | (references_in(k) if isinstance(k, str) else set())
                             for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_names(v) for v in value)) if value else set()
    return set()


def parameter_location(loaded: LoadedTemplate, name: str) -> Location:
    """Where parameter ``name`` is declared in the file (the document's start when it is not)."""
    for i, parameter in enumerate(loaded.template.parameters):
        if parameter.name == name:
            return parameter_location_at(loaded, i)
    return loaded.document.location


def parameter_location_at(loaded: LoadedTemplate, index: int) -> Location:
    """Where the parameter of list index ``index`` is declared in the file (no search by name: a template with
    thousands of parameters is located once for each in linear time)."""
    base = ("parameters",) if loaded.template.openshift else ("spec", "parameters")
    return loaded.document.locate((*base, index))


def vm_location(loaded: LoadedTemplate, path: tuple[str | int, ...]) -> Location:
    """Where a field of the processed VM comes from in the template file."""
    return loaded.document.locate((*loaded.template.origin, *path))


def sources_of(values: Mapping[str, Any]) -> str:
    return ", ".join(f"${{{name}}}" for name in values)


def convert_template(text: str, source: str) -> dict[str, Any]:
    """The VirtualMachineTemplate ``virtctl template convert`` prints for a file's first document (read as an
    OpenShift Template whatever its kind); its refusals located in the file."""
    from .printed import converted

    doc = _first_document(text, source, OPENSHIFT_DECODE)
    if doc is None:
        if not text:
            raise TemplateInputError(f"{OPENSHIFT_DECODE}EOF", Location(source))
        doc = Document({}, source, 0, 1, 1, text)
    try:
        return converted(doc.data, _is_json(text))
    except DecodeError as exc:
        syntax = json_syntax_error(text) if _is_json(text) else None
        if syntax is not None:
            exc = DecodeError(syntax, exc.path)
        elif _is_json(text) and "unsupported value" not in str(exc):
            exc = json_decode_error(doc.data, "Template", "openshift") or exc
        raise TemplateInputError(OPENSHIFT_DECODE + str(exc), doc.locate(exc.path)) from None
    except ConvertError as exc:
        raise TemplateError(str(exc), stage="convert").with_location(doc.locate(("objects",))) from None
