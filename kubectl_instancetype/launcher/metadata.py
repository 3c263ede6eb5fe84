"""The launcher Pod's labels and annotations (``podLabels``, ``generatePodAnnotations`` in ``template.go``,
the network annotation generator ``pkg/network/pod/annotations`` with ``pkg/network/multus``, and the storage
one ``pkg/storage/pod/annotations``: Velero's backup hooks)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..config import ClusterConfig
from . import settings, traits

Spec = dict[str, Any]
ISTIO_INJECT = "sidecar.istio.io/inject"
DROPPED_PREFIXES = ("kubectl.kubernetes.io", "kubevirt.io/storage-observed-api-version",
                    "kubevirt.io/latest-observed-api-version")


def labels(vmi: Spec, hostname: str, with_vmi_id: bool = True) -> dict[str, str]:
    meta = vmi.get("metadata") or {}
    out = dict(traits.labels(vmi))
    out["kubevirt.io"] = "virt-launcher"
    out["kubevirt.io/created-by"] = str(meta.get("uid") or "")
    out["vm.kubevirt.io/name"] = hostname
    if with_vmi_id:
        out["vmi.kubevirt.io/id"] = vmi_id(str(meta.get("name") or ""))
    annotations = traits.vmi_annotations(vmi)
    if ISTIO_INJECT in annotations:
        out[ISTIO_INJECT] = annotations[ISTIO_INJECT]
    return out


def vmi_id(name: str) -> str:
    """``apimachinery.CalculateVirtualMachineInstanceID``: the name, or a hash of it beyond 63 characters."""
    if len(name) <= 63:
        return name
    digest = hashlib.sha1(name.encode()).hexdigest()[:8]
    return f"{name[:54]}-{digest}"


def pod_annotations(vmi: Spec, cfg: ClusterConfig) -> dict[str, str]:
    """``generatePodAnnotations``: the domain, the VMI's own (but kubectl's), KubeVirt's, the generators'."""
    meta = vmi.get("metadata") or {}
    out = {"kubevirt.io/domain": str(meta.get("name") or "")}
    out.update({k: v for k, v in traits.vmi_annotations(vmi).items() if not k.startswith(DROPPED_PREFIXES)})
    out["kubectl.kubernetes.io/default-container"] = "compute"
    out["kubevirt.io/migrationTransportUnix"] = "true"
    out["descheduler.alpha.kubernetes.io/request-evict-only"] = ""
    out.update(network_annotations(vmi, cfg))
    out.update(backup_hooks(vmi))
    return out


def hashed_interface(network: str) -> str:
    return "pod" + hashlib.sha256(network.encode()).hexdigest()[:11]


def _nad(namespace: str, name: str) -> tuple[str, str]:
    if "/" in name:
        ns, _, rest = name.partition("/")
        return ns, rest
    return namespace, name


def network_annotations(vmi: Spec, cfg: ClusterConfig) -> dict[str, str]:
    """Multus' ``k8s.v1.cni.cncf.io/networks`` and default network, Istio's interfaces for masquerade."""
    namespace = str((vmi.get("metadata") or {}).get("namespace") or "default")
    ifaces = [i for i in traits.interfaces(vmi) if i.get("state") != "absent"]
    by_name = {i.get("name"): i for i in ifaces}
    nets = [n for n in traits.networks(vmi) if n.get("name") in by_name]
    plugins = settings.network_bindings(cfg)
    elements: list[Spec] = []
    for net in nets:
        multus = net.get("multus")
        if isinstance(multus, dict) and not multus.get("default"):
            ns, name = _nad(namespace, str(multus.get("networkName") or ""))
            element: Spec = {"name": name, "namespace": ns}
            mac = by_name[net["name"]].get("macAddress")
            if mac:
                element["mac"] = mac
            element["interface"] = hashed_interface(str(net["name"]))
            elements.append(element)
        binding = by_name[net["name"]].get("binding")
        if isinstance(binding, dict):
            plugin = plugins.get(str(binding.get("name")))
            if plugin is None:
                raise KeyError(f"unable to find the network binding plugin '{binding.get('name')}' in Kubevirt "
                               "configuration")
            if plugin.get("networkAttachmentDefinition"):
                ns, name = _nad(namespace, str(plugin["networkAttachmentDefinition"]))
                elements.append({"name": name, "namespace": ns, "cni-args": {"logicNetworkName": net["name"]}})
    out = {}
    if elements:
        out["k8s.v1.cni.cncf.io/networks"] = json.dumps(elements, separators=(",", ":"))
    defaults = [n for n in traits.networks(vmi) if isinstance(n.get("multus"), dict) and n["multus"].get("default")]
    if defaults:
        out["v1.multus-cni.io/default-network"] = str(defaults[0]["multus"].get("networkName") or "")
    if any(i.get("masquerade") is not None for i in ifaces):
        out["traffic.sidecar.istio.io/kubevirtInterfaces"] = "k6t-eth0"
        out["istio.io/reroute-virtual-interfaces"] = "k6t-eth0"
    return out


def backup_hooks(vmi: Spec) -> dict[str, str]:
    """Velero's pre/post backup hooks (freeze and thaw the guest), unless the VMI skips them."""
    skip = traits.vmi_annotations(vmi).get("kubevirt.io/skip-backup-hooks", "")
    if skip.lower() in ("1", "t", "true") or skip in ("TRUE", "True"):
        return {}
    meta = vmi.get("metadata") or {}
    name, namespace = json.dumps(str(meta.get("name") or "")), json.dumps(str(meta.get("namespace") or ""))
    return {
        "pre.hook.backup.velero.io/container": "compute",
        "pre.hook.backup.velero.io/command":
            f'["/usr/bin/virt-freezer", "--freeze", "--name", {name}, "--namespace", {namespace}]',
        "pre.hook.backup.velero.io/timeout": "60s",
        "post.hook.backup.velero.io/container": "compute",
        "post.hook.backup.velero.io/command":
            f'["/usr/bin/virt-freezer", "--unfreeze", "--name", {name}, "--namespace", {namespace}]',
    }
