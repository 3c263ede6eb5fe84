"""GitHub Actions workflow commands (``::error file=…,line=…::message``): a property's value and a message as
the runner reads them back (``ActionCommand.UnescapeProperty``/``UnescapeData``), so that neither ends the
command nor starts another."""

from __future__ import annotations

import re

from .terminal import one_line


def data(text: str) -> str:
    """A command's message: ``%``, CR and LF percent-encoded as the runner decodes them (a message keeps its
    lines), every other control character escaped as the text report does."""
    kept = "".join(part if part in ("\r", "\n") else one_line(part) for part in re.split("([\r\n])", text))
    return kept.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def prop(text: str) -> str:
    """A property's value (``file=``, ``title=``): as :func:`data`, and ``:`` and ``,``, which end a value."""
    return data(text).replace(":", "%3A").replace(",", "%2C")



def is_command(line: str) -> bool:
    """Whether the runner reads a line of a step's log as a workflow command: it strips the leading whitespace
    and takes ``::name …::`` at the start, and the older ``##[name]`` anywhere in the line."""
    return line.lstrip().startswith("::") or "##[" in line


def stop(token: str) -> str:
    """The line after which the runner reads no workflow command until :func:`resume` with ``token``
    (``::stop-commands::``: GitHub's way to log text that is no command of the workflow's)."""
    return f"::stop-commands::{token}\n"


def resume(token: str) -> str:
    """The line that ends :func:`stop`."""
    return f"::{token}::\n"
