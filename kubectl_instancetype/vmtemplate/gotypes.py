"""The Go types encoding/json names for the VMI spec's fields (``json: cannot unmarshal number into Go struct
field VMISpecAlias.domain.devices.disks.0.disk.bus of type v1.DiskBus``) where the OpenAPI definitions say only
``string``: the named string and map types of kubevirt.io/api/core/v1 (``schema.go``, ``types.go``) and
k8s.io/api/core/v1 (``v1.DiskBus``, ``v1.ResourceList``) and the fields of Go's ``int``, at kubevirt/kubevirt
d923fdb8, by path below ``spec.template.spec`` ("*" for the items of a list or a map's values). The other
integers narrower than int64 are ``schema.godecode.GO_INTEGERS``.

The types that decode themselves through an alias (``UnmarshalJSON`` in ``schema.go``) name the alias, from
the value they decode: ``Go value of type v1.PodNetworkAlias`` for a value that is no object, ``Go struct field
DHCPOptionsAlias.ntpServers of type []string`` for a field of the wrong type.
"""

from __future__ import annotations

GO_NAMED: dict[tuple[str, ...], str] = {
    ('affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution', '*', 'preference',
     'matchExpressions', '*', 'operator'): 'v1.NodeSelectorOperator',
    ('affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution', '*', 'preference',
     'matchFields', '*', 'operator'): 'v1.NodeSelectorOperator',
    ('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms', '*',
     'matchExpressions', '*', 'operator'): 'v1.NodeSelectorOperator',
    ('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms', '*',
     'matchFields', '*', 'operator'): 'v1.NodeSelectorOperator',
    ('dnsPolicy',): 'v1.DNSPolicy',
    ('domain', 'clock', 'timer', 'hpet', 'tickPolicy'): 'v1.HPETTickPolicy',
    ('domain', 'clock', 'timer', 'pit', 'tickPolicy'): 'v1.PITTickPolicy',
    ('domain', 'clock', 'timer', 'rtc', 'tickPolicy'): 'v1.RTCTickPolicy',
    ('domain', 'clock', 'timer', 'rtc', 'track'): 'v1.RTCTimerTrack',
    ('domain', 'clock', 'timezone'): 'v1.ClockOffsetTimezone',
    ('domain', 'clock', 'utc', 'offsetSeconds'): 'int',
    ('domain', 'devices', 'disks', '*', 'cache'): 'v1.DriverCache',
    ('domain', 'devices', 'disks', '*', 'cdrom', 'bus'): 'v1.DiskBus',
    ('domain', 'devices', 'disks', '*', 'cdrom', 'tray'): 'v1.TrayState',
    ('domain', 'devices', 'disks', '*', 'disk', 'bus'): 'v1.DiskBus',
    ('domain', 'devices', 'disks', '*', 'errorPolicy'): 'v1.DiskErrorPolicy',
    ('domain', 'devices', 'disks', '*', 'io'): 'v1.DriverIO',
    ('domain', 'devices', 'disks', '*', 'lun', 'bus'): 'v1.DiskBus',
    ('domain', 'devices', 'inputs', '*', 'bus'): 'v1.InputBus',
    ('domain', 'devices', 'inputs', '*', 'type'): 'v1.InputType',
    ('domain', 'devices', 'interfaces', '*', 'acpiIndex'): 'int',
    ('domain', 'devices', 'interfaces', '*', 'dhcpOptions', 'privateOptions', '*', 'option'): 'int',
    ('domain', 'devices', 'interfaces', '*', 'state'): 'v1.InterfaceState',
    ('domain', 'devices', 'panicDevices', '*', 'model'): 'v1.PanicDeviceModel',
    ('domain', 'devices', 'watchdog', 'diag288', 'action'): 'v1.WatchdogAction',
    ('domain', 'devices', 'watchdog', 'i6300esb', 'action'): 'v1.WatchdogAction',
    ('domain', 'firmware', 'kernelBoot', 'container', 'imagePullPolicy'): 'v1.PullPolicy',
    ('domain', 'ioThreadsPolicy'): 'v1.IOThreadsPolicy',
    ('domain', 'memory', 'reservedOverhead', 'memLock'): 'v1.MemLockRequirement',
    ('domain', 'rebootPolicy'): 'v1.RebootPolicy',
    ('domain', 'resources', 'limits'): 'v1.ResourceList',
    ('domain', 'resources', 'requests'): 'v1.ResourceList',
    ('evictionStrategy',): 'v1.EvictionStrategy',
    ('livenessProbe', 'httpGet', 'scheme'): 'v1.URIScheme',
    ('readinessProbe', 'httpGet', 'scheme'): 'v1.URIScheme',
    ('startStrategy',): 'v1.StartStrategy',
    ('tolerations', '*', 'effect'): 'v1.TaintEffect',
    ('tolerations', '*', 'operator'): 'v1.TolerationOperator',
    ('topologySpreadConstraints', '*', 'nodeAffinityPolicy'): 'v1.NodeInclusionPolicy',
    ('topologySpreadConstraints', '*', 'nodeTaintsPolicy'): 'v1.NodeInclusionPolicy',
    ('topologySpreadConstraints', '*', 'whenUnsatisfiable'): 'v1.UnsatisfiableConstraintAction',
    ('utilityVolumes', '*', 'type'): 'v1.UtilityVolumeType',
    ('volumes', '*', 'containerDisk', 'imagePullPolicy'): 'v1.PullPolicy',
    ('volumes', '*', 'hostDisk', 'type'): 'v1.HostDiskType',
}

# OpenAPI definitions (``_go_name``) whose JSON decoding goes through an alias type of this name
ALIASED: dict[str, str] = {"v1.PodNetwork": "PodNetworkAlias", "v1.DHCPOptions": "DHCPOptionsAlias"}
