"""Where a key of a ``pyproject.toml`` is, for the config file's messages (``path:line:col``): Python's
``tomllib`` keeps no positions, so the lines are read for the table headers and the ``key =`` lines of the
table the settings live in. Only messages use it; the settings themselves come from ``tomllib``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_HEADER = re.compile(r"\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?")
_KEY = re.compile(r"""([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=""")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in dotted.split("."))


def locator(path: str, text: str, table: tuple[str, ...]) -> Callable[[tuple[str, ...]], str]:
    """A function from a key path below ``table`` (``("diff", "fail-on")``) to ``path:line:col`` of that key,
    of the key that holds it (an inline table: ``diff = {fail-on = …}``), or of its own ``[table]`` header;
    ``path`` alone when none is found."""
    lines = text.splitlines()

    def locate(keys: tuple[str, ...]) -> str:
        wanted = table + tuple(str(k) for k in keys)
        current: tuple[str, ...] | None = None
        holder = ""
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            column = len(line) - len(line.lstrip()) + 1
            header = _HEADER.fullmatch(stripped) if stripped.startswith("[") else None
            if header is not None:
                current = _parts(header[1])
                if current == wanted:
                    return f"{path}:{number}:{column}"
                continue
            key = _KEY.match(stripped)
            if key is None or current is None:
                continue
            full = current + _parts(key[1])
            if full == wanted:
                return f"{path}:{number}:{column}"
            if not holder and len(full) < len(wanted) and wanted[:len(full)] == full:
                holder = f"{path}:{number}:{column}"
        return holder or path

    return locate
