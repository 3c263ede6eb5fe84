"""The events libyaml's parser (ruamel.yaml.clib) makes for the node kinds, as objects built without a Python
frame.

The parser makes every event by calling a class of its module by name, with positional arguments only.
ruamel.yaml's classes run three Python ``__init__`` frames an event; these classes are exceptions instead:
``BaseException`` keeps its positional arguments in ``args`` in C, so making an event costs no Python frame
(most of what reading a file of VMs spends beyond the parser itself). The builder of :mod:`.load` reads
``args`` directly; the other readers (positions, layout, splicing) read the same names as ruamel's events
through properties. They stand in for ruamel's classes in the parser module only: ruamel's own loaders and
dumpers compose nodes and emit in C, without these classes. Their names are ruamel's: the readers dispatch
on them.
"""

from __future__ import annotations

from typing import Any


def _arg(index: int, doc: str) -> Any:
    def get(event: BaseException) -> Any:
        return event.args[index]

    return property(get, doc=doc)


def _none(event: BaseException) -> None:
    return None


_NONE = property(_none, doc="what these events never carry (a comment, an item count)")


class ScalarEvent(BaseException):
    """``ScalarEvent(anchor, tag, implicit, value, start_mark, end_mark, style)``."""

    __slots__ = ()
    anchor = _arg(0, "the anchor (None: none)")
    tag = ctag = _arg(1, "the tag as written (None: none)")
    implicit = _arg(2, "(plain implicit, quoted implicit)")
    value = _arg(3, "the text")
    start_mark = _arg(4, "where the scalar starts")
    end_mark = _arg(5, "where it ends")
    style = _arg(6, "'' (plain), a quote, '|' or '>'")
    comment = _NONE


class _CollectionStart(BaseException):
    """``(anchor, tag, implicit, start_mark, end_mark, flow_style)``."""

    __slots__ = ()
    anchor = _arg(0, "the anchor (None: none)")
    tag = ctag = _arg(1, "the tag as written (None: none)")
    implicit = _arg(2, "whether the tag is implicit")
    start_mark = _arg(3, "where the collection starts")
    end_mark = _arg(4, "where its start ends")
    flow_style = _arg(5, "whether it is a flow collection")
    comment = nr_items = _NONE


class MappingStartEvent(_CollectionStart):
    __slots__ = ()


class SequenceStartEvent(_CollectionStart):
    __slots__ = ()


class _CollectionEnd(BaseException):
    """``(start_mark, end_mark)``."""

    __slots__ = ()
    start_mark = _arg(0, "where the end starts")
    end_mark = _arg(1, "where it ends")
    comment = _NONE


class MappingEndEvent(_CollectionEnd):
    __slots__ = ()


class SequenceEndEvent(_CollectionEnd):
    __slots__ = ()


CLASSES: tuple[type[BaseException], ...] = (
    ScalarEvent, MappingStartEvent, SequenceStartEvent, MappingEndEvent, SequenceEndEvent,
)


def converted(event: Any) -> Any:
    """One of ruamel's events as the class here of its name (ruamel's other events as they are): for a
    parser that would not make its events through these names."""
    name = type(event).__name__
    if name == "ScalarEvent":
        return ScalarEvent(event.anchor, event.tag, event.implicit, event.value, event.start_mark,
                           event.end_mark, event.style)
    if name in ("MappingStartEvent", "SequenceStartEvent"):
        kind = MappingStartEvent if name == "MappingStartEvent" else SequenceStartEvent
        return kind(event.anchor, event.tag, event.implicit, event.start_mark, event.end_mark, event.flow_style)
    if name in ("MappingEndEvent", "SequenceEndEvent"):
        end = MappingEndEvent if name == "MappingEndEvent" else SequenceEndEvent
        return end(event.start_mark, event.end_mark)
    return event
