"""A webhook's reason to refuse, as a value: KubeVirt's message and the field it names.

``FieldPath`` spells a path as ``k8s.io/apimachinery``'s ``field.Path`` does (``spec.domain.devices.disks[0]``,
``metadata.annotations[kubevirt.io/x]``) and keeps the document keys it stands for, so that a cause can be
located in the input file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..config import ClusterConfig

Key = str | int
Spec = dict[str, Any]
MAX_CAUSES = 10  # pkg/util/webhooks/webhooks.go, ToAdmissionResponse


@dataclass(frozen=True)
class FieldPath:
    """A field of the object under review: KubeVirt's spelling (``str()``) and the document keys."""

    keys: tuple[Key, ...] = ()
    text: str = ""

    @staticmethod
    def of(*names: str) -> FieldPath:
        """``field.NewPath(names...)``."""
        return FieldPath().child(*names)

    def child(self, *names: str) -> FieldPath:
        """``Child(names...)``: each name a field below this one."""
        keys, text = self.keys, self.text
        for name in names:
            keys, text = (*keys, name), f"{text}.{name}" if text else name
        return FieldPath(keys, text)

    def index(self, i: int) -> FieldPath:
        """``Index(i)``: the i-th item of this list."""
        return FieldPath((*self.keys, i), f"{self.text}[{i}]")

    def key(self, k: str) -> FieldPath:
        """``Key(k)``: the entry ``k`` of this map."""
        return FieldPath((*self.keys, k), f"{self.text}[{k}]")

    def __str__(self) -> str:
        return self.text

    def cause(self, message: str) -> Cause:
        """A cause naming this field."""
        return Cause(message, self.text, self.keys)


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
