"""Stand-ins for placeholders, so that a template's VM as written can be checked and rewritten (``suggest``).

Every ``${X}`` in the VM's strings and keys becomes ``kvtpl<hex of X>z``, a string every name, label and
annotation check accepts, and :func:`restored` turns a rewritten VM's stand-ins back into ``${X}``: the rewrite
keeps the template's placeholders. Whole-value ``${{X}}`` references are left as they are.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .parameters import STRING_REFERENCE


@cache
def _standin_re() -> re.Pattern[str]:
    return re.compile(r"kvtpl((?:[0-9a-f]{2})+)z")


def standin(name: str) -> str:
    return "kvtpl" + name.encode("utf-8").hex() + "z"


def _walk(value: Any, change: Any) -> Any:
    if isinstance(value, dict):
        return {change(k) if isinstance(k, str) else k: _walk(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, change) for v in value]
    return change(value) if isinstance(value, str) else value


def with_standins(vm: Any) -> Any:
    """``vm`` with every ``${X}`` replaced by its stand-in."""
    return _walk(vm, lambda text: STRING_REFERENCE.sub(lambda m: standin(m.group(1)), text))


def restored_text(text: str) -> str:
    """``text`` (a value, or a message naming one) with every stand-in turned back into its ``${X}``."""
    if "kvtpl" not in text:
        return text
    return _standin_re().sub(lambda m: "${" + bytes.fromhex(m.group(1)).decode("utf-8", "replace") + "}", text)


def restored(vm: Any) -> Any:
    """``vm`` with every stand-in turned back into its ``${X}``."""
    return _walk(vm, restored_text)
