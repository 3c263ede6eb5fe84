"""The network admitter and the DRA admitter's creation checks (admission/network), each rule with KubeVirt's
exact message and field (pkg/network/admitter, pkg/dra/admitter, main d923fdb8). The whole webhooks are
compared with KubeVirt's answers in testdata/kubevirt-answers/net-*."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.admission import vm as vm_webhook
from kubectl_instancetype.admission import vmi as vmi_webhook
from kubectl_instancetype.admission.cause import Cause, FieldPath
from kubectl_instancetype.admission.network import rules
from kubectl_instancetype.admission.network.address import mac_error
from kubectl_instancetype.admission.network.dhcp import is_ipv4
from kubectl_instancetype.admission.network.ports import port_name_valid
from kubectl_instancetype.config import DEFAULT_CONFIG, ClusterConfig, load_config

Spec = dict[str, Any]
ROOT = FieldPath.of("spec", "template", "spec")
IFACES = "spec.template.spec.domain.devices.interfaces"


def gates(*names: str, **network: Any) -> ClusterConfig:
    conf: Spec = {"developerConfiguration": {"featureGates": list(names)}}
    if network:
        conf["network"] = network
    return load_config(conf)


def spec(interfaces: list[Spec] | None = None, networks: list[Spec] | None = None, **extra: Any) -> Spec:
    body: Spec = {"domain": {"devices": {"interfaces": interfaces or []}}, "networks": networks or []}
    body.update(extra)
    return body


POD = {"name": "default", "pod": {}}
MASQUERADE = {"name": "default", "masquerade": {}}


def causes(found: list[Cause]) -> list[tuple[str, str]]:
    return [(c.message, c.field) for c in found]


def validate(body: Spec, cfg: ClusterConfig = DEFAULT_CONFIG) -> list[tuple[str, str]]:
    return causes(rules.validate(ROOT, body, cfg))


def test_a_masquerade_interface_on_the_pod_network_passes() -> None:
    assert validate(spec([MASQUERADE], [POD])) == []


@pytest.mark.parametrize(("networks", "expected"), [
    ([POD, {"name": "b", "pod": {}}],
     [("more than one interface is connected to a pod network in spec.template.spec.interfaces",
       "spec.template.spec.interfaces")]),
    ([{"name": "a", "multus": {"networkName": "x", "default": True}},
      {"name": "b", "multus": {"networkName": "y", "default": True}}],
     [("Multus CNI should only have one default network", "spec.template.spec.networks")]),
    ([POD, {"name": "b", "multus": {"networkName": "y", "default": True}}],
     [("Pod network cannot be defined when Multus default network is defined", "spec.template.spec.networks")]),
    ([{"name": "a"}], [("should have a network type", "spec.template.spec.networks[0]")]),
    ([{"name": "a", "pod": {}, "multus": {"networkName": "x"}}],
     [("should have only one network type", "spec.template.spec.networks[0]")]),
    ([{"name": "a", "multus": {}}, {"name": "b", "multus": {}}],
     [("CNI delegating plugin must have a networkName", "spec.template.spec.networks[0]")]),
])
def test_network_sources(networks: list[Spec], expected: list[tuple[str, str]]) -> None:
    ifaces = [{"name": n["name"], "bridge": {}} for n in networks]
    found = [c for c in validate(spec(ifaces, networks)) if "Only one interface" not in c[0]]
    assert found == expected


def test_interface_states() -> None:
    body = spec([{"name": "default", "bridge": {}, "state": "absent"},
                 {"name": "nic", "sriov": {}, "state": "up"},
                 {"name": "sec", "masquerade": {}, "state": "absent"},
                 {"name": "odd", "bridge": {}, "state": "sideways"}],
                [POD, {"name": "nic", "multus": {"networkName": "n"}}, {"name": "sec", "multus": {"networkName": "s"}},
                 {"name": "odd", "multus": {"networkName": "o"}}])
    assert validate(body)[:4] == [
        ('"default" interface\'s state "absent" is not supported on default networks', f"{IFACES}[0].state"),
        ('"nic" interface\'s state "up" is not supported for SR-IOV NICs', f"{IFACES}[1].state"),
        ('"sec" interface\'s state "absent" is supported only for bridge binding', f"{IFACES}[2].state"),
        ("logical odd interface state value is unsupported: sideways", f"{IFACES}[3].state"),
    ]


def test_bindings_interface_by_interface() -> None:
    body = spec([{"name": "default", "masquerade": {}, "bridge": {}},
                 {"name": "sec", "masquerade": {}, "macAddress": "02:00:00:00:00:00"},
                 {"name": "p", "passtBinding": {}},
                 {"name": "old", "slirp": {}}],
                [POD, {"name": "sec", "multus": {"networkName": "s"}}, {"name": "p", "multus": {"networkName": "p"}},
                 {"name": "old", "multus": {"networkName": "o"}}])
    assert validate(body, gates(permitBridgeInterfaceOnPodNetwork=False)) == [
        ("logical default interface must have exactly one binding method or binding plugin", f"{IFACES}[0]"),
        ("Bridge on pod network configuration is not enabled under kubevirt-config", f"{IFACES}[0].name"),
        ("Masquerade interface only implemented with pod network", f"{IFACES}[1].name"),
        ("The requested MAC address is reserved for the in-pod bridge. Please choose another one.",
         f"{IFACES}[1].macAddress"),
        ("PasstBinding interface only implemented with pod network", f"{IFACES}[2].name"),
        ("logical old interface must have exactly one binding method or binding plugin", f"{IFACES}[3]"),
    ]


def test_passt_binding_gate_is_beta_and_can_be_disabled() -> None:
    body = spec([{"name": "default", "passtBinding": {}}], [POD])
    assert validate(body) == []
    off = load_config({"developerConfiguration": {"disabledFeatureGates": ["PasstBinding"]}})
    assert validate(body, off) == [("PasstBinding feature gate is not enabled", f"{IFACES}[0].name")]


def test_names_unique_and_assigned() -> None:
    body = spec([MASQUERADE, MASQUERADE, {"name": "lonely", "bridge": {}}],
                [POD, {"name": "default", "multus": {"networkName": "x"}},
                 {"name": "unused", "multus": {"networkName": "u"}}])
    # IndexNetworkSpecByName keeps the last network of a name: both interfaces meet the Multus one.
    assert validate(body) == [
        ("Masquerade interface only implemented with pod network", f"{IFACES}[0].name"),
        ("Masquerade interface only implemented with pod network", f"{IFACES}[1].name"),
        ('Network with name "default" already exists, every network must have a unique name',
         "spec.template.spec.networks[1].name"),
        ("spec.template.spec.networks[2].name 'unused' not found.", "spec.template.spec.networks[2].name"),
        ("Only one interface can be connected to one specific network", f"{IFACES}[1].name"),
        (f"{IFACES}[2].name 'lonely' not found.", f"{IFACES}[2].name"),
    ]


def test_interface_fields() -> None:
    body = spec([{"name": "bad name", "masquerade": {}, "model": "virtio-net", "macAddress": "de:ad:be:ef",
                  "pciAddress": "0000:81:01.8"}], [{"name": "bad name", "pod": {}}])
    assert validate(body) == [
        ("Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)",
         f"{IFACES}[0].name"),
        (f"interface {IFACES}[0].name uses model virtio-net that is not supported.", f"{IFACES}[0].model"),
        (f"interface {IFACES}[0].name has malformed MAC address (de:ad:be:ef).", f"{IFACES}[0].macAddress"),
        (f"interface {IFACES}[0].name has malformed PCI address (0000:81:01.8).", f"{IFACES}[0].pciAddress"),
    ]


@pytest.mark.parametrize(("mac", "error"), [
    ("", None), ("de:ad:00:00:be:af", None), ("DE-AD-00-00-BE-AF", None), ("dead.0000.beaf", None),
    ("02:00:5e:10:00:00:00:01", "too long MAC address (02:00:5e:10:00:00:00:01)"),
    ("0000.0000.0000.0000", "too long MAC address (0000.0000.0000.0000)"),
    ("de:ad-00:00:be:af", "malformed MAC address (de:ad-00:00:be:af)"),
    ("de:ad:00:00:be:af:", "malformed MAC address (de:ad:00:00:be:af:)"),
    ("zz:00:00:00:00:00", "malformed MAC address (zz:00:00:00:00:00)"),
])
def test_mac_addresses_as_go_parses_them(mac: str, error: str | None) -> None:
    assert mac_error(mac) == error


def test_forwarded_ports_on_the_pod_network_only() -> None:
    ports = [{"name": "http", "port": 0}, {"name": "http", "port": 65536, "protocol": "SCTP"},
             {"name": "-a", "port": 1}]
    assert validate(spec([{**MASQUERADE, "ports": ports}], [POD])) == [
        ("Duplicate name of the port: http", f"{IFACES}[0].ports[1].name"),
        ("Invalid name of the port: -a", f"{IFACES}[0].ports[2].name"),
        ("Port field is mandatory.", f"{IFACES}[0].ports[0].port"),
        ("Port field must be in range 0 < x < 65536.", f"{IFACES}[0].ports[1].port"),
        ("Unknown protocol, only TCP or UDP allowed", f"{IFACES}[0].ports[1].protocol"),
    ]
    secondary = spec([{"name": "s", "bridge": {}, "ports": ports}], [{"name": "s", "multus": {"networkName": "x"}}])
    assert validate(secondary) == []


@pytest.mark.parametrize(("name", "valid"), [
    ("http", True), ("h-2", True), ("123", False), ("a--b", False), ("-a", False), ("a-", False),
    ("averyveryverylongname", False), ("HTTP", False),
])
def test_port_names(name: str, valid: bool) -> None:
    assert port_name_valid(name) is valid


def test_port_ranges_need_their_gate() -> None:
    body = spec([{**MASQUERADE, "portRanges": [{"protocol": "TCP", "start": 1, "end": 2}]}], [POD])
    assert validate(body) == [
        ("portRanges is specified on interface but the PortRangesSpec feature gate is not enabled",
         f"{IFACES}[0].name")]
    empty = spec([{**MASQUERADE, "portRanges": []}], [POD])  # omitempty: no port ranges at all
    assert validate(empty) == []


def test_port_ranges_under_the_gate() -> None:
    ranges = [{"protocol": "TCP", "start": 100, "end": 200}, {"protocol": "TCP", "start": 150, "end": 300},
              {"protocol": "UDP", "start": 500, "end": 400}, {"protocol": "UDP", "start": 0, "end": 4},
              {"protocol": "UDP", "start": 4, "end": 70000}, {"protocol": "SCTP", "start": 1, "end": 2}]
    body = spec([{"name": "default", "bridge": {}, "ports": [{"port": 80}], "portRanges": ranges}], [POD])
    assert validate(body, gates("PortRangesSpec")) == [
        ("Cannot define both ports and portRanges on interface", f"{IFACES}[0].name"),
        ("portRanges are only supported on masquerade interfaces", f"{IFACES}[0].name"),
        ("Start must be less than or equal to end", f"{IFACES}[0].portRanges[2].start"),
        ("Start must be a valid port number, 0 < x < 65536", f"{IFACES}[0].portRanges[3].start"),
        ("End must be a valid port number, 0 < x < 65536", f"{IFACES}[0].portRanges[4].end"),
        ("Unknown protocol, only TCP or UDP allowed", f"{IFACES}[0].portRanges[5].protocol"),
        ("TCP portRanges [100-200] and [150-300] overlap", f"{IFACES}[0].portRanges"),
    ]
    many = spec([{**MASQUERADE, "portRanges": [{"protocol": "TCP", "start": i, "end": i} for i in range(1, 12)]}],
                [POD])
    assert validate(many, gates("PortRangesSpec")) == [
        ("No more than 10 portRanges are allowed", f"{IFACES}[0].portRanges")]


def test_dhcp_options() -> None:
    options = {"privateOptions": [{"option": 240, "value": "a"}, {"option": 240, "value": "b"},
                                  {"option": 255, "value": "c"}],
               "ntpServers": ["01.2.3.4", "::ffff:1.2.3.4", "1.2.3.256", "fe80::1"]}
    assert validate(spec([{**MASQUERADE, "dhcpOptions": options}], [POD])) == [
        ("Found Duplicates: you have provided duplicate DHCPPrivateOptions", "spec.template.spec"),
        ("provided DHCPPrivateOptions are out of range, must be in range 224 to 254", "spec.template.spec"),
        ("NTP servers must be a list of valid IPv4 addresses.", f"{IFACES}[0].dhcpOptions.ntpServers[2]"),
        ("NTP servers must be a list of valid IPv4 addresses.", f"{IFACES}[0].dhcpOptions.ntpServers[3]"),
    ]


@pytest.mark.parametrize(("address", "ipv4"), [
    ("1.2.3.4", True), ("001.002.003.004", True), ("::ffff:1.2.3.4", True), ("::ffff:0102:0304", True),
    ("::ffff:01.2.3.4", True), ("1.2.3.256", False), (" 1.2.3.4", False), ("1.2.3.4.5", False),
    ("fe80::1", False), ("::ffff:1.2.3.4%eth0", False), ("x", False),
])
def test_ntp_servers_parse_as_kubevirt_parses_them(address: str, ipv4: bool) -> None:
    assert is_ipv4(address) is ipv4


DRA_NET = {"name": "nic", "resourceClaim": {"claimName": "c1", "requestName": "r1"}}


def test_dra_networks_need_their_gate_and_no_multus() -> None:
    body = spec([{"name": "nic", "sriov": {}}], [DRA_NET])
    assert validate(body) == [(
        "vmi.spec.networks contains DRA networks but NetworkDevicesWithDRA feature gate is not enabled",
        "spec.template.spec.networks")]
    mixed = spec([{"name": "nic", "sriov": {}}, {"name": "m", "bridge": {}}],
                 [DRA_NET, {"name": "m", "multus": {"networkName": "x"}}])
    assert validate(mixed, gates("NetworkDevicesWithDRA")) == [(
        "mixing Multus and DRA resourceClaim networks in the same VMI is not supported", "spec.template.spec.networks")]


def test_dra_network_claims() -> None:
    nets = [DRA_NET, {"name": "b", "resourceClaim": {"claimName": "c1", "requestName": "r1"}},
            {"name": "c", "resourceClaim": {}}]
    body = spec([{"name": "nic", "sriov": {}}, {"name": "b", "masquerade": {}},
                 {"name": "c", "binding": {"name": "x"}}], nets)
    found = [c for c in validate(body, gates("NetworkDevicesWithDRA")) if "Masquerade" not in c[0]]
    assert found == [
        ('network references resourceClaim "c1" which is not defined in spec.resourceClaims',
         "spec.template.spec.networks[0].resourceClaim.claimName"),
        ('DRA network "b" requires an SR-IOV or binding plugin interface', IFACES),
        ('network references resourceClaim "c1" which is not defined in spec.resourceClaims',
         "spec.template.spec.networks[1].resourceClaim.claimName"),
        ('duplicate claimName/requestName combination "c1/r1"', "spec.template.spec.networks[1]"),
        ("claimName is required for DRA network", "spec.template.spec.networks[2].resourceClaim.claimName"),
        ("requestName is required for DRA network", "spec.template.spec.networks[2].resourceClaim.requestName"),
    ]


def dra(body: Spec, cfg: ClusterConfig = DEFAULT_CONFIG) -> list[tuple[str, str]]:
    return causes(rules.dra_creation(ROOT, body, cfg))


def test_resource_claims() -> None:
    claims = [{"name": ""}, {"name": "Bad_Name", "resourceClaimName": "x", "resourceClaimTemplateName": "y"},
              {"name": "Bad_Name", "resourceClaimName": "Not/A/Name"}]
    at = "spec.template.spec.resourceClaims"
    assert dra({"domain": {}, "resourceClaims": claims}) == [
        (f"{at}[0].name is a required field", f"{at}[0].name"),
        ("must specify one of: resourceClaimName, resourceClaimTemplateName", f"{at}[0]"),
        (f"{at}[1].name does not conform to the kubernetes DNS_LABEL rules: a lowercase RFC 1123 label must consist "
         "of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
         "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')", f"{at}[1].name"),
        ("at most one of resourceClaimName or resourceClaimTemplateName may be specified", f"{at}[1]"),
        ('duplicate resourceClaims name "Bad_Name"', f"{at}[2].name"),
        ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
         "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
         "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", f"{at}[2].resourceClaimName"),
    ]


def test_dra_gpus_and_host_devices() -> None:
    devices = {"gpus": [{"name": "g0", "deviceName": "nvidia/x"},
                        {"name": "g1", "claimName": "c1", "requestName": "r"}],
               "hostDevices": [{"name": "h0"}, {"name": "h1", "deviceName": "d", "claimName": "c"},
                               {"name": "h2", "deviceName": "d", "claimName": ""}]}  # omitempty: no claim
    assert dra({"domain": {"devices": devices}}) == [
        ("vmi.spec.domain.devices.gpus contains both DRA and non-DRA GPUs; each GPU must be either DRA or non-DRA",
         "spec.template.spec.domain.devices.gpus"),
        ("vmi.spec.domain.devices.hostDevices contains HostDevices without deviceName or claimRequest; each HostDevice "
         "must specify either a deviceName or a claimRequest", "spec.template.spec.domain.devices.hostDevices"),
        ("vmi.spec.domain.devices.hostDevices contains HostDevices with both deviceName and claimRequest",
         "spec.template.spec.domain.devices.hostDevices"),
    ]
    pair = {"claimName": "c1", "requestName": "r"}
    gpus = {"gpus": [{"name": "a", **pair}, {"name": "b", **pair}, {"name": "c", "claimName": "", "requestName": "r"}]}
    off = load_config({"developerConfiguration": {"disabledFeatureGates": ["GPUsWithDRA"]}})
    assert dra({"domain": {"devices": gpus}}, off) == [(
        "vmi.spec.domain.devices.gpus contains DRA enabled GPUs but feature gate is not enabled",
        "spec.template.spec.domain.devices.gpus")]
    gpu_at = "spec.template.spec.domain.devices.gpus"
    assert dra({"domain": {"devices": gpus}}) == [  # GPUsWithDRA is Beta: on unless disabled
        ('duplicate claimName/requestName pair "c1/r"', f"{gpu_at}[1]"),
        ("claimName is required for DRA GPU", f"{gpu_at}[2].claimName"),
        ("vmi.spec.resourceClaims must specify all claims used in vmi.spec.domain.devices.gpus and "
         "vmi.spec.domain.devices.hostDevices", "spec.template.spec.resourceClaims"),
    ]


def test_a_claim_pair_shared_by_a_gpu_and_a_network() -> None:
    body = spec([{"name": "nic", "sriov": {}}], [DRA_NET], resourceClaims=[{"name": "c1", "resourceClaimName": "x"}])
    body["domain"]["devices"]["gpus"] = [{"name": "g", "claimName": "c1", "requestName": "r1"}]
    assert dra(body, gates("GPUsWithDRA", "NetworkDevicesWithDRA")) == [(
        'duplicate claimName/requestName pair "c1/r1" between GPUs[0] and Networks[0]',
        "spec.template.spec.networks[0]")]
    assert dra(body) == []  # without the (Alpha) network gate, networks have no pairs


def test_discontinued_bindings_on_creation() -> None:
    body = spec([{"name": "a", "slirp": {}, "macvtap": {}}, {"name": "b", "passt": {}}])
    at = FieldPath(("spec", "template", "spec"), "spec")
    assert causes(rules.validate_creation(at, body, DEFAULT_CONFIG)) == [
        ("Slirp interface support has been discontinued since v1.3", "spec.domain.devices.interfaces[0].slirp"),
        ("Macvtap network binding has been discontinued since v1.3", "spec.domain.devices.interfaces[0].macvtap"),
        ("Passt network binding has been discontinued since v1.3", "spec.domain.devices.interfaces[1].passt"),
    ]


def test_the_vm_webhook_names_creation_causes_as_kubevirt_does_and_locates_them_in_the_template() -> None:
    template = spec([{"name": "default", "slirp": {}}], [POD])
    vm = {"spec": {"runStrategy": "Always", "template": {"spec": template}}}
    verdict = vm_webhook.admit_create(vm, template, "default", DEFAULT_CONFIG)
    assert verdict.causes == (Cause("Slirp interface support has been discontinued since v1.3",
                                    "spec.domain.devices.interfaces[0].slirp",
                                    ("spec", "template", "spec", "domain", "devices", "interfaces", 0, "slirp")),)


def test_the_vmi_webhook_meets_the_network_rules_twice() -> None:
    """virt-api's SIG-Network spec validator runs them, then ValidateVirtualMachineInstanceSpec again."""
    body = spec([{"name": "default", "masquerade": {}}], [{"name": "default", "multus": {"networkName": "x"}}])
    at = FieldPath.of("spec")
    assert causes(rules.vmi_spec_validators(at, body, DEFAULT_CONFIG)) == [
        ("Masquerade interface only implemented with pod network", "spec.domain.devices.interfaces[0].name")]
    verdict = vmi_webhook.admit_create({"spec": body}, DEFAULT_CONFIG)
    messages = [c.message for c in verdict.causes]
    assert messages.count("Masquerade interface only implemented with pod network") == 2
