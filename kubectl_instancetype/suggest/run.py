"""``suggest`` over the documents of a run: each VirtualMachine's suggestion, or the problem that stopped it.

Problems are values, located as ``render`` locates them: a VM KubeVirt refuses as it is gets KubeVirt's
message at the field at fault, input no check anticipated is refused for that VM only, and the other VMs
still get their suggestions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..api.names import VIRTUAL_MACHINE
from ..errors import InputError, KubeVirtError, ToolError
from ..records import dataclass
from ..render import kubevirt_problem, vm_label
from ..yamlio import Document
from .engine import Suggestion, suggest
from .hints import hints
from .proof import Scope


@dataclass(frozen=True)
class Outcome:
    """One VirtualMachine document and its suggestion, or the problem met instead."""

    document: Document
    suggestion: Suggestion | None = None
    problem: ToolError | None = None

    def rewritten(self, accept_approximate: bool) -> bool:
        """Whether the VM's document changes: exact suggestions, and approximate ones when accepted."""
        found = self.suggestion
        return found is not None and found.vm is not None and (found.exact or accept_approximate)


def outcomes(documents: Iterable[Document], scope: Scope) -> Iterator[Outcome]:
    """The suggestion for every VirtualMachine among ``documents``, in order."""
    for doc in documents:
        if doc.data.get("kind") == VIRTUAL_MACHINE:
            yield _outcome(doc, scope)


def _outcome(doc: Document, scope: Scope) -> Outcome:
    vm = doc.data
    label = vm_label(vm, scope.namespace)
    try:
        return Outcome(doc, suggest(vm, scope, hints(vm, scope.namespace_of(vm), scope.catalog)))
    except KubeVirtError as exc:  # reported as render reports it: each cause located, the lookups' notes
        return Outcome(doc, problem=kubevirt_problem(exc, doc, label))
    except InputError as exc:
        return Outcome(doc, problem=InputError(f"{label}: {exc.message}", exc.location or doc.location))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        message = f"{label}: cannot be processed ({type(exc).__name__}: {exc})"
        return Outcome(doc, problem=InputError(message, doc.location))
