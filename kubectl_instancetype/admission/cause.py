"""A webhook's reason to refuse, as a value: KubeVirt's message and the field it names.

``FieldPath`` spells a path as ``k8s.io/apimachinery``'s ``field.Path`` does (``spec.domain.devices.disks[0]``,
``metadata.annotations[kubevirt.io/x]``) and keeps the document keys it stands for, so that a cause can be
located in the input file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..config import ClusterConfig
from ..records import dataclass

Key = str | int
Spec = dict[str, Any]
MAX_CAUSES = 10  # pkg/util/webhooks/webhooks.go, ToAdmissionResponse


class FieldPath:
    """A field of the object under review: KubeVirt's spelling (``str()``, ``text``) and the document keys
    (``keys``). An immutable value, compared and hashed by both.

    The rules build a path for every field they look at and name one only when they refuse it: a path made
    by ``child``, ``index`` or ``key`` holds its parent and its step, and spells ``keys`` and ``text`` on
    first use (a quarter of the admission time of a clean VM went to spelling paths nobody read).
    """

    __slots__ = ("_keys", "_kind", "_parent", "_step", "_text")  # keys and text have no setter: immutable

    def __init__(self, keys: tuple[Key, ...] = (), text: str = "") -> None:
        self._parent: FieldPath | None = None
        self._step: Any = None
        self._kind = ""
        self._keys: tuple[Key, ...] | None = keys
        self._text: str | None = text

    @staticmethod
    def of(*names: str) -> FieldPath:
        """``field.NewPath(names...)``."""
        return FieldPath().child(*names)

    def _below(self, kind: str, step: Any) -> FieldPath:
        path = FieldPath.__new__(FieldPath)
        path._parent, path._step, path._kind, path._keys, path._text = self, step, kind, None, None
        return path

    def child(self, *names: str) -> FieldPath:
        """``Child(names...)``: each name a field below this one."""
        path = _new(FieldPath)  # _below inline: the rules make tens of paths for every VM
        path._parent, path._step, path._kind, path._keys, path._text = self, names, "child", None, None
        return path

    def index(self, i: int) -> FieldPath:
        """``Index(i)``: the i-th item of this list."""
        path = _new(FieldPath)
        path._parent, path._step, path._kind, path._keys, path._text = self, i, "index", None, None
        return path

    def key(self, k: str) -> FieldPath:
        """``Key(k)``: the entry ``k`` of this map."""
        return self._below("key", k)

    @property
    def keys(self) -> tuple[Key, ...]:
        """The document keys of the field."""
        if self._keys is None:
            assert self._parent is not None
            steps = self._step if self._kind == "child" else (self._step,)
            self._keys = (*self._parent.keys, *steps)
        return self._keys

    @property
    def text(self) -> str:
        """KubeVirt's spelling of the field (``spec.domain.devices.disks[0]``)."""
        if self._text is None:
            assert self._parent is not None
            text = self._parent.text
            if self._kind == "child":
                for name in self._step:
                    text = f"{text}.{name}" if text else name
            else:
                text = f"{text}[{self._step}]"
            self._text = text
        return self._text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"FieldPath(keys={self.keys!r}, text={self.text!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, FieldPath)
        return (self.keys, self.text) == (other.keys, other.text)

    def __hash__(self) -> int:
        return hash((self.keys, self.text))

    def cause(self, message: str) -> Cause:
        """A cause naming this field."""
        return Cause(message, self.text, self.keys)


_new = FieldPath.__new__


@dataclass(frozen=True)
class Cause:
    """One ``metav1.StatusCause``: KubeVirt's message, its ``Field`` string ("" for none) and the document
    keys of that field where they are known (else ``()``: the cause is located at the object)."""

    message: str
    field: str = ""
    keys: tuple[Key, ...] = ()


# One rule of a webhook: the field the spec sits at, the spec (a VMI spec, or a VM's template spec), and the
# cluster configuration; KubeVirt's causes in its order.
Rule = Callable[[FieldPath, Spec, ClusterConfig], list[Cause]]


def joined(causes: list[Cause] | tuple[Cause, ...]) -> str:
    """The message of a refusal: the first ten causes joined with ", ", then a count of the rest."""
    text = ", ".join(c.message for c in causes[:MAX_CAUSES])
    if len(causes) > MAX_CAUSES:
        text += f", and {len(causes) - MAX_CAUSES} more validation errors"
    return text


def run_rules(rules: tuple[Rule, ...], field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """Every rule's causes, in the rules' order."""
    causes: list[Cause] = []
    for rule in rules:
        causes.extend(rule(field, spec, cfg))
    return causes
