"""The JSON tables shipped beside the package's modules (below every layer: it imports nothing of the package)."""

from __future__ import annotations

import json
import os
from importlib.machinery import ModuleSpec
from typing import Any


def json_beside(spec: ModuleSpec | None, module_file: str, *parts: str) -> Any:
    """The JSON file at ``parts`` beside the module of ``spec`` and ``module_file``, read through the module's
    loader as ``pkgutil.get_data`` reads it (a release is a zipapp), without importing pkgutil."""
    loader: Any = spec.loader if spec is not None else None
    return json.loads(loader.get_data(os.path.join(os.path.dirname(module_file), *parts)))
