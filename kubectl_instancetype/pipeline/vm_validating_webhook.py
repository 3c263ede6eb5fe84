"""KubeVirt's VM validating webhook, the instance type checks (pkg/instancetype/webhooks/vm/admitter.go and
pkg/virt-api/webhooks/validating-webhook/admitters/vms-admitter.go).

A failed lookup is only logged: the checks go on with what was found (an instance type that cannot be found
is no instance type, so the preference's requirements are checked against the VM's own resources), and the
lookup error is left to expand or virt-controller. On a copy of the template it checks, in order: the
spread divisibility (pkg/instancetype/preference/validation/cpu.go) and the conflicts of applying the
instance type and preference (only when one was found), then the cluster defaults, whose pod network may
be refused (for every VM, with or without matchers), then the preference requirements
(pkg/instancetype/preference/requirements). On create the rest of the webhook follows on the VM with that
template (:mod:`..admission.vm`); its warnings go to the context. The VM itself is not changed.
"""

from __future__ import annotations

from typing import Any

from ..admission.cause import Cause, joined
from ..admission.vm import admit_create
from ..api.golang import clone_json
from ..errors import KubeVirtError
from ..expand.apply import apply_spec
from ..expand.defaults import cluster_defaults
from ..expand.requirements import check_requirements, check_spread
from .lookup import Context

Spec = dict[str, Any]
STAGE = "admit"
BASE = "spec.template.spec"  # KubeVirt's conflict paths start at the VM's template spec
INTERFACES = ("spec", "template", "spec", "domain", "devices", "interfaces")  # where pod network refusals point


def conflict_field(path: str, root: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The VM field a conflict path names; ``root`` is where the object the path starts from sits in the VM
    (a VMI's ``spec`` is the VM's ``spec.template``). ``annotations.<key>`` paths have no base in KubeVirt."""
    if path.startswith("annotations."):
        return ("spec", "template", "metadata", "annotations", path[len("annotations."):])
    return (*root, *path.split("."))


def conflict_cause(path: str) -> str:
    """The message of one conflict's cause (``Conflict.Error()``)."""
    return f"VM field(s) {path} conflicts with selected instance type"


def conflicts_message(paths: list[str]) -> str:
    """What the webhook answers: one cause per path, joined (the first ten, then a count)."""
    causes = [conflict_cause(path) for path in paths]
    text = ", ".join(causes[:10])
    if len(causes) > 10:
        text += f", and {len(causes) - 10} more validation errors"
    return text


def admit(vm: Spec, ctx: Context) -> Spec:
    """``vm`` unchanged, or KubeVirt's rejection as a KubeVirtError of stage ``admit``."""
    matched = ctx.matched
    if matched.failures and not ctx.config.release.admits_missing_matcher_objects:
        failure = matched.failures[0]  # v1.5 refuses a VM whose instancetype or preference it cannot find
        raise KubeVirtError(f"Failure to find {failure.field[-1]}: {failure.message}", STAGE, field=failure.field)
    it, pref = matched.instancetype_spec, matched.preference_spec
    template = (vm.get("spec") or {}).get("template") or {}
    spec, meta = clone_json(template.get("spec") or {}), clone_json(template.get("metadata") or {})
    if matched.anything:
        spread = check_spread(it, pref)
        if spread:
            raise KubeVirtError(spread, STAGE, field=("spec", "instancetype"))
        conflicts = apply_spec(BASE, it, pref, spec, meta, release=ctx.config.release)
        if conflicts:
            # One StatusCause per conflicting field (Conflicts.StatusCauses, pkg/instancetype/conflict/
            # conflicts.go), each at its own field; the message joins them as the admission response does.
            located = tuple((conflict_cause(path), conflict_field(path)) for path in conflicts)
            raise KubeVirtError(conflicts_message(conflicts), STAGE, tuple(conflicts), located[0][1], located)
    network = cluster_defaults(ctx.config, spec)
    if network is not None:
        raise KubeVirtError(network, STAGE, field=INTERFACES)
    problem = check_requirements(it, pref, spec, ctx.config.release)
    if problem:
        raise KubeVirtError(f"failure checking preference requirements: {problem}", STAGE, field=("spec", "preference"))
    verdict = admit_create(vm, spec, ctx.namespace, ctx.config)
    if verdict.causes:
        raise refusal(verdict.causes, STAGE)
    ctx.warnings.extend(verdict.warnings)
    return vm


def refusal(causes: tuple[Cause, ...], stage: str, root: tuple[str, ...] = ()) -> KubeVirtError:
    """A webhook's refusal: its causes joined, located at the first cause that names a field. ``root`` is
    where the reviewed object sits in the VM (a VMI's ``spec`` is the VM's ``spec.template``)."""
    located = tuple((c.message, _in_vm(c.keys, root)) for c in causes)
    field = next((keys for _, keys in located if keys), ("spec",))
    return KubeVirtError(joined(causes), stage, field=field, causes=located)


def _in_vm(keys: tuple[str | int, ...], root: tuple[str, ...]) -> tuple[str | int, ...]:
    if not keys or not root:
        return keys
    return (*root, *keys[1:]) if keys[0] == "spec" else ("spec", "template", *keys)
