"""The VMI spec's names and DNS settings (pkg/virt-api/webhooks/validating-webhook/admitters/
vmi-create-admitter.go: ``validateHostNameNotConformingToDNSLabelRules``, ``validateSubdomainDNSSubdomainRules``,
``validateDNSPolicy``, ``validatePodDNSConfig``; the last two are copied there from Kubernetes' pod validation).

``validatePodDNSConfig`` names its causes' fields ``nameservers``, ``searchDomains`` and ``options``, bare,
not below the spec: KubeVirt's copy drops the path (located here at the dnsConfig entries they mean).
"""

from __future__ import annotations

from ..api.ipaddr import parse_sloppy, sanitize_ip
from ..config import ClusterConfig
from ..schema.names import dns1123_label, dns1123_subdomain
from .cause import Cause, FieldPath, Spec

DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None", "")
MAX_NAMESERVERS = 3
MAX_SEARCH_PATHS = 6
MAX_SEARCH_LIST_CHARS = 256


def hostname(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``spec.hostname``, when set, is a DNS-1123 label."""
    name = spec.get("hostname") or ""
    errors = dns1123_label(name) if name else []
    if not errors:
        return []
    at = field.child("hostname")
    return [at.cause(f"{at} does not conform to the kubernetes DNS_LABEL rules : {', '.join(errors)}")]


def subdomain(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``spec.subdomain``, when set, is a DNS-1123 subdomain."""
    name = spec.get("subdomain") or ""
    errors = dns1123_subdomain(name) if name else []
    if not errors:
        return []
    at = field.child("subdomain")
    return [at.cause(f"{at} does not conform to the kubernetes DNS_SUBDOMAIN rules : {', '.join(errors)}")]


def dns_policy(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``spec.dnsPolicy``, when set, is one of the pod DNS policies."""
    policy = spec.get("dnsPolicy") or ""
    if policy in DNS_POLICIES:
        return []
    valid = "[" + " ".join(DNS_POLICIES) + "]"  # Go's %s of a []string, the empty policy included
    return [field.child("dnsPolicy").cause(f"DNSPolicy: {policy} is not supported, valid values: {valid}")]


def pod_dns_config(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``spec.dnsConfig``: required with policy ``None`` (with a nameserver), else at most three valid IP
    nameservers, six search domains of 256 characters in all, each a DNS-1123 subdomain, named options."""
    config = spec.get("dnsConfig")
    if config is None and spec.get("dnsPolicy") != "None":
        return []
    at = field.child("dnsConfig")
    # KubeVirt's decoder has already respelled the addresses it can read (api.ipaddr.sanitize_ip)
    nameservers = [sanitize_ip(str(ns)) for ns in ((config or {}).get("nameservers") or [])]
    if spec.get("dnsPolicy") == "None":
        if config is None:
            return [at.cause("must provide `dnsConfig` when `dnsPolicy` is None")]
        if not nameservers:
            return [_bare(at, "nameservers", "must provide at least one DNS nameserver when `dnsPolicy` is None")]
    if config is None:
        return []
    causes = []
    if len(nameservers) > MAX_NAMESERVERS:
        shown = "[" + " ".join(nameservers) + "]"
        causes.append(_bare(at, "nameservers", f"must not have more than {MAX_NAMESERVERS} nameservers: {shown}"))
    causes.extend(_bare(at, "nameservers", f"must be valid IP address: {ns}") for ns in nameservers
                  if parse_sloppy(ns) is None)
    searches = [str(s) for s in (config.get("searches") or [])]
    if len(searches) > MAX_SEARCH_PATHS:
        causes.append(_bare(at, "searches", f"must not have more than {MAX_SEARCH_PATHS} search paths"))
    if len(" ".join(searches).encode()) > MAX_SEARCH_LIST_CHARS:
        causes.append(_bare(at, "searches", f"must not have more than {MAX_SEARCH_LIST_CHARS} characters "
                                            "(including spaces) in the search list"))
    causes.extend(_bare(at, "searches", msg) for search in searches for msg in dns1123_subdomain(search))
    for option in config.get("options") or []:
        if not (option or {}).get("name"):
            causes.append(_bare(at, "options", "Option.Name must not be empty"))
    return causes


def _bare(at: FieldPath, key: str, message: str) -> Cause:
    """A cause whose KubeVirt field is a bare name (``searches`` is called ``searchDomains``)."""
    return Cause(message, "searchDomains" if key == "searches" else key, (*at.keys, key))
