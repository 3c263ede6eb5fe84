"""Kubernetes' pod affinity and topology spread checks as KubeVirt copies them
(pkg/virt-api/webhooks/validating-webhook/admitters/validate-k8s-utils.go, with apimachinery's
``ValidateLabelSelector`` and ``ValidateLabelName``).

Each check returns Kubernetes field errors; KubeVirt makes each one a cause whose message is the error's
text (``spec.nodeAffinity...: Required value: ...``). The paths are KubeVirt's, quirks included: the affinity
is checked at the spec itself (``spec.nodeAffinity``, not ``spec.affinity.nodeAffinity``), a pod affinity
term's namespaces at ``namespace``, and a topology spread constraint's label selector at the list
(``topologySpreadConstraints.labelSelector``). The causes are located at the fields meant.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import go_json
from ..schema.fielderror import DUPLICATE, FORBIDDEN, INVALID, NOT_SUPPORTED, REQUIRED, TYPE_TEXT, go_value
from ..schema.names import dns1123_label, dns1123_subdomain, label_value, qualified_name
from .cause import Cause, FieldPath

SCHEDULE_ACTIONS = ("DoNotSchedule", "ScheduleAnyway")
_NO_VALUE = object()


class Named(str):
    """A value of a named Go string type (``NodeSelectorOperator``): ``field.Error`` prints it as JSON."""


def _error(at: FieldPath, kind: str, detail: str, value: Any = _NO_VALUE) -> Cause:
    """``field.Error.Error()`` as a cause at ``at``."""
    body = TYPE_TEXT[kind]
    if value is not _NO_VALUE and kind not in (REQUIRED, FORBIDDEN):
        body += f": {go_json(str(value)) if isinstance(value, Named) else go_value(value)}"
    return at.cause(f"{at}: {body}: {detail}" if detail else f"{at}: {body}")


def _moved(text: FieldPath, located: FieldPath) -> FieldPath:
    """KubeVirt's path ``text``, located at ``located``'s keys."""
    return FieldPath(located.keys, text.text)


def affinity(field: FieldPath, value: dict[str, Any]) -> list[Cause]:
    """``validateAffinity`` of the spec's ``affinity`` (KubeVirt passes the spec's path)."""
    located = field.child("affinity")
    causes: list[Cause] = []
    node = value.get("nodeAffinity")
    if node is not None:
        at = _moved(field.child("nodeAffinity"), located.child("nodeAffinity"))
        required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
        if required is not None:
            causes += _node_selector(required, at.child("requiredDuringSchedulingIgnoredDuringExecution"))
        preferred = node.get("preferredDuringSchedulingIgnoredDuringExecution") or []
        here = at.child("preferredDuringSchedulingIgnoredDuringExecution")
        for i, term in enumerate(preferred):
            weight = (term or {}).get("weight") or 0
            if weight <= 0 or weight > 100:
                causes.append(_error(here.index(i).child("weight"), INVALID, "must be in the range 1-100", weight))
            causes += _node_selector_term((term or {}).get("preference") or {}, here.index(i).child("preference"))
    for kind in ("podAffinity", "podAntiAffinity"):
        pod = value.get(kind)
        if pod is not None:
            causes += _pod_affinity(pod, _moved(field.child(kind), located.child(kind)))
    return causes


def _pod_affinity(pod: dict[str, Any], at: FieldPath) -> list[Cause]:
    causes: list[Cause] = []
    required = pod.get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is not None:
        here = at.child("requiredDuringSchedulingIgnoredDuringExecution")
        for i, term in enumerate(required):
            causes += _pod_affinity_term(term or {}, here.index(i))
    preferred = pod.get("preferredDuringSchedulingIgnoredDuringExecution")
    if preferred is not None:
        here = at.child("preferredDuringSchedulingIgnoredDuringExecution")
        for j, weighted in enumerate(preferred):
            weight = (weighted or {}).get("weight") or 0
            if weight <= 0 or weight > 100:
                causes.append(_error(here.index(j).child("weight"), INVALID, "must be in the range 1-100", weight))
            causes += _pod_affinity_term((weighted or {}).get("podAffinityTerm") or {},
                                         here.index(j).child("podAffinityTerm"))
    return causes


def _pod_affinity_term(term: dict[str, Any], at: FieldPath) -> list[Cause]:
    causes = label_selector(term.get("labelSelector"), at.child("labelSelector"))
    causes += label_selector(term.get("namespaceSelector"), at.child("namespaceSelector"))
    for name in term.get("namespaces") or []:
        causes += [_error(at.child("namespace"), INVALID, msg, name) for msg in dns1123_label(name)]
    key = term.get("topologyKey") or ""
    if not key:
        causes.append(_error(at.child("topologyKey"), REQUIRED, "can not be empty"))
    return causes + label_name(key, at.child("topologyKey"))


def _node_selector(selector: dict[str, Any], at: FieldPath) -> list[Cause]:
    terms = selector.get("nodeSelectorTerms") or []
    here = at.child("nodeSelectorTerms")
    if not terms:
        return [_error(here, REQUIRED, "must have at least one node selector term")]
    return [cause for i, term in enumerate(terms) for cause in _node_selector_term(term or {}, here.index(i))]


def _node_selector_term(term: dict[str, Any], at: FieldPath) -> list[Cause]:
    causes: list[Cause] = []
    for j, req in enumerate(term.get("matchExpressions") or []):
        causes += _node_requirement(req or {}, at.child("matchExpressions").index(j))
    for j, req in enumerate(term.get("matchFields") or []):
        causes += _node_field_requirement(req or {}, at.child("matchFields").index(j))
    return causes


def _node_requirement(req: dict[str, Any], at: FieldPath) -> list[Cause]:
    operator, values = req.get("operator") or "", req.get("values") or []
    causes = []
    if operator in ("In", "NotIn"):
        if not values:
            causes.append(_error(at.child("values"), REQUIRED, "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            causes.append(_error(at.child("values"), FORBIDDEN,
                                 "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            causes.append(_error(at.child("values"), REQUIRED,
                                 "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        causes.append(_error(at.child("operator"), INVALID, "not a valid selector operator", Named(operator)))
    return causes + label_name(req.get("key") or "", at.child("key"))


def _node_field_requirement(req: dict[str, Any], at: FieldPath) -> list[Cause]:
    operator, values = req.get("operator") or "", req.get("values") or []
    causes = []
    if operator in ("In", "NotIn"):
        if len(values) != 1:
            causes.append(_error(at.child("values"), REQUIRED,
                                 "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
    else:
        causes.append(_error(at.child("operator"), INVALID, "not a valid selector operator", Named(operator)))
    key = req.get("key") or ""
    if key != "metadata.name":
        return [*causes, _error(at.child("key"), INVALID, "not a valid field selector key", key)]
    for i, value in enumerate(values):
        causes += [_error(at.child("values").index(i), INVALID, msg, value) for msg in dns1123_subdomain(value)]
    return causes


def label_selector(selector: Any, at: FieldPath) -> list[Cause]:
    """apimachinery's ``ValidateLabelSelector`` with default options."""
    if selector is None:
        return []
    causes: list[Cause] = []
    for key, value in (selector.get("matchLabels") or {}).items():
        causes += label_name(key, at.child("matchLabels"))
        causes += [_error(at.child("matchLabels"), INVALID, msg, value) for msg in label_value(value)]
    for i, expr in enumerate(selector.get("matchExpressions") or []):
        here, expr = at.child("matchExpressions").index(i), expr or {}
        operator, values = expr.get("operator") or "", expr.get("values") or []
        if operator in ("In", "NotIn"):
            if not values:
                causes.append(_error(here.child("values"), REQUIRED,
                                     "must be specified when `operator` is 'In' or 'NotIn'"))
        elif operator in ("Exists", "DoesNotExist"):
            if values:
                causes.append(_error(here.child("values"), FORBIDDEN,
                                     "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        else:
            causes.append(_error(here.child("operator"), INVALID, "not a valid selector operator", Named(operator)))
        causes += label_name(expr.get("key") or "", here.child("key"))
        for j, value in enumerate(values):
            causes += [_error(here.child("values").index(j), INVALID, msg, value) for msg in label_value(value)]
    return causes


def label_name(name: str, at: FieldPath) -> list[Cause]:
    """apimachinery's ``ValidateLabelName``: a qualified name."""
    return [_error(at, INVALID, msg, name) for msg in qualified_name(name)]


def topology_spread_constraints(field: FieldPath, constraints: list[Any]) -> list[Cause]:
    """``validateTopologySpreadConstraints`` of the list at ``field``."""
    causes: list[Cause] = []
    for i, constraint in enumerate(constraints):
        constraint = constraint or {}
        here = field.index(i)
        skew = constraint.get("maxSkew") or 0
        if skew <= 0:
            causes.append(_error(here.child("maxSkew"), INVALID, "must be greater than zero", skew))
        key = constraint.get("topologyKey") or ""
        if not key:
            causes.append(_error(here.child("topologyKey"), REQUIRED, "can not be empty"))
        else:
            causes += label_name(key, here.child("topologyKey"))
        action = constraint.get("whenUnsatisfiable") or ""
        if action not in SCHEDULE_ACTIONS:
            allowed = ", ".join(f'"{a}"' for a in SCHEDULE_ACTIONS)
            causes.append(_error(here.child("whenUnsatisfiable"), NOT_SUPPORTED, f"supported values: {allowed}",
                                 Named(action)))
        selector_at = FieldPath(here.child("labelSelector").keys, field.child("labelSelector").text)
        causes += label_selector(constraint.get("labelSelector"), selector_at)
        for rest in constraints[i + 1:]:
            rest = rest or {}
            if (rest.get("topologyKey") or "") == key and (rest.get("whenUnsatisfiable") or "") == action:
                duplicate = FieldPath(here.keys, here.child("{topologyKey, whenUnsatisfiable}").text)
                causes.append(_error(duplicate, DUPLICATE, "", f"{{{key}, {action}}}"))
                break
    return causes
