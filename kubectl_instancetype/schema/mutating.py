"""KubeVirt's mutating admission webhooks, where the API server calls them: after decoding, before the CRD.

The create path (k8s.io/apiserver ``pkg/endpoints/handlers/create.go``): the body is decoded (unknown fields
pruned or refused, non-nullable nulls dropped, defaults), the namespace set, then **mutating admission** runs
(``mutatingAdmission.Admit``), and only then ``rest.BeforeCreate`` validates the patched object against the
CRD's schema, metadata and CEL rules (``pkg/registry/generic/registry/store.go``), before validating
admission. So where KubeVirt's mutating webhook and the CRD both refuse an object, a cluster answers with
KubeVirt's words, and what the CRD validates is the object as the webhook patched it.

KubeVirt registers four mutating webhooks (``pkg/virt-operator/resource/generate/components/webhooks.go``,
``NewVirtAPIMutatingWebhookConfiguration``): VirtualMachines and VirtualMachineInstances (modelled here),
VirtualMachineInstanceMigrations and VirtualMachineClones (kinds whose CRDs the tool does not hold: it passes
them through unvalidated, like a DataVolume). Each webhook is a list of rules in KubeVirt's order; a rule
returns causes (path, message), and the first rule with causes denies the request with all of them. The
patch (:func:`patch`) is what the webhook's Go round trip changes that the CRD would see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from ..api.matchers import MATCHERS, matcher_causes
from ..api.releases import BY_NAME
from ..quantity import QuantityError, from_json
from ..records import dataclass, replace
from . import godecode, webhook
from .fielderror import Path
from .tables import MAIN, Definitions, Node, kubevirt_definitions

Cause = tuple[Path, str]
QUANTITY = webhook.QUANTITY


@dataclass(frozen=True)
class Webhook:
    """One of KubeVirt's mutating webhooks: its registered name, the kind, the OpenAPI definition
    ``ValidateSchema`` checks the spec against (``"v1." + kind + "Spec"``, ``pkg/util/openapi/openapi.go``
    ``ValidateSpec``) and where the VMI spec sits in the object (its Go decoding names it ``VMISpecAlias``)."""

    name: str
    kind: str
    spec_definition: str
    vmi_spec: Path


@dataclass(frozen=True)
class Denial:
    """A webhook's refusal: its name and KubeVirt's causes, in KubeVirt's order (joined with ``, ``)."""

    webhook: str
    causes: tuple[Cause, ...]

    @property
    def message(self) -> str:
        return ", ".join(text for _, text in self.causes)

    @property
    def status(self) -> str:
        """The API server's status message (``webhookerrors.ToStatusErr``, apiserver
        ``pkg/admission/plugin/webhook/errors/statuserror.go``), which kubectl prints after ``Error from
        server (...): error when creating "<file>": ``."""
        return f'admission webhook "{self.webhook}" denied the request: {self.message}'


VM = Webhook("virtualmachines-mutator.kubevirt.io", "VirtualMachine", "v1.VirtualMachineSpec",
             ("spec", "template", "spec"))
VMI = Webhook("virtualmachineinstances-mutator.kubevirt.io", "VirtualMachineInstance",
              "v1.VirtualMachineInstanceSpec", ("spec",))
WEBHOOKS: dict[str, Webhook] = {hook.kind: hook for hook in (VM, VMI)}

# a rule: the object, the webhook, the KubeVirt release (one of tables.RELEASES) -> KubeVirt's causes
Rule = Callable[[dict[str, Any], Webhook, str], list[Cause]]


def validate_schema(obj: dict[str, Any], hook: Webhook, release: str,
                    quantities: list[tuple[Path, Any]] | None = None) -> list[Cause]:
    """``webhookutils.ValidateSchema`` (``pkg/util/webhooks/webhooks.go``; ``Validator.Validate``,
    ``pkg/util/openapi/openapi.go``): ``spec in body is required`` when there is none, then the spec against
    KubeVirt's definitions (a missing spec is then also ``must be of type object: "null"``). The status is
    checked against definitions open to unknown fields; the API server keeps it until after admission, but a
    status KubeVirt would refuse is not modelled. With ``quantities``, the spec's quantities are added there
    (:func:`.webhook.spec_problems`) for :func:`decode`."""
    causes: list[Cause] = [] if "spec" in obj else [(("spec",), "spec in body is required")]
    return causes + webhook.spec_problems(obj, _spec_definitions(release, hook.spec_definition), decode=False,
                                          quantities=quantities)


@functools.cache
def _spec_definitions(release: str, root: str) -> Definitions:
    """KubeVirt's definitions of ``release`` rooted at a webhook's spec definition (made once per run)."""
    return replace(kubevirt_definitions(release), root=root)


def decode(obj: dict[str, Any], hook: Webhook, release: str,
           quantities: list[tuple[Path, Any]] | None = None) -> list[Cause]:
    """Decoding the request into KubeVirt's Go type (``vm-mutator.go`` ``GetVMFromAdmissionReview``,
    ``vmi-mutator.go``): ``encoding/json`` stops at the first error an unmarshaler returns (a quantity
    ``resource.ParseQuantity`` refuses, a timestamp), in the order of the request's sorted keys; an integer
    out of its Go field's range is kept and returned only when nothing else failed (:mod:`.godecode`).
    ``quantities``: the spec's quantities with their paths, when the schema check found them."""
    spec, defs = obj.get("spec"), kubevirt_definitions(release)
    hard: list[Cause] = []
    if quantities is None:
        _quantity_failures(spec, defs.nodes[hook.spec_definition], ("spec",), defs, hard)
    else:
        for path, value in quantities:
            try:
                from_json(value)
            except QuantityError as exc:
                hard.append((path, exc.message))
    if hook is VM:
        hard += [(path, error) for path, error in godecode.timestamp_failures(spec)]
    if hard:
        return [min(hard, key=lambda cause: _order(cause[0]))]
    found = godecode.range_failure(_at(obj, hook.vmi_spec), hook.vmi_spec)
    return [found] if found is not None else []


def instancetype_matchers(obj: dict[str, Any], hook: Webhook, release: str) -> list[Cause]:
    """The instance type mutator's checks of the matchers (``vm-mutator.go`` 82,
    ``pkg/instancetype/webhooks/vm/mutator.go``), as the release words them: the instance type matcher's
    causes, else the preference matcher's. Resolving ``inferFromVolume`` needs the cluster's volumes and runs
    in the pipeline (pipeline/vm_mutating_webhook.py)."""
    for matcher in MATCHERS:
        causes = matcher_causes(matcher, obj, BY_NAME[release])
        if causes:
            return [(path, message) for message, path in causes]
    return []


def validate_then_decode(obj: dict[str, Any], hook: Webhook, release: str) -> list[Cause]:
    """:func:`validate_schema`'s causes, else :func:`decode`'s, on one walk of the spec: the schema check
    finds the quantities decoding parses (where the schema passes, its walk goes everywhere decoding's does)."""
    quantities: list[tuple[Path, Any]] = []
    return validate_schema(obj, hook, release, quantities) or decode(obj, hook, release, quantities)


RULES: dict[str, tuple[Rule, ...]] = {
    # vm-mutator.go VMsMutator.Mutate: ValidateSchema (66), decode (70), the instance type mutator (82)
    VM.kind: (validate_then_decode, instancetype_matchers),
    # vmi-mutator.go VMIsMutator.Mutate: ValidateSchema (99), decode (103); presets and ApplyNewVMIMutations
    # run in VMI mode's pipeline
    VMI.kind: (validate_then_decode,),
}


def deny(obj: dict[str, Any], kind: str, release: str = MAIN) -> Denial | None:
    """The refusal of ``kind``'s mutating webhook for ``obj`` (decoded and pruned by the API server), or
    None when it admits it (or ``kind`` has no webhook the tool models)."""
    hook = WEBHOOKS.get(kind)
    if hook is None:
        return None
    for rule in RULES[kind]:
        causes = rule(obj, hook, release)
        if causes:
            return Denial(hook.name, tuple(causes))
    return None


def patch(obj: dict[str, Any], kind: str, crd: Node, release: str = MAIN) -> dict[str, Any]:
    """``obj`` as KubeVirt's webhook returns it, as far as the CRD validation can tell: the webhook decodes
    the object into Go structs and writes them back (``vm-mutator.go`` replaces ``/spec`` and ``/metadata``),
    so a quantity comes back canonical (``"2Gi "`` is ``2Gi``: ``Quantity.UnmarshalJSON`` trims spaces; the
    CRD's pattern would refuse it) and a string or integer field Go writes without ``omitempty`` comes back as
    ``""`` or ``0`` where it was missing (``containerDisk.image``, a disk's or volume's ``name``): the CRD's
    ``Required value`` for those is never reached. Objects whose quantities and required fields are all
    present come back as they are (the same object)."""
    hook = WEBHOOKS.get(kind)
    if hook is None or not isinstance(obj.get("spec"), dict):
        return obj
    defs = kubevirt_definitions(release)
    spec = _go_round_trip(obj["spec"], crd.properties.get("spec"), defs.nodes[hook.spec_definition], defs)
    return obj if spec is obj["spec"] else {**obj, "spec": spec}


def _go_round_trip(value: Any, crd: Node | None, node: Node, defs: Definitions) -> Any:
    """``value`` with its quantities trimmed and the zero values of required non-omitempty fields written
    (a copy where something changed)."""
    if node.ref == QUANTITY:
        return value.strip() if isinstance(value, str) and value != value.strip() and _parses(value) else value
    known, additional, pair, fills = _TRIPS.get((crd, node)) or _trip(crd, node, defs)
    if isinstance(value, list):
        if pair is None:
            return value
        crd_items, items = pair
        out: list[Any] | None = None
        for i, item in enumerate(value):
            new = _go_round_trip(item, crd_items, items, defs)
            if new is not item:
                out = list(value) if out is None else out
                out[i] = new
        return value if out is None else out
    if not isinstance(value, dict):
        return value
    changed: dict[str, Any] = {}
    for key, item in value.items():
        if key in known:
            step = known[key]
            if step is None:
                continue  # nothing below can change
            crd_sub, sub = step
        elif additional is None:
            continue
        else:
            crd_sub, sub = _crd_child(crd, key), additional
        new = _go_round_trip(item, crd_sub, sub, defs)
        if new is not item:
            changed[key] = new
    for key, default in fills:
        if key not in value:
            changed[key] = default
    return {**value, **changed} if changed else value


class _Trip(NamedTuple):
    """What :func:`_go_round_trip` needs of a (CRD node, definition) pair, worked out once: the children that
    can change (a property below which nothing can is None), the additionalProperties definition, the items'
    pair when they can change, and the zero values a missing required field gets, in the CRD's order."""

    known: dict[str, tuple[Node | None, Node] | None]
    additional: Node | None
    items: tuple[Node | None, Node] | None
    fills: tuple[tuple[str, Any], ...]


_TRIPS: dict[tuple[Node | None, Node], _Trip] = {}


def _trip(crd: Node | None, node: Node, defs: Definitions) -> _Trip:
    resolved = defs.resolve(node)
    properties = resolved.properties
    known = {key: (_crd_child(crd, key), sub) for key, sub in properties.items()}
    add = resolved.additional if isinstance(resolved.additional, Node) else None
    if add is not None:  # a key outside the properties pairs it with the CRD's node of that key, or the CRD's map
        crd_subs: list[Node | None] = [sub for key, sub in crd.properties.items() if key not in properties] \
            if crd is not None else []
        crd_subs.append(crd.additional if crd is not None and isinstance(crd.additional, Node) else None)
        add = add if any(_changes(crd_sub, add, defs) for crd_sub in crd_subs) else None
    items = (crd.items if crd is not None else None, resolved.items) if resolved.items is not None else None
    fills = tuple((key, properties[key].default) for key in (crd.required if crd is not None else ())
                  if key in properties and isinstance(properties[key].default, (str, int)))
    trip = _TRIPS[(crd, node)] = _Trip({key: pair if _changes(*pair, defs) else None for key, pair in known.items()},
                                       add, items if items is not None and _changes(*items, defs) else None, fills)
    return trip


def _changes(crd: Node | None, node: Node, defs: Definitions) -> bool:
    """Whether the round trip may change a value at ``node``: a quantity may lie at or below it, or the CRD
    requires a field there or below (which Go writes back as its zero value when missing). Both come from
    flags of the tables, without a walk of the subtree (a value that only may change is walked for nothing)."""
    return defs.reaches(node, QUANTITY) or (crd is not None and crd.carries("required"))


def _crd_child(crd: Node | None, key: str) -> Node | None:
    if crd is None:
        return None
    sub = crd.properties.get(key)
    if sub is None and isinstance(crd.additional, Node):
        return crd.additional
    return sub


def _parses(text: str) -> bool:
    try:
        from_json(text)
    except QuantityError:
        return False
    return True


def _quantity_failures(value: Any, node: Node, path: Path, defs: Definitions, out: list[Cause]) -> None:
    """Every quantity of ``value`` Go's ``Quantity.UnmarshalJSON`` refuses, with apimachinery's message, added
    to ``out``."""
    if node.ref == QUANTITY:
        if value is not None:
            try:
                from_json(value)
            except QuantityError as exc:
                out.append((path, exc.message))
        return
    known, additional, items = _HOLDING.get(node) or _holding(node, defs)
    if isinstance(value, list):
        if items is not None:
            for i, item in enumerate(value):
                _quantity_failures(item, items, (*path, i), defs, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            sub = known.get(key, additional)
            if sub is not None:
                _quantity_failures(item, sub, (*path, key), defs, out)


# What :func:`_quantity_failures` walks of a definition: every property (None where no quantity can lie below
# it), the additionalProperties and the items definitions where one can.
_Holding = tuple[dict[str, Node | None], Node | None, Node | None]
_HOLDING: dict[Node, _Holding] = {}


def _holding(node: Node, defs: Definitions) -> _Holding:
    resolved = defs.resolve(node)
    add, items = resolved.additional, resolved.items
    holding = _HOLDING[node] = (
        {key: sub if defs.reaches(sub, QUANTITY) else None for key, sub in resolved.properties.items()},
        add if isinstance(add, Node) and defs.reaches(add, QUANTITY) else None,
        items if items is not None and defs.reaches(items, QUANTITY) else None,
    )
    return holding


def _order(path: Path) -> tuple[tuple[int, Any], ...]:
    """A path's place in a request whose object keys are sorted (list items in their order)."""
    return tuple((0, step) if isinstance(step, int) else (1, step) for step in path)


def _at(obj: Any, path: Path) -> Any:
    for step in path:
        obj = obj.get(step) if isinstance(obj, dict) else None
    return obj
