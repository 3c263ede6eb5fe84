"""virt-controller's refusal of discontinued interface bindings (pkg/network/admitter/discontinued.go)."""

from __future__ import annotations

from kubectl_instancetype.admission.network.discontinued import controller_refusal
from kubectl_instancetype.config import ClusterConfig

CFG = ClusterConfig()


def test_one_cause_per_binding_joined_by_newlines() -> None:
    spec = {"domain": {"devices": {"interfaces": [{"name": "a", "masquerade": {}}, {"name": "b", "macvtap": {}},
                                                  {"name": "c", "slirp": {}, "passt": {}}]}}}
    assert controller_refusal(spec, CFG) == (
        "failed create validation: "
        "&StatusCause{Type:FieldValueInvalid,Message:Macvtap network binding has been discontinued since v1.3,"
        "Field:spec.domain.devices.interfaces[1].macvtap,}\n"
        "&StatusCause{Type:FieldValueInvalid,Message:Slirp interface support has been discontinued since v1.3,"
        "Field:spec.domain.devices.interfaces[2].slirp,}\n"
        "&StatusCause{Type:FieldValueInvalid,Message:Passt network binding has been discontinued since v1.3,"
        "Field:spec.domain.devices.interfaces[2].passt,}"
    )


def test_current_bindings_pass() -> None:
    plugin = {"name": "a", "binding": {"name": "passt"}}  # the passt binding plugin replaced the discontinued one
    assert controller_refusal({"domain": {"devices": {"interfaces": [plugin]}}}, CFG) is None
    assert controller_refusal({}, CFG) is None
