"""The memory rules of the VMI spec webhook, the VMI's mandatory memory, and the memory hot-plug limits of a
VM under the ``LiveUpdate`` rollout strategy.

Sources: pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go
(``validateMemoryRequestsNegativeOrNull``, ``validateMemoryLimitsNegativeOrNull``,
``validateHugepagesMemoryRequests``, ``validateGuestMemoryLimit``, ``validateReservedOverheadMemlock``,
``ValidateVirtualMachineInstanceMandatoryFields``) and pkg/liveupdate/memory/memory.go
(``ValidateLiveUpdateMemory``, called by vms-admitter.go's ``validateLiveUpdateFeatures``).
"""

from __future__ import annotations

from ..config import ClusterConfig
from ..quantity import BINARY_SI, ERR_FORMAT_WRONG, QuantityError, new_quantity, parse_quantity
from . import gates
from .cause import Cause, FieldPath, Spec
from .resources import domain, limit, listed, memory, quantity, request

MUST_BE_POSITIVE = "{}: must be greater than or equal to 0."  # valueMustBePositiveMessagePattern, "%s '%s'" first
ONE_M = parse_quantity("1M")
HOTPLUG_BLOCK = 0x200000  # HotplugBlockAlignmentBytes: 2Mi
HOTPLUG_BLOCK_1G = 0x40000000  # Hotplug1GHugePagesBlockAlignmentBytes, with 1Gi hugepages
MIN_HOTPLUG_GUEST = 0x40000000  # requiredMinGuestMemory: 1Gi
ZERO_PAGE = "a zero page size makes KubeVirt's webhook fail (integer divide by zero), so the cluster refuses it"


def _at(field: FieldPath, *names: str) -> FieldPath:
    return field.child("domain", *names)


def requests_not_negative_or_null(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateMemoryRequestsNegativeOrNull``: a memory request is not negative, and at least 1M when set."""
    if not listed(spec, "requests", "memory"):
        return []
    requested = request(spec, "memory")
    value = requested.value()
    if value < 0:
        at = _at(field, "resources", "requests", "memory")
        return [at.cause(MUST_BE_POSITIVE.format(f"{at} '{requested}'"))]
    if value > 0 and requested.cmp(ONE_M) < 0:
        at = _at(field, "resources", "requests", "memory")
        return [at.cause(f"{at} '{requested}': must be greater than or equal to 1M.")]
    return []


def limits_not_negative_or_null(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateMemoryLimitsNegativeOrNull``: a memory limit is not negative nor below the request."""
    if not listed(spec, "limits", "memory"):
        return []
    limited, requested = limit(spec, "memory"), request(spec, "memory")
    at_limit, at_request = _at(field, "resources", "limits", "memory"), _at(field, "resources", "requests", "memory")
    causes = []
    if limited.value() < 0:
        causes.append(at_limit.cause(MUST_BE_POSITIVE.format(f"{at_limit} '{limited}'")))
    if limited.value() > 0 and requested.value() > limited.value():
        causes.append(at_request.cause(f"{at_request} '{requested}' is greater than {at_limit} '{limited}'"))
    return causes


def hugepages_requests(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateHugepagesMemoryRequests``: the page size parses, and the VM's memory (request, else guest,
    else limit) is at least one page and a whole number of pages. The message always prints the request, even
    when the guest memory or the limit was measured (``'0'`` when no request is set)."""
    mem = memory(spec)
    hugepages = (mem or {}).get("hugepages")
    if not isinstance(hugepages, dict):
        return []
    page = hugepages.get("pageSize") or ""
    try:
        size = parse_quantity(page).value()
    except QuantityError:
        at_page = _page_size(field, cfg)
        return [at_page.cause(f"{at_page} '{page}': {ERR_FORMAT_WRONG}")]
    requested = request(spec, "memory")
    vm_memory = requested.value()
    if vm_memory == 0:
        guest = quantity((mem or {}).get("guest"))
        vm_memory = guest.value() if guest is not None else 0
    if vm_memory == 0:
        vm_memory = limit(spec, "memory").value()
    if vm_memory != 0 and vm_memory < size:
        at, at_page = _at(field, "resources", "requests", "memory"), _page_size(field, cfg)
        return [at.cause(f"{at} '{requested}' must be equal to or larger than page size {at_page} '{page}'")]
    if size == 0:
        # KubeVirt takes the remainder by the page size and panics here; the API server then refuses the
        # object because its webhook failed.
        at_page = _page_size(field, cfg)
        return [at_page.cause(f"{at_page} '{page}': {ZERO_PAGE}")]
    if _go_rem(vm_memory, size) != 0:
        at, at_page = _at(field, "resources", "requests", "memory"), _page_size(field, cfg)
        return [at.cause(f"{at} '{requested}' is not a multiple of the page size {at_page} '{page}'")]
    return []


def _page_size(field: FieldPath, cfg: ClusterConfig) -> FieldPath:
    """The hugepages' page size field (made for a cause only)."""
    at_page = _at(field, "memory", "hugepages", "pageSize")
    if not cfg.release.hugepages_causes_at_page_size:  # KubeVirt's text before v1.8.0, at the same field
        at_page = FieldPath(at_page.keys, field.child("domain", "hugepages", "size").text)
    return at_page


def _go_rem(a: int, b: int) -> int:
    """Go's ``%`` on int64: the remainder takes the sign of the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def guest_limit(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateGuestMemoryLimit``: outside ``LiveUpdate``, the guest memory fits the memory limit."""
    if cfg.live_update:
        return []
    guest = quantity((memory(spec) or {}).get("guest"))
    if guest is None:
        return []
    limited = limit(spec, "memory")
    if limited.value() < guest.value() and limited.value() != 0:
        at, at_limit = _at(field, "memory", "guest"), _at(field, "resources", "limits", "memory")
        return [at.cause(f"{at} '{guest}' must be equal to or less than the memory limit {at_limit} '{limited}'")]
    return []


def reserved_overhead_memlock(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``validateReservedOverheadMemlock``: ``memory.reservedOverhead`` needs its feature gate."""
    mem = memory(spec)
    if mem is None or mem.get("reservedOverhead") is None or gates.is_enabled(cfg, "ReservedOverheadMemlock"):
        return []
    at = _at(field, "memory", "reservedOverhead")
    return [at.cause("Reserved overhead memlock feature gate is not enabled in kubevirt-config")]


def mandatory_fields(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateVirtualMachineInstanceMandatoryFields`` (VMI webhook only): some memory is asked for.
    KubeVirt's cause names no field."""
    if request(spec, "memory").value() != 0:
        return []
    mem = memory(spec)
    if mem is not None and (mem.get("guest") is not None or mem.get("hugepages") is not None):
        return []
    guest = _at(field, "memory", "guest")
    page = _at(field, "memory", "hugepages", "pageSize" if cfg.release.hugepages_causes_at_page_size else "size")
    requested = _at(field, "resources", "requests", "memory")
    return [Cause(f"no memory requested, at least one of '{guest}', '{page}' or '{requested}' must be set")]


def live_update_memory(field: FieldPath, spec: Spec, cfg: ClusterConfig) -> list[Cause]:
    """``ValidateLiveUpdateMemory`` for a VM's template ``spec`` with ``memory.maxGuest`` set: its first
    error, as a cause at ``spec.template.spec.domain.memory.guest``."""
    problem = _live_update_problem(spec)
    if problem is None:
        return []
    return [field.child("template", "spec", "domain", "memory", "guest").cause(problem)]


def _live_update_problem(spec: Spec) -> str | None:
    dom = domain(spec)
    cpu = dom.get("cpu") if isinstance(dom.get("cpu"), dict) else None
    if cpu is not None and cpu.get("realtime") is not None:
        return "Memory hotplug is not compatible with realtime VMs"
    numa = cpu.get("numa") if cpu is not None else None
    if isinstance(numa, dict) and numa.get("guestMappingPassthrough") is not None:
        return "Memory hotplug is not compatible with guest mapping passthrough"
    if dom.get("launchSecurity") is not None:
        return "Memory hotplug is not compatible with encrypted VMs"
    mem = memory(spec) or {}
    hugepages = mem.get("hugepages")
    block = HOTPLUG_BLOCK_1G if isinstance(hugepages, dict) and hugepages.get("pageSize") == "1Gi" else HOTPLUG_BLOCK
    guest, max_guest = quantity(mem.get("guest")), quantity(mem.get("maxGuest"))
    if guest is None:
        return "Guest memory must be configured when memory hotplug is enabled"
    if max_guest is None:
        return "Max guest memory must be configured when memory hotplug is enabled"
    if guest.cmp(max_guest) > 0:
        return "Guest memory is greater than the configured maxGuest memory"
    alignment = new_quantity(block, BINARY_SI)
    if _go_rem(guest.value(), block) != 0:
        return f"Guest memory must be {alignment} aligned"
    if _go_rem(max_guest.value(), block) != 0:
        return f"MaxGuest must be {alignment} aligned"
    if spec.get("architecture") != "amd64":
        return "Memory hotplug is only available for x86_64 VMs"
    if guest.value() < MIN_HOTPLUG_GUEST:
        return "Memory hotplug is only available for VMs with at least 1Gi of guest memory"
    return None

