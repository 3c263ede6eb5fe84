"""Every instancetype × preference a template can name, processed and admitted or refused as KubeVirt would:
the answer a template author needs before publishing (``template matrix``).

The axes are the parameters the template's VM names its instancetype and preference with
(``spec.instancetype.name: ${INSTANCETYPE}``). Each axis takes, in order: the catalog objects a label selector
picks (``--instancetypes``/``--preferences``), the values the template's
``kubectl-instancetype.io/parameter-values`` annotation declares for that parameter, or every object of the
kind the catalog holds. A fixed name (no parameter) is an axis of one. Each cell is a parameter set processed
and checked by :mod:`.paramsets` (the template's own values underneath). A preference that no instancetype
satisfies is the finding (common-instancetypes#287 asks that each has at least one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .catalog import Catalog
from .catalog.selector import Selector
from .errors import InputError
from .paramsets import ANNOTATION, MAX_SETS, Verdict, sets_from_annotation
from .records import dataclass
from .vmtemplate.source import LoadedTemplate

_REFERENCE = re.compile(r"^\$\{([A-Za-z0-9_]+)\}$")
DEFAULT_KINDS = {"instancetype": "VirtualMachineClusterInstancetype", "preference": "VirtualMachineClusterPreference"}


@dataclass(frozen=True)
class Axis:
    """One side of the matrix: the parameter behind it ("" for a fixed name), the kind and the names tried,
    and where the names come from (``selector``, ``annotation``, ``catalog`` or ``fixed``)."""

    parameter: str
    kind: str
    names: tuple[str, ...]
    origin: str


@dataclass(frozen=True)
class Matrix:
    """The axes and one verdict per cell (instancetype-major)."""

    template: str
    instancetypes: Axis
    preferences: Axis
    cells: tuple[Verdict, ...]

    def cell(self, instancetype: str, preference: str) -> Verdict:
        i = self.instancetypes.names.index(instancetype)
        return self.cells[i * len(self.preferences.names) + self.preferences.names.index(preference)]

    def uncovered(self) -> list[str]:
        """The preferences no instancetype of the matrix satisfies."""
        return [p for p in self.preferences.names
                if not any(self.cell(i, p).admitted for i in self.instancetypes.names)]


def axis(loaded: LoadedTemplate, which: str, catalog: Catalog, namespace: str,
         selector: Selector | None) -> Axis:
    """The ``instancetype`` or ``preference`` axis of a template (see the module docstring)."""
    vm: Any = loaded.template.vm if isinstance(loaded.template.vm, dict) else {}
    spec: Any = vm.get("spec") if isinstance(vm.get("spec"), dict) else {}
    matcher: Any = spec.get(which) if isinstance(spec.get(which), dict) else {}
    given = matcher.get("kind")
    kind: str = given if isinstance(given, str) and given else DEFAULT_KINDS[which]
    name = matcher.get("name")
    found = _REFERENCE.match(name) if isinstance(name, str) else None
    if found is None:
        if not isinstance(name, str) or not name:
            raise InputError(f"the template's VirtualMachine names no {which} (spec.{which}.name): nothing to vary",
                             loaded.document.locate(loaded.template.origin))
        return Axis("", kind, (name,), "fixed")
    parameter = found.group(1)
    if selector is not None:
        names = [n for n in catalog.names(kind, namespace) if selector.matches(_labels(catalog, kind, namespace, n))]
        return Axis(parameter, kind, tuple(names), "selector")
    declared = _declared(loaded).get(parameter)
    if declared:
        return Axis(parameter, kind, declared, "annotation")
    return Axis(parameter, kind, tuple(catalog.names(kind, namespace)), "catalog")


def _labels(catalog: Catalog, kind: str, namespace: str, name: str) -> Mapping[str, str]:
    obj: Any = catalog.get(kind, namespace, name) or {}
    labels = (obj.get("metadata") or {}).get("labels") if isinstance(obj, dict) else None
    return labels if isinstance(labels, dict) else {}


def _declared(loaded: LoadedTemplate) -> dict[str, tuple[str, ...]]:
    """Each parameter's values in the annotation (the sets' columns), none without it."""
    if ANNOTATION not in (loaded.template.annotations or {}):
        return {}
    out: dict[str, list[str]] = {}
    for values in sets_from_annotation(loaded):
        for key, value in values.items():
            if value not in out.setdefault(key, []):
                out[key].append(value)
    return {k: tuple(v) for k, v in out.items()}


def parameter_sets(instancetypes: Axis, preferences: Axis, template: LoadedTemplate) -> list[dict[str, str]]:
    """The cells as parameter sets, refused at once beyond :data:`~.paramsets.MAX_SETS`."""
    count = len(instancetypes.names) * len(preferences.names)
    if count > MAX_SETS:
        raise InputError(f"{len(instancetypes.names)} instancetypes × {len(preferences.names)} preferences: {count} "
                         f"combinations, more than the limit of {MAX_SETS} (select fewer with --instancetypes or "
                         "--preferences)", template.document.location)
    if not count:
        empty = "instancetypes" if not instancetypes.names else "preferences"
        raise InputError(f"no {empty} to try: the selection matches none", template.document.location)
    out = []
    for i in instancetypes.names:
        for p in preferences.names:
            values: dict[str, str] = {}
            if instancetypes.parameter:
                values[instancetypes.parameter] = i
            if preferences.parameter:
                values[preferences.parameter] = p
            out.append(values)
    return out
