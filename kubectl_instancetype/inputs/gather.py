"""Sources in, everything a command needs out: documents, catalog, cluster configuration, problems, notices.

Every command assembles its inputs here, the KRM function included (its items arrive already parsed, as
``given`` documents), so an object means the same thing, and earns the same warnings, wherever it comes
from. The assembly is pure: the files are read through the :class:`~.sources.Reader` it is handed, and
problems are values in the returned :class:`Inputs`, never raised.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..api.names import VIRTUAL_MACHINE
from ..catalog import INDEXED_KINDS, Catalog
from ..catalog.loading import Builtin, load_catalog
from ..config import ClusterConfig, config_from, config_source, is_kubevirt_cr, rejection_error
from ..errors import InputError, Location, Notice, ToolError, located
from ..records import dataclass, field, replace
from ..schema.registry import GROUPS, split_api_version
from ..schema.server import Options as ValidateOptions
from ..validation import check_document
from ..yamlio import DEFAULT_LIMITS, Document, Limits, load_stream
from .duplicates import duplicates
from .exclude import excluded
from .generated_names import generated_names
from .lists import flatten
from .provenance import Provenances
from .sources import STDIN_NAME, Reader, Source

NOT_AN_OBJECT = "skipped: not a Kubernetes object (no kind)"
TOOL_CONFIGURATION = "skipped: kustomize configuration, not a Kubernetes object"
# Files of tools that name an apiVersion and kind but never reach a cluster (kustomization.yaml, components).
_TOOL_GROUPS = ("kustomize.config.k8s.io/",)
JUDGE_ALL = "all"  # every object is checked: render, revision, catalog, diff
JUDGE_USED = "used"  # only the kinds a render uses (the KRM function: kpt also sends its Kptfile)
JUDGE_NONE = "none"  # nothing is checked and no catalog is built: only the cluster configuration is wanted
_USED_KINDS = frozenset((VIRTUAL_MACHINE, *INDEXED_KINDS))


@dataclass(frozen=True)
class Request:
    """What a command asks for: its ``-f`` sources and how to read them, and where the catalog and the
    cluster configuration come from."""

    filenames: tuple[str, ...] = ()
    recursive: bool = False
    namespace: str = "default"
    limits: Limits = DEFAULT_LIMITS
    follow_symlinks: bool = False
    exclude: tuple[str, ...] = ()
    catalogs: tuple[str, ...] = ()
    builtin: bool = True
    kubevirt_config: str | None = None
    arch: str | None = None
    judge: str = JUDGE_ALL
    # A KubeVirt CR found elsewhere (the one the repository tracks, --repo-catalog): the configuration when
    # neither kubevirt_config nor a CR among the -f documents names one.
    fallback_config: str | None = None
    accept_removed: bool = False  # instancetype.kubevirt.io v1alpha1/v1alpha2, as KubeVirt before v1.7
    validate: str = "strict"  # kubectl's --validate: what the API server does with unknown fields
    as_stored: tuple[str, ...] = ()  # kinds read as the cluster stores them (see ..schema.server.Options)
    kubevirt_version: str | None = None  # --kubevirt-version (None: the KubeVirt CR's status, else the newest)
    jobs: int = 1  # processes that check the -f documents (0: every core for large inputs); see ..parallel
    # VirtualMachineTemplates become the VMs they process into (..vmtemplate.stage); False keeps them as they
    # are (a --write run must not put a processed VM into a template file)
    # or "keep", or "raw": each template's VM as it is written (suggest), or "check": kept as they are, their
    # processed VMs in Inputs.processed (a --write or --check run reports what render would refuse)
    templates: str = "process"
    # the seeded stream of generated parameter values (None: random, as KubeVirt; a str: one stream per
    # parameter, keyed by its name, so that a value changes only with its own parameter: diff)
    seed: int | str | None = None
    template_values: str | None = None  # a map of values by template path (relative to it) or name


@dataclass(frozen=True)
class Inputs:
    """The documents of the ``-f`` sources (flattened and checked), the catalog, the cluster configuration,
    and every problem and notice met on the way. ``blamed`` holds, in step with ``problems``, the document
    each problem is about (None: a whole source)."""

    documents: tuple[Document, ...]
    catalog: Catalog
    config: ClusterConfig
    problems: tuple[ToolError, ...] = ()
    notices: tuple[Notice, ...] = ()
    blamed: tuple[Document | None, ...] = ()
    files: tuple[str, ...] = field(default=())  # the sources read, by display name
    provenance: Provenances = field(default_factory=Provenances)  # files named by the annotations of stdin's objects
    # with templates="check": the VMs the templates process into, checked, for rendering aside
    processed: tuple[Document, ...] = ()


@dataclass
class _Found:
    """Problems and notices as the assembly meets them; frozen into :class:`Inputs` at the end."""

    problems: list[ToolError] = field(default_factory=list)
    blamed: list[Document | None] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    validate: ValidateOptions = field(default_factory=ValidateOptions)
    # the checks the read workers made of the -f documents, and with which options (see :func:`_expected`)
    ahead: tuple[ValidateOptions, list[_Check]] | None = None

    def fail(self, problem: ToolError, doc: Document | None = None) -> None:
        self.problems.append(problem)
        self.blamed.append(doc)


def gather(request: Request, reader: Reader, given: Sequence[Document] = (),
           builtin: Builtin | None = None) -> Inputs:
    """Read and check every source of ``request`` (after the ``given`` documents), then index the catalog.

    ``builtin`` is the built-in catalog (None: none); a cluster configuration that turns
    common-instancetypes off turns it off too.
    """
    found = _Found(validate=ValidateOptions(request.validate, request.namespace, request.accept_removed,
                                            as_stored=request.as_stored))
    listed = reader.sources(request.filenames, request.recursive, request.follow_symlinks)
    sources = [source for source in listed if not excluded(source, request.exclude)]  # -f only, not catalogs
    read = _read(sources, request.limits, reader, found, request.jobs, _expected(request, found.validate))
    # The configuration first: the release it names decides which schemas check every object.
    config = _config(request, reader, [*given, *read], found)
    found.validate = validating(found.validate, config, request.accept_removed)
    if request.templates not in ("keep", "check") and request.judge != JUDGE_NONE:
        given, read = _templates(list(given), reader, config, request, found), _templates(read, reader, config,
                                                                                          request, found)
    documents = _checked(list(given), request.judge, found)
    ahead = found.ahead[1] if found.ahead is not None and found.ahead[0] == found.validate else None
    documents += _checked(read, request.judge, found, request.jobs, ahead)
    processed = _processed_aside(documents, reader, config, request, found)
    found.notices.extend(duplicates(documents, request.namespace))
    found.notices.extend(generated_names(documents, request.namespace))
    catalogs = list(reader.sources(request.catalogs, True, False))
    catalog_docs = _checked(_read(catalogs, request.limits, reader, found), JUDGE_ALL, found)
    if not (request.builtin and config.common_instancetypes):
        builtin = None
    elif builtin is not None:
        builtin = builtin.at(config.release)
    provenance = Provenances.of(documents, STDIN_NAME)
    if request.judge == JUDGE_NONE:  # unchecked objects cannot be indexed
        return Inputs(tuple(documents), Catalog(default_namespace=request.namespace), config,
                      tuple(found.problems), tuple(found.notices), tuple(found.blamed), tuple(found.files), provenance)
    loaded = load_catalog(catalog_docs + documents, request.namespace, builtin, found.validate.accept_removed,
                          config.release)
    for problem, doc in zip(loaded.problems, loaded.blamed, strict=True):
        found.fail(problem, doc)
    found.notices.extend(located(text) for text in loaded.warnings)
    return Inputs(tuple(documents), loaded.catalog, config, tuple(found.problems), tuple(found.notices),
                  tuple(found.blamed), tuple(found.files), provenance, processed)


def _processed_aside(documents: list[Document], reader: Reader, config: ClusterConfig, request: Request,
                     found: _Found) -> tuple[Document, ...]:
    """With ``templates="check"``: the VMs the templates among ``documents`` process into, checked (their
    problems are ``found``'s), while the templates themselves stay in the documents as they are."""
    if request.templates != "check" or request.judge == JUDGE_NONE:
        return ()
    from ..api.templatekinds import is_template

    kept = [doc for doc in documents if is_template(doc.data)]
    if not kept:
        return ()
    return tuple(_checked(_templates(kept, reader, config, request, found), request.judge, found))


def _templates(docs: list[Document], reader: Reader, config: ClusterConfig, request: Request,
               found: _Found) -> list[Document]:
    """The documents with every template replaced by the VM it processes into (see ..vmtemplate.stage)."""
    from ..api.templatekinds import is_template

    if not any(is_template(doc.data) for doc in docs):
        return docs
    from ..vmtemplate.stage import params_paths, stage

    listed = _template_values(request, reader, found)

    def params_of(path: str, name: str) -> tuple[str, str] | None:
        if path != STDIN_NAME and "://" not in path:
            for candidate in params_paths(path):
                try:
                    return reader.read(Source(candidate, candidate), request.limits.max_bytes).text, candidate
                except InputError:
                    continue
        return listed.get(os.path.normpath(os.path.abspath(path))) or listed.get(name)

    from ..admission.gates import is_enabled

    staged = stage(docs, params_of, config.release, is_enabled(config, "Template"), request.seed,
                   raw=request.templates == "raw")
    for problem, doc in staged.problems:
        found.fail(problem, doc)
    found.notices.extend(staged.notices)
    found.ahead = None  # the read workers checked the templates, not their VMs
    return list(staged.documents)


def _template_values(request: Request, reader: Reader, found: _Found) -> dict[str, tuple[str, str]]:
    """--template-values: each entry's values (as the text of a params file, and where they are), by the
    template's absolute path or by its name."""
    if request.template_values is None:
        return {}
    where = request.template_values
    try:
        docs = load_stream(reader.read(Source(where, where), request.limits.max_bytes).text, where)
    except InputError as exc:
        found.fail(exc)
        return {}
    try:
        return template_values(docs[0].data if docs else {}, where)
    except InputError as exc:
        found.fail(exc)
        return {}


def template_values(data: Any, where: str) -> dict[str, tuple[str, str]]:
    """The entries of a --template-values file read from ``where``: each template's values (as the text of a
    params file, and where they are), by the template's absolute path and by its name."""
    from ..yamlio import dump_yaml

    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise InputError("--template-values: expected a map of template paths or names to maps of values",
                         Location(where))
    base = os.path.dirname(os.path.abspath(where))
    out: dict[str, tuple[str, str]] = {}
    for key, values in data.items():
        entry = (dump_yaml(values), f"{where} ({key})")
        out[str(key)] = entry
        out[os.path.normpath(os.path.join(base, str(key)))] = entry
    return out


def validating(validate: ValidateOptions, config: ClusterConfig, accept_removed: bool) -> ValidateOptions:
    """``validate`` for the release of ``config``: its schemas check every object."""
    # v1.5 still serves instancetype.kubevirt.io v1alpha1/v1alpha2 (as --accept-removed-versions takes them)
    accept = accept_removed or config.release.serves_instancetype_v1alpha
    return replace(validate, release=config.release.name, accept_removed=accept)


def _expected(request: Request, validate: ValidateOptions) -> tuple[str, ValidateOptions] | None:
    """How the -f documents will most likely be checked, so that the workers reading them check them too:
    under the release of the flags alone (a KubeVirt CR among the documents may name another; they are then
    checked again). None: no guess (--kubevirt-config is read later, or the flags are refused then)."""
    if request.judge == JUDGE_NONE or request.kubevirt_config or request.fallback_config or request.jobs == 1:
        return None
    try:
        config = config_from(None, (), request.arch, request.kubevirt_version)
    except ToolError:
        return None
    return request.judge, validating(validate, config, request.accept_removed)


def _read(sources: list[Source], limits: Limits, reader: Reader, found: _Found, jobs: int = 1,
          checking: tuple[str, ValidateOptions] | None = None) -> list[Document]:
    """Every document of every source; problems and warnings are collected (read in ``jobs`` processes,
    which also check the documents as ``checking`` says: see :attr:`_Found.ahead`)."""
    docs: list[Document] = []
    elsewhere = _read_elsewhere(sources, limits, reader, jobs, checking)
    checks: list[_Check] | None = [] if elsewhere is not None and checking is not None else None
    for source in sources:
        found.files.append(source.display)
        read, warning, made = (*_read_one(source, limits, reader), None) if elsewhere is None else next(elsewhere)
        if checks is not None and made is not None:
            checks.extend(made)
        elif made is None:
            checks = None
        if isinstance(read, InputError):
            found.fail(read)
            continue
        docs.extend(read)
        if warning:
            found.notices.append(Notice(warning))
    if checks is not None and checking is not None:
        found.ahead = checking[1], checks
    return docs


_Read = tuple[list[Document] | InputError, str | None]
# What a read worker sends back for one source: its documents (or why it cannot be read), the warning its
# reading gave, and the checks of its documents (None: not made)
_ReadChecked = tuple[list[Document] | InputError, str | None, list["_Check"] | None]
# the sources a forked worker reads, and how it checks their documents
_READING: list[tuple[list[Source], Limits, Reader, tuple[str, ValidateOptions] | None]] = []
FILES_FROM = 100  # files from which the default (``--jobs 0``) reads them in every core


def _read_one(source: Source, limits: Limits, reader: Reader) -> _Read:
    """The documents of ``source`` (or why it cannot be read), and the warning its reading gave."""
    content = ""
    try:
        text = reader.read(source, limits.max_bytes)
        content = text.text
        refuse_json_trailing_comma(text.text, source.display)
        return list(load_stream(text.text, source.display, limits)), text.warning
    except InputError as exc:
        return with_tab_hint(with_template_hint(exc, content), content), None


def _read_elsewhere(sources: list[Source], limits: Limits, reader: Reader, jobs: int,
                    checking: tuple[str, ValidateOptions] | None) -> Iterator[_ReadChecked] | None:
    """Each source read in ``jobs`` forked processes, in order, its documents checked as ``checking`` says;
    None when one process reads them (standard input and URLs are read here, so that one process does)."""
    from ..parallel import DEFAULT_FROM, how_many, ordered_map, spans

    if jobs == 1 or any(s.path == "-" or "://" in s.path for s in sources):
        return None
    processes = how_many(jobs, len(sources) * DEFAULT_FROM // FILES_FROM)
    if processes <= 1:
        return None
    _READING.append((sources, limits, reader, checking))
    try:
        return iter(list(ordered_map(_read_span, spans([s.display for s in sources], FILES_FROM // 10),
                                     processes)))
    finally:
        _READING.pop()


def _read_span(span: tuple[int, int]) -> list[_ReadChecked]:
    sources, limits, reader, checking = _READING[-1]
    out: list[_ReadChecked] = []
    for source in sources[span[0]:span[1]]:
        read, warning = _read_one(source, limits, reader)
        if isinstance(read, InputError):
            out.append((read, warning, []))
        else:
            out.append((read, warning, None if checking is None else _checks_of(read, *checking)))
    return out


def _checks_of(docs: list[Document], judge: str, validate: ValidateOptions) -> list[_Check] | None:
    """The checks of the documents of one source that :func:`_checked` checks (None: its Lists are malformed,
    which :func:`_checked` reports)."""
    try:
        flat = list(flatten(docs))
    except InputError:
        return None
    return [_check(doc, validate) for doc in _to_check(flat, judge)]


TEMPLATE_HINT = (" (this looks like a template, not a manifest: render it first, e.g. `helm template NAME CHART | "
                 "kubectl instancetype render -f -`, or leave it out with --exclude)")


def with_template_hint(exc: InputError, text: str) -> InputError:
    """``exc`` with a hint when the file that does not parse holds Go template actions (``{{ }}``)."""
    if "{{" not in text or "}}" not in text:
        return exc
    return InputError(exc.message + TEMPLATE_HINT, exc.location)


TAB_HINT = " (a tab: YAML indents with spaces only)"


def with_tab_hint(exc: InputError, text: str) -> InputError:
    """``exc`` with a hint when the YAML syntax error points at a tab (libyaml: "found character that cannot
    start any token", which does not say which character)."""
    where = exc.location
    if where is None or not exc.message.startswith("YAML syntax error") or "\t" not in text:
        return exc
    lines = text.split("\n", where.line)
    line = lines[where.line - 1] if len(lines) >= where.line else ""
    if where.col - 1 < len(line) and line[where.col - 1] == "\t":
        return InputError(exc.message + TAB_HINT, where)
    return exc


def refuse_json_trailing_comma(text: str, path: str) -> None:
    """kubectl reads a stream that starts with ``{`` as JSON (apimachinery's YAMLOrJSONDecoder) and refuses a
    trailing comma that YAML accepts: InputError with encoding/json's message and kubectl's byte offset."""
    import json
    import re

    if not text.lstrip(" \t\r\n").startswith("{"):
        return
    try:
        json.loads(text)
        return
    except ValueError:
        pass
    for match in re.finditer(r",(\s*)([}\]])", text):
        if _in_json_string(text, match.start()):
            continue
        at = match.end() - 1
        looking = "beginning of object key string" if match.group(2) == "}" else "beginning of value"
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        offset = len(text[: at + 1].encode("utf-8"))
        raise InputError(f"json: offset {offset}: invalid character '{match.group(2)}' looking for {looking}",
                         Location(path, line, col))


def _in_json_string(text: str, index: int) -> bool:
    """Whether ``index`` of JSON ``text`` is inside a string (an odd number of unescaped quotes before it)."""
    quotes, escaped = 0, False
    for char in text[:index]:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            quotes += 1
    return quotes % 2 == 1


def _checked(docs: Iterable[Document], judge: str, found: _Found, jobs: int = 1,
             ahead: list[_Check] | None = None) -> list[Document]:
    """The objects among ``docs`` (``kind: List`` flattened) that can be processed.

    Documents that are no Kubernetes objects (no kind: Helm values and Chart.yaml, CI workflows; or
    kustomize's own Kustomization and Component files) are skipped with a note.
    """
    out: list[Document] = []
    docs = list(docs)
    try:
        flat = list(flatten(docs))
    except InputError as exc:
        found.fail(exc)
        return out
    kept = {id(doc) for doc in flat}  # a List's own warnings (repeated keys) are not on its items
    found.notices.extend(located(w) for doc in docs if id(doc) not in kept for w in doc.warnings)
    checks = _checked_elsewhere(flat, judge, found.validate, jobs, ahead)
    for doc in flat:
        skipped = _skipped(doc)
        if skipped:
            if judge != JUDGE_USED and not _template_params(doc, found.files):  # a KRM function passes them on
                found.notices.append(Notice(skipped, doc.location, "note"))
            continue
        if judge == JUDGE_NONE or (judge == JUDGE_USED and not _used(doc)):
            out.append(doc)
            continue
        problems: list[ToolError] = []
        warnings: list[str] = []
        if checks is None:
            use = check_document(doc, found.validate, problems, warnings)
        else:
            use = _as_checked(doc, next(checks), problems, warnings)
        found.notices.extend(located(w) for w in warnings)
        for problem in problems:
            found.fail(problem, doc)
        if use is not None:
            out.append(use)
    return out


# A document's check as a worker sends it back: how it is used (None: refused; True: as read; else the data
# validation kept of it), its problems and its warnings.
_Check = tuple[Any, list[ToolError], list[str]]
_CHECKING: list[tuple[list[Document], ValidateOptions]] = []  # the documents a forked worker checks


def _checked_elsewhere(flat: list[Document], judge: str, validate: ValidateOptions, jobs: int,
                       ahead: list[_Check] | None = None) -> Iterator[_Check] | None:
    """The checks of the documents of ``flat`` that are to be checked, in order: ``ahead`` (made by the workers
    that read them), else made in ``jobs`` forked processes; None when one process does them (the caller
    checks as it goes)."""
    from ..parallel import TASK_ITEMS, how_many, ordered_map, spans

    if judge == JUDGE_NONE:
        return None
    todo = _to_check(flat, judge)
    if ahead is not None and len(ahead) == len(todo):
        return iter(ahead)
    processes = how_many(jobs, len(todo))
    if processes <= 1:
        return None
    _CHECKING.append((todo, validate))
    try:  # the checks are made before the caller's loop starts: the workers inherit ``todo`` as it is now
        return iter(list(ordered_map(_check_span, spans([d.source for d in todo], TASK_ITEMS), processes)))
    finally:
        _CHECKING.pop()


def _to_check(flat: list[Document], judge: str) -> list[Document]:
    return [doc for doc in flat if not _skipped(doc) and (judge != JUDGE_USED or _used(doc))]


def _check_span(span: tuple[int, int]) -> list[_Check]:
    todo, validate = _CHECKING[-1]
    return [_check(doc, validate) for doc in todo[span[0]:span[1]]]


def _check(doc: Document, validate: ValidateOptions) -> _Check:
    problems: list[ToolError] = []
    warnings: list[str] = []
    use = check_document(doc, validate, problems, warnings)
    return None if use is None else True if use is doc else use.data, problems, warnings


def _as_checked(doc: Document, check: _Check, problems: list[ToolError], warnings: list[str]) -> Document | None:
    """What :func:`check_document` answers for ``doc``, from its check made elsewhere."""
    use, found, said = check
    problems.extend(found)
    warnings.extend(said)
    if use is None or use is True:
        return None if use is None else doc
    return replace(doc, data=use, warnings=(), original=doc.as_read)  # as check_document makes it


def _template_params(doc: Document, files: list[str]) -> bool:
    """Whether ``doc`` is the params file of a template read beside it (``web.params.yaml`` for ``web.yaml``,
    among ``files``): the template's values, read with it, not a Kubernetes object to mention."""
    from ..vmtemplate.stage import PARAMS_SUFFIXES

    path = doc.source
    suffix = next((s for s in PARAMS_SUFFIXES if path.endswith(s)), None)
    if suffix is None or "://" in path or not isinstance(doc.data, dict):
        return False
    stem = path[: -len(suffix)]
    return any(stem + ext in files for ext in (".yaml", ".yml", ".json"))


def _skipped(doc: Document) -> str:
    """Why ``doc`` is no Kubernetes object to process; "" when it is one."""
    data = doc.data
    if not isinstance(data, dict) or ("kind" not in data and not _kubevirt_group(data.get("apiVersion"))):
        return NOT_AN_OBJECT
    if str(data.get("apiVersion", "")).startswith(_TOOL_GROUPS):
        return TOOL_CONFIGURATION
    return ""


def _holds_cr(read: list[Document]) -> bool:
    """Whether a KubeVirt CR is among the documents read (a List's items included)."""
    try:
        return any(is_kubevirt_cr(doc.data) for doc in flatten(read))
    except InputError:  # reported when the documents are checked
        return any(is_kubevirt_cr(doc.data) for doc in read)


def _checked_once(sources: list[Document], request: Request, read: list[Document], found: _Found) -> list[Document]:
    """The --kubevirt-config CR, checked; what the check says is said once: not when the CR is also an input of
    ``-f`` checked next (``diff .`` and ``validate -f . --kubevirt-config kubevirt.yaml`` read it twice)."""
    checking = _Found(validate=found.validate)
    checked = _checked(sources, JUDGE_ALL, checking)
    again = {os.path.normpath(doc.source) for doc in read} if request.judge == JUDGE_ALL else set()

    def said_again(location: Location | None) -> bool:
        return location is not None and os.path.normpath(location.path) in again

    found.notices.extend(n for n in checking.notices if not said_again(n.location))
    for problem, doc in zip(checking.problems, checking.blamed, strict=True):
        if not said_again(problem.location):
            found.fail(problem, doc)
    return checked


def _kubevirt_group(api_version: object) -> bool:
    """A document naming one of KubeVirt's groups is a KubeVirt object even without a kind: kubectl refuses
    it (``Object 'Kind' is missing``) rather than the tool skipping it like other YAML of a repository."""
    return isinstance(api_version, str) and split_api_version(api_version)[0] in GROUPS


def _used(doc: Document) -> bool:
    kind = doc.data.get("kind")
    return isinstance(kind, str) and kind in _USED_KINDS  # a kind may be any YAML value: [] is unhashable


def _config(request: Request, reader: Reader, read: list[Document], found: _Found) -> ClusterConfig:
    """The cluster configuration: --kubevirt-config, else a KubeVirt CR among the inputs (``read``, not yet
    checked), else the fallback; then --arch and --kubevirt-version."""
    named = (request.kubevirt_config,) if request.kubevirt_config else ()
    if not named and request.fallback_config and not _holds_cr(read):
        named = (request.fallback_config,)
    sources = _read(list(reader.sources(named, False, False)), request.limits, reader, found)
    if sources and isinstance(sources[0].data, dict) and "kind" in sources[0].data:  # a CR, not a bare config
        sources = _checked_once(sources[:1], request, read, found)
    try:
        documents = list(flatten(read))
    except InputError:  # reported when the documents are checked
        documents = read
    given = sources[0] if sources else None
    try:
        config = config_from(given, documents, request.arch, request.kubevirt_version)
    except ToolError as exc:  # a malformed configuration, or a KubeVirt version the tool does not know
        found.fail(exc)
        return ClusterConfig()
    source = config_source(given, documents)
    rejected = rejection_error(config, source)
    if rejected is not None:  # KubeVirt's validateConfig: it keeps its defaults, and so does the render
        found.fail(rejected)
    if config.release_warning is not None:  # a patch or build of a known line: its newest known release
        message, path = config.release_warning
        found.notices.append(Notice(message, source.locate(path) if path and source is not None else None))
    return config
