"""What a command's table of the config file accepts: the long options of that command, read from its click
command (a group's: those of every subcommand), so that a new option is a setting the day it is added.

``diff: {restart-impact: true, fail-on: restart}`` is ``diff --restart-impact --fail-on restart`` written once
for the team. Each value is checked as the command line checks it, in YAML's words: a flag is true or false, a
choice one of its values, a number a whole number within the option's range, a repeatable option one value or a
list of them, a path relative to the config file. The settings every command shares (``catalog``,
``builtin-catalog``, ``validate``, …: :data:`.settings.KEYS`) keep their own rules, in a table too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..records import dataclass

BOOL = "true or false"


@dataclass(frozen=True)
class Setting:
    """One key of a command's table: the option it sets."""

    key: str
    option: click.Option

    @property
    def param(self) -> str:
        """The name click gives the option's value (its ``default_map`` key)."""
        assert self.option.name is not None
        return self.option.name

    @property
    def kind(self) -> str:
        """What the value must be, for the error that says it is not."""
        one = _kind(self.option)
        return f"{one} or a list of them" if self.option.multiple else one


def command(name: str) -> click.Command | None:
    """The click command ``name`` (``diff``), its common options included, as the command line runs it."""
    from . import main_group

    return main_group.get_command(click.Context(main_group), name)


def settings(cmd: click.Command) -> dict[str, Setting]:
    """The keys of ``cmd``'s table: each long option (``--fail-on`` is ``fail-on``) that takes a value from the
    command line; a group's are its subcommands'. The ``--no-…`` side of a ``--x/--no-x`` flag is ``x: false``."""
    out: dict[str, Setting] = {}
    for sub in _commands(cmd):
        for param in sub.params:
            if not isinstance(param, click.Option) or not param.expose_value or param.name is None \
                    or param.is_eager:
                continue
            for opt in param.opts:
                if opt.startswith("--"):
                    out.setdefault(opt[2:], Setting(opt[2:], param))
    return out


def _commands(cmd: click.Command) -> list[click.Command]:
    if isinstance(cmd, click.Group):
        return [c for sub in cmd.commands.values() for c in _commands(sub)]
    return [cmd]


def value(setting: Setting, raw: Any, relative: Callable[[str], str]) -> Any:
    """``raw`` (a value of the YAML or TOML file) as the option's default, or ValueError saying what it must be
    (``relative`` turns a path of the file into one of the working directory)."""
    option = setting.option
    if option.multiple:
        items = raw if isinstance(raw, list) else [raw]
        if not items:
            raise ValueError(setting.kind)
        return [_one(option, item, relative) for item in items]
    return _one(option, raw, relative)


def _one(option: click.Option, raw: Any, relative: Callable[[str], str]) -> Any:
    kind = option.type
    if option.is_flag:
        if not isinstance(raw, bool):
            raise ValueError(BOOL)
        return raw if option.is_bool_flag else option.flag_value if raw else option.default
    if isinstance(kind, click.Choice):
        choices = [str(c) for c in kind.choices]
        if not isinstance(raw, str) or not _chosen(raw, choices, kind.case_sensitive):
            raise ValueError(_kind(option))
        return raw
    if isinstance(kind, click.types.IntParamType):  # INT and IntRange
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise ValueError(_kind(option))
        try:
            return kind.convert(raw, option, None)  # the range, as the command line checks it
        except click.BadParameter:
            raise ValueError(_kind(option)) from None
    if isinstance(kind, click.types.FloatParamType):
        if not isinstance(raw, int | float) or isinstance(raw, bool):
            raise ValueError(_kind(option))
        return float(raw)
    if not isinstance(raw, str):
        raise ValueError(_kind(option))
    return relative(raw) if isinstance(kind, click.Path) and raw != "-" else raw


def _chosen(raw: str, choices: list[str], case_sensitive: bool) -> bool:
    return raw in choices if case_sensitive else raw.lower() in (c.lower() for c in choices)


def _kind(option: click.Option) -> str:
    kind = option.type
    if option.is_flag:
        return BOOL
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(str(c) for c in kind.choices)
    if isinstance(kind, click.IntRange):
        low, high = kind.min, kind.max
        bound = f" of at least {low}" if high is None else f" of at most {high}" if low is None \
            else f" from {low} to {high}"
        return f"a whole number{bound if low is not None or high is not None else ''}"
    if isinstance(kind, click.types.IntParamType):
        return "a whole number"
    if isinstance(kind, click.types.FloatParamType):
        return "a number"
    return "a path (a string)" if isinstance(kind, click.Path) else "a string"
