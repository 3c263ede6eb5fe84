"""Everything a command needs before it renders: documents, the catalog, the cluster configuration."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..catalog import Catalog
from ..catalog.loading import BuiltinFind, load_catalog
from ..config import ClusterConfig, config_from
from ..errors import InputError, ToolError
from ..render import VMRenderer, check_document, default_vm_renderer, flatten
from ..yamlio import DEFAULT_LIMITS, Document
from .inputs import load_sources
from .options import CatalogOptions, InputOptions


@dataclass
class Session:
    """Inputs, catalog and configuration of one command run, with the problems met so far."""

    documents: list[Document]
    catalog: Catalog
    config: ClusterConfig
    problems: list[ToolError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def vm_renderer(self, vmi: bool) -> VMRenderer:
        if not vmi:
            return default_vm_renderer
        from ..pipeline.stages import render_vmi

        return render_vmi


def _checked(docs: list[Document], problems: list[ToolError]) -> list[Document]:
    out: list[Document] = []
    try:
        flat = list(flatten(docs))
    except InputError as exc:
        problems.append(exc)
        return out
    for doc in flat:
        try:
            check_document(doc)
        except InputError as exc:
            problems.append(exc)
            continue
        out.append(doc)
    return out


def build_session(inputs: InputOptions, catalogs: CatalogOptions) -> Session:
    """Read every source, then index the catalog; problems and warnings are collected, not raised."""
    problems: list[ToolError] = []
    warnings: list[str] = []
    documents = _checked(load_sources(inputs.filenames, inputs.recursive, inputs.limits, problems, warnings,
                                           inputs.follow_symlinks),
                         problems)
    catalog_docs = _checked(load_sources(catalogs.catalogs, True, DEFAULT_LIMITS, problems, warnings), problems)
    config = _config(catalogs, documents, problems)
    builtin = catalogs.builtin and config.common_instancetypes
    loaded = load_catalog(catalog_docs + documents, inputs.namespace, *_builtin(builtin))
    problems.extend(loaded.problems)
    warnings.extend(loaded.warnings)
    return Session(documents, loaded.catalog, config, problems, warnings)


def _builtin(enabled: bool) -> tuple[BuiltinFind | None, str]:
    """The built-in catalog's lookup and version, or nothing when it is turned off."""
    if not enabled:
        return None, ""
    from ..catalog.builtin import VERSION, find

    return find, VERSION


def _config(catalogs: CatalogOptions, documents: list[Document], problems: list[ToolError]) -> ClusterConfig:
    """The cluster configuration: --kubevirt-config, else a KubeVirt CR among the inputs; then --arch."""
    named = (catalogs.kubevirt_config,) if catalogs.kubevirt_config else ()
    sources = load_sources(named, False, DEFAULT_LIMITS, problems, [])
    try:
        return config_from(sources[0] if sources else None, documents, catalogs.arch)
    except InputError as exc:
        problems.append(exc)
        return ClusterConfig()
