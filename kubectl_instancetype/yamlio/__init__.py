"""Everything that reads or writes YAML text: fast loading, kubectl-style dumping, round-trip editing.

This package is the only one that imports ruamel.yaml.
"""

from .emit import dump_json, dump_yaml, dump_yaml_all
from .load import DEFAULT_LIMITS, Document, Limits, load_stream, resolve_plain

__all__ = [
    "DEFAULT_LIMITS",
    "Document",
    "Limits",
    "dump_json",
    "dump_yaml",
    "dump_yaml_all",
    "load_stream",
    "resolve_plain",
]
