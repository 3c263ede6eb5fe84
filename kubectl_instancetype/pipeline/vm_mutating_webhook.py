"""KubeVirt's VM mutating webhook on create (pkg/virt-api/webhooks/mutating-webhook/mutators/vm-mutator.go
with pkg/instancetype/webhooks/vm/mutator.go).

It first settles the matchers: each is validated (the preference only when the instance type one is fine)
and ``inferFromVolume`` is resolved (:mod:`.infer`). Then, with the preference found quietly (a failed
lookup is only logged), :func:`preferred_defaults` writes ``preferredArchitecture``, ``preferredMachineType``
and ``preferredStorageClassName``. :func:`create_defaults` is the rest of the complete webhook, which VMI mode
runs: the cluster kinds of bare matchers, the cluster's architecture and machine type, the firmware identity
and the ``kubevirt.io/pci-topology-version`` template annotation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.golang import child, clone_json
from ..api.matchers import MATCHERS, MatcherKind, matcher_causes
from ..api.origin import Trace, named
from ..api.releases import DEFAULT, Release
from ..catalog.find import Lookup
from ..errors import KubeVirtError
from ..expand.defaults import ARCHITECTURE, machine_type_origin
from ..vmi import pcitopology
from ..vmi.firmware import set_stable_firmware_uuid
from .infer import infer_matcher
from .lookup import TEMPLATE, Context

Spec = dict[str, Any]
STAGE = "mutate"

PCI_TOPOLOGY = named("KubeVirt VM mutating webhook (PCI topology of new VMs)")


def matcher_problems(matcher: MatcherKind, vm: Spec, release: Release = DEFAULT) -> list[str]:
    """KubeVirt's causes against one matcher, in its order."""
    return [message for message, _ in matcher_causes(matcher, vm, release)]


def mutate_matchers(vm: Spec, namespace: str, lookup: Lookup, release: Release = DEFAULT) -> Spec:
    """A copy of ``vm`` with its matchers validated (as ``release`` does) and ``inferFromVolume`` resolved."""
    for matcher in MATCHERS:
        causes = matcher_causes(matcher, vm, release)
        if causes:  # the preference matcher is only checked when the instance type one is fine
            raise KubeVirtError(", ".join(message for message, _ in causes), STAGE, field=causes[0][1])
    out = clone_json(vm)
    for matcher in MATCHERS:
        infer_matcher(matcher, out, namespace, lookup, release)
    return out


def preferred_defaults(vm: Spec, ctx: Context) -> Spec:
    """What the webhook writes from the preference: architecture, machine type, storage class."""
    pref = ctx.matched.preference_spec
    if pref is None:
        return vm
    trace = ctx.trace(TEMPLATE)
    spec = child(child(child(vm, "spec"), "template"), "spec")
    known = ctx.config.release.applies_preferred_architecture  # a v1.7.0 field
    if known and pref.get("preferredArchitecture") and not spec.get("architecture"):
        spec["architecture"] = pref["preferredArchitecture"]
        trace.by_preference(("architecture",), "spec.preferredArchitecture")
    machine_type = (pref.get("machine") or {}).get("preferredMachineType")
    if machine_type:
        machine = child(child(spec, "domain"), "machine")
        if not machine.get("type"):
            machine["type"] = machine_type
            trace.by_preference(("domain", "machine", "type"), "spec.machine.preferredMachineType")
    storage_class = (pref.get("volumes") or {}).get("preferredStorageClassName")
    if storage_class:
        for index, dvt in enumerate(vm["spec"].get("dataVolumeTemplates") or []):
            for key in ("pvc", "storage"):
                claim = (dvt.get("spec") or {}).get(key)
                if isinstance(claim, dict) and claim.get("storageClassName") is None:
                    claim["storageClassName"] = storage_class
                    trace.rooted(("spec", "dataVolumeTemplates", index, "spec", key)).by_preference(
                        ("storageClassName",), "spec.volumes.preferredStorageClassName")
    return vm


ARCH_LABEL = "template.kubevirt.io/architecture"
DATASOURCE_ARCHITECTURE = named(f"the {ARCH_LABEL} label of a DataSource a dataVolumeTemplate clones")


def datasource_architecture(vm: Spec, ctx: Context) -> str:
    """``setDefaultArchitectureFromDataSource`` (pkg/defaults/defaults.go, from v1.6.4 and v1.7.0): the
    architecture label of the first DataSource a dataVolumeTemplate's ``sourceRef`` names (one level of
    ``spec.source.dataSource`` followed) that carries a known one; DataSources that cannot be found, or whose
    label names another architecture, are skipped (KubeVirt only logs them)."""
    vm_namespace = str((vm.get("metadata") or {}).get("namespace") or ctx.namespace)
    for template in (vm.get("spec") or {}).get("dataVolumeTemplates") or []:
        ref = ((template or {}).get("spec") or {}).get("sourceRef") or {}
        if str(ref.get("kind") or "").lower() != "datasource":
            continue
        ds = ctx.catalog.get("DataSource", str(ref.get("namespace") or vm_namespace), str(ref.get("name") or ""))
        if ds is None:
            continue
        pointed = ((ds.get("spec") or {}).get("source") or {}).get("dataSource")
        if pointed is not None:  # Go reads its namespace as given: none is no namespace
            ds = ctx.catalog.get("DataSource", str(pointed.get("namespace") or ""), str(pointed.get("name") or ""))
            if ds is None:
                continue
        arch = ((ds.get("metadata") or {}).get("labels") or {}).get(ARCH_LABEL)
        if arch in ("amd64", "arm64", "s390x"):
            return str(arch)
    return ""


def create_defaults(vm: Spec, ctx: Context) -> Spec:
    """The rest of the complete webhook on create, after :func:`preferred_defaults`, as VMI mode prints it.

    KubeVirt draws a random firmware UUID and serial; this writes the stable, name-derived UUID
    instead (see :mod:`..vmi.firmware`) and no serial.
    """
    return on_create(vm, ctx, _stable_firmware_uuid, kinds=True)


FirmwareIdentity = Callable[[Spec, Spec, Trace], None]  # (the VM, its template spec, the template's trace)


def _stable_firmware_uuid(vm: Spec, tspec: Spec, trace: Trace) -> None:
    set_stable_firmware_uuid(tspec, str((vm.get("metadata") or {}).get("name") or ""), trace)


def on_create(vm: Spec, ctx: Context, firmware: FirmwareIdentity, kinds: bool) -> Spec:
    """What the complete webhook writes on create after :func:`preferred_defaults`: with ``kinds``, the cluster
    kinds of bare matchers, the architecture (a DataSource's label, else the cluster's), the machine
    type, the firmware identity (``firmware``: KubeVirt's values are random) and the PCI topology annotation."""
    spec = child(vm, "spec")
    if kinds:
        for matcher in MATCHERS:
            m = spec.get(matcher.field)
            if isinstance(m, dict) and not m.get("kind"):  # inferFromVolume is resolved by now
                m["kind"] = matcher.cluster.lower()  # KubeVirt's ClusterSingularResourceName
    template = spec.get("template")
    if not isinstance(template, dict):
        return vm  # the validating webhook rejects a VM without template
    trace = ctx.trace(TEMPLATE)
    tspec = child(template, "spec")
    if not tspec.get("architecture") and ctx.config.release.architecture_from_datasource_label:
        arch = datasource_architecture(vm, ctx)
        if arch:
            tspec["architecture"] = arch
            trace.set(("architecture",), DATASOURCE_ARCHITECTURE)
    if not tspec.get("architecture"):
        tspec["architecture"] = ctx.config.default_architecture
        trace.set(("architecture",), ARCHITECTURE)
    machine = child(child(tspec, "domain"), "machine")
    if not machine.get("type"):
        arch = str(tspec.get("architecture") or "")
        machine["type"] = ctx.config.machine_type_for(arch)
        if trace.on:
            trace.set(("domain", "machine", "type"), machine_type_origin(ctx.config, arch))
    firmware(vm, tspec, trace)
    pcitopology.annotate(template, tspec, PCI_TOPOLOGY, trace.metadata(), ctx.config.release)
    return vm
