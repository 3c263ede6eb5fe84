"""Option decorators shared by the commands, each option declared once, and what they add up to."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from ..catalog.loading import Builtin
from ..config import ARCHITECTURES
from ..errors import UsageError, files_in_error
from ..inputs import Inputs, Request, gather
from ..records import dataclass, replace
from ..validation import MODE_ALIASES
from ..yamlio import DEFAULT_LIMITS, Limits
from .common import FILES_READ, report_settings
from .inputs import FILES, FileReader

FILENAME_HELP = ("A file, a directory, or - for standard input (YAML or JSON; repeatable). Documents that are "
                 "no Kubernetes objects (no kind: Helm values and Chart.yaml, CI workflows; kustomize's "
                 "Kustomization and Component files) are skipped with a note.")


@dataclass(frozen=True)
class InputOptions:
    """What ``-f``/``-R``/``-n``/``--exclude`` and the input limits say."""

    filenames: tuple[str, ...]
    recursive: bool
    namespace: str
    limits: Limits
    follow_symlinks: bool = False
    exclude: tuple[str, ...] = ()
    outside: tuple[str, ...] = ()  # directories never read as inputs (render --output-dir)
    validate: str = "strict"
    as_stored: tuple[str, ...] = ()  # kinds read as the cluster stores them (render --pod: the KubeVirt CR)
    # VirtualMachineTemplates: "process" into their VMs, "keep" as they are, or "raw": their VMs unprocessed,
    # placeholders and all (suggest rewrites them there); see ..vmtemplate.stage
    templates: str = "process"
    seed: int | str | None = None  # generated template values: the seeded stream (None: random)
    template_values: str | None = None  # --template-values: values of templates without a params file beside


@dataclass(frozen=True)
class CatalogOptions:
    """Where instancetypes and preferences come from, and the cluster configuration."""

    catalogs: tuple[str, ...]
    builtin: bool
    kubevirt_config: str | None
    arch: str | None
    accept_removed: bool = False
    kubevirt_version: str | None = None
    fallback_config: str | None = None  # a KubeVirt CR the repository tracks (--repo-catalog)


def assumed_release_text() -> str:
    """The release assumed without --kubevirt-version, and the catalog that comes with it (for --help)."""
    from ..api.releases import DEFAULT, known_versions
    from ..catalog.builtin.bundles import catalog_version

    return (f"Default: the KubeVirt CR's status.observedKubeVirtVersion, else {DEFAULT.name} (the newest release; "
            f"built-in catalog common-instancetypes {catalog_version(DEFAULT)}). Known: {known_versions()}.")


class VersionOption(click.Option):
    """An option naming a KubeVirt release, whose shell completion offers every release and release line."""

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        from ..api.releases import RELEASES

        lines = dict.fromkeys(f"{r.line[0]}.{r.line[1]}" for r in RELEASES if r.name != "main")
        return [CompletionItem(name) for name in (*lines, *(r.name for r in RELEASES)) if name.startswith(incomplete)]


class KubeVirtVersionOption(VersionOption):
    """``--kubevirt-version``, whose help names the default release and its catalog when it is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        return None if record is None else (record[0], f"{record[1]} {assumed_release_text()}")


def checked_version(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A known version (resolved again where it is used), or one line on stderr and exit 2."""
    if value is None or ctx.resilient_parsing:
        return value
    from ..api.releases import UnknownRelease, resolve

    try:
        resolve(value)
    except UnknownRelease as exc:
        click.echo(exc.render(), err=True)
        ctx.exit(exc.exit_code)
    return value


KUBEVIRT_VERSION_HELP = ("The KubeVirt release the cluster runs, whose behaviour, schemas and built-in catalog "
                         "the answers follow: a tag (v1.8.4, 1.8.4), a release line (1.8: its newest patch the "
                         "tool knows) or main. A newer patch or a build of a known line (v1.9.1, v1.9.1-rhel9) "
                         "is answered as the newest release of that line the tool knows, with a warning; an "
                         "unknown line is an error (exit 2).")


def kubevirt_version_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--kubevirt-version VERSION``, handed to the command as ``kubevirt_version`` (checked: exit 2)."""
    return click.option("--kubevirt-version", "kubevirt_version", metavar="VERSION", cls=KubeVirtVersionOption,
                        callback=checked_version, help=KUBEVIRT_VERSION_HELP)(func)


def version_of(own: str | None) -> str | None:
    """The version this command's option names, else the group's (``kubectl instancetype --kubevirt-version``).

    A flag given on the command line wins over the config file wherever it stands: the group's
    ``--kubevirt-version`` before the command beats a ``kubevirt-version`` the file set for the command."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    root = ctx.find_root()
    group = root.params.get("kubevirt_version")
    group = group if isinstance(group, str) else None
    from_file = ctx.get_parameter_source("kubevirt_version") is ParameterSource.DEFAULT_MAP
    if own is not None and not (from_file and group is not None):
        return own
    return group


def accept_removed_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--accept-removed-versions``, handed to the command as ``accept_removed``."""
    return click.option(
        "--accept-removed-versions", "accept_removed", is_flag=True,
        help="Accept instancetype.kubevirt.io/v1alpha1 and v1alpha2 instancetypes and preferences (and "
             "ControllerRevisions holding them) as KubeVirt before v1.7 did: served as v1beta1, with the API "
             "server's deprecation warning. By default they are refused, as KubeVirt v1.7 and later refuse them; "
             "`kubectl instancetype convert` rewrites them.")(func)


def filename_option(required: bool = False, help: str = FILENAME_HELP, metavar: str = "PATH") -> Any:
    return click.option("-f", "--filename", "filenames", multiple=True, required=required, metavar=metavar,
                        help=help)


recursive_option = click.option("-R", "--recursive", is_flag=True, help="Process directories of -f recursively.")
exclude_option = click.option(
    "--exclude", "exclude", multiple=True, metavar="GLOB",
    help="Leave out files whose path below the -f directory, base name or a directory on the way matches GLOB "
         "(* stays within a directory, ** crosses them; repeatable).")


def namespace_option(default: str | None = "default") -> Any:
    return click.option("-n", "--namespace", default=default, show_default=default is not None,
                        help="Namespace of objects that do not name one" + ("." if default else " (default: default)."))


VALIDATE_HELP = (
    "Check every KubeVirt object as the API server does on create (kubectl's --validate): strict (also true, the "
    "default) refuses unknown fields, warn prunes them with a warning, ignore (also false) prunes them silently; "
    "schema, metadata and KubeVirt's own schema errors refuse the object in every mode. A refused object is a "
    "finding: exit status 1, as for a VM KubeVirt refuses."
)


def validate_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--validate=strict|warn|ignore`` (``true``/``false`` as kubectl spells them), given as ``validate``."""

    def normalise(ctx: click.Context, param: click.Parameter, value: str) -> str:
        return MODE_ALIASES[value.lower()]

    return click.option("--validate", "validate", default="strict", show_default=True, metavar="MODE",
                        type=click.Choice(sorted(MODE_ALIASES), case_sensitive=False), callback=normalise,
                        help=VALIDATE_HELP)(func)


template_values_option = click.option(
    "--template-values", "template_values", metavar="FILE",
    help="Parameter values of the VirtualMachineTemplates among the inputs that have no params file beside them "
         "(NAME.params.yaml for NAME.yaml): a YAML map from a template's path (relative to FILE) or its "
         "metadata.name to a map of values.")


# The seeds a config file can hold (a YAML number is an int64 or a uint64, else a float: go-yaml's reading), so that
# --seed and the config's seed take the same numbers (issue 36 M2).
SEED = click.IntRange(-(2**63), 2**64 - 1)

template_seed_option = click.option(
    "--seed", "seed", type=SEED, metavar="N",
    help='Generated values of VirtualMachineTemplates from the seeded stream SHA-256("kv-template:N:0") || '
         'SHA-256("kv-template:N:1") || ... (as `template process --seed N`): the same seed, the same values. '
         "Without it they are random, as in KubeVirt. N is a whole number from -2^63 to 2^64-1.")


def input_options(func: Callable[..., Any] | None = None, *, required: bool = True) -> Any:
    """-f/-R/-n/--exclude, the input limits and --follow-symlinks, handed to the command as ``inputs``.

    ``required=False`` for commands that also take positional PATHs.
    """
    if func is None:
        return functools.partial(input_options, required=required)

    @filename_option(required=required)
    @recursive_option
    @exclude_option
    @namespace_option()
    @click.option("--max-nodes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_nodes, show_default=True,
                  help="Refuse a YAML document with more nodes than this once aliases are expanded.")
    @click.option("--max-input-bytes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_bytes,
                  show_default=True, help="Refuse an input stream larger than this.")
    @click.option("--follow-symlinks", is_flag=True,
                  help="Also read symbolic links in directories that lead out of them.")
    @validate_option
    @template_values_option
    @template_seed_option
    @functools.wraps(func)
    def wrapper(*args: Any, filenames: tuple[str, ...], recursive: bool, exclude: tuple[str, ...], namespace: str,
                max_nodes: int, max_input_bytes: int, follow_symlinks: bool, validate: str,
                template_values: str | None = None, seed: int | None = None, **kwargs: Any) -> Any:
        limits = Limits(max_nodes=max_nodes, max_depth=DEFAULT_LIMITS.max_depth, max_bytes=max_input_bytes)
        options = InputOptions(filenames, recursive, namespace, limits, follow_symlinks, exclude, validate=validate,
                               template_values=template_values, seed=seed)
        return func(*args, inputs=options, **kwargs)

    return wrapper


def builtin_enabled(no_builtin: bool) -> bool:
    """Whether the built-in catalog is used: neither this command nor the group turned it off."""
    root = click.get_current_context().find_root()
    return not (no_builtin or root.params.get("no_builtin_catalog"))


no_builtin_option = click.option("--no-builtin-catalog", "no_builtin", is_flag=True,
                                 help="Do not fall back to the built-in common-instancetypes catalog.")


def catalog_option(metavar: str = "PATH", help: str = "Instancetypes, preferences and ControllerRevisions: a file, "
                   "a directory (recursive), - or an http(s) URL (pin it with #sha256=<hex>); repeatable.") -> Any:
    return click.option("--catalog", "catalogs", multiple=True, metavar=metavar, help=help)


def kubevirt_config_option(help: str = "A KubeVirt CR (or a bare spec.configuration) whose settings the render "
                           "assumes.") -> Any:
    return click.option("--kubevirt-config", metavar="FILE", help=help)


arch_option = click.option("--arch", type=click.Choice(ARCHITECTURES), help="The cluster's default architecture.")


def catalog_options(func: Callable[..., Any]) -> Callable[..., Any]:
    @catalog_option()
    @no_builtin_option
    @kubevirt_config_option()
    @arch_option
    @kubevirt_version_option
    @accept_removed_option
    @functools.wraps(func)
    def wrapper(*args: Any, catalogs: tuple[str, ...], no_builtin: bool, kubevirt_config: str | None,
                arch: str | None, accept_removed: bool, kubevirt_version: str | None, **kwargs: Any) -> Any:
        options = CatalogOptions(catalogs, builtin_enabled(no_builtin), kubevirt_config, arch, accept_removed,
                                 version_of(kubevirt_version))
        return func(*args, catalogs=options, **kwargs)

    return wrapper


def request(inputs: InputOptions, catalogs: CatalogOptions, jobs: int = 1) -> Request:
    """The inputs layer's request for these options (``jobs``: the processes that check the documents)."""
    return Request(inputs.filenames, inputs.recursive, inputs.namespace, inputs.limits, inputs.follow_symlinks,
                   inputs.exclude, catalogs.catalogs, catalogs.builtin, catalogs.kubevirt_config, catalogs.arch,
                   accept_removed=catalogs.accept_removed, validate=inputs.validate, as_stored=inputs.as_stored,
                   kubevirt_version=catalogs.kubevirt_version, jobs=jobs, fallback_config=catalogs.fallback_config,
                   templates=inputs.templates, seed=inputs.seed, template_values=inputs.template_values)


def load(inputs: InputOptions, catalogs: CatalogOptions, jobs: int = 1) -> Inputs:
    """Everything a command needs, read from the files these options name (checked in ``jobs`` processes)."""
    reader = FileReader(inputs.outside) if inputs.outside else FILES
    loaded = gather(request(inputs, catalogs, jobs), reader, builtin=builtin_catalog(catalogs.builtin))
    from .report import refuse_reports_over

    refuse_reports_over((*loaded.files, *catalogs.catalogs, *filter(None, (catalogs.kubevirt_config,))))
    ctx = click.get_current_context(silent=True)
    if ctx is not None and report_settings().get("summary"):  # the -f files read: VMs or not, parsed or not,
        from ..inputs import excluded  # empty or not (a file holding only ---), catalogs aside

        listed = reader.sources(inputs.filenames, inputs.recursive, inputs.follow_symlinks)
        ctx.meta[FILES_READ] = len({s.display for s in listed if not excluded(s, inputs.exclude)}
                                   | {d.source for d in loaded.documents} | files_in_error(loaded.problems))
    return _nothing_read(inputs, loaded)




def _nothing_read(inputs: InputOptions, loaded: Inputs) -> Inputs:
    """``loaded``, with kubectl's "no objects passed" when ``-f`` named only directories that hold nothing but
    directories and ``-R`` was not given (the run would otherwise print nothing and succeed)."""
    import os

    if inputs.recursive or loaded.files or loaded.problems or not inputs.filenames:
        return loaded
    nested = [f for f in inputs.filenames if os.path.isdir(f) and any(e.is_dir() for e in os.scandir(f))]
    if len(nested) != len(inputs.filenames):
        return loaded
    ctx = click.get_current_context(silent=True)
    command = ctx.command.name if ctx is not None and ctx.command.name else "render"
    held = ", ".join(nested)
    problem = UsageError(f"no objects passed to {command}: {held} holds only directories; add -R (--recursive) "
                         "to read them")
    return replace(loaded, problems=(*loaded.problems, problem), blamed=(*loaded.blamed, None))


def builtin_catalog(enabled: bool) -> Builtin | None:
    """The built-in catalog, or None when it is turned off (imported only when on)."""
    if not enabled:
        return None
    return Builtin(_no_release, per_release=True)  # gather picks the catalog of the cluster's release


def _no_release(kind: str, name: str) -> None:
    raise AssertionError("the built-in catalog is looked up before the cluster's release is known")


@dataclass(frozen=True)
class WriteOptions:
    """What ``--write``/``--output-dir``/``--check``/``--diff``/``--color`` say."""

    write: bool = False
    output_dir: str | None = None
    check: bool = False
    diff: bool = False
    color: str = "auto"

    @property
    def active(self) -> bool:
        return self.write or self.output_dir is not None or self.check or self.diff

    @property
    def dry(self) -> bool:
        """Whether to leave every file alone (``--check``, ``--diff``)."""
        return self.check or self.diff


def write_options(func: Callable[..., Any] | None = None, *, output_dir: bool = True,
                  write_help: str = "Rewrite each file in place, keeping comments and formatting.") -> Any:
    """``-w/--write``, ``--check``, ``--diff`` and ``--color`` (and ``--output-dir`` unless ``output_dir`` is
    False) as one ``writing`` argument, a :class:`WriteOptions`."""
    alternative = " (or --output-dir)" if output_dir else ""

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def wrapper(*args: Any, write: bool, check: bool, show_diff: bool, color: str,
                    output_dir: str | None = None, **kwargs: Any) -> Any:
            return function(*args, writing=WriteOptions(write, output_dir, check, show_diff, color), **kwargs)

        options = [
            click.option("-w", "--write", is_flag=True, help=write_help),
            *([click.option("--output-dir", metavar="DIR",
                            help="Write the expanded files under DIR instead, mirroring the -f directories.")]
              if output_dir else []),
            click.option("--check", is_flag=True,
                         help=f"Write nothing; list the files --write{alternative} would change and exit 1 if any "
                              "(3 for a file it could not write)."),
            click.option("--diff", "show_diff", is_flag=True,
                         help=f"Write nothing; print the unified diff --write{alternative} would apply."),
            click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                         show_default=True, help="Colour the --diff output (auto: when standard output is a "
                                                 "terminal and NO_COLOR is unset)."),
        ]
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate(func) if func is not None else decorate


def outside_of(output_dir: str | None) -> tuple[str, ...]:
    """The directories whose files are never inputs: the output directory."""
    return (output_dir,) if output_dir is not None else ()



junit_option = click.option("--junit-xml", "junit_xml", metavar="FILE", type=click.Path(dir_okay=False),
                            help="Also write a JUnit XML report to FILE: one test case per VirtualMachine (- for "
                                 "standard output; a file is written as --output-file is).")


def jobs_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "-j", "--jobs", type=click.IntRange(min=0), default=0, show_default="0: every core for large inputs",
        help="Check and render in this many processes (results in input order, the output identical). 0: as "
             "many as there are cores when there are 1000 documents or more, else 1.")(function)
