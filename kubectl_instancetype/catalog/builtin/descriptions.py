"""The descriptions of the instancetype series, shown by UIs from ``instancetype.kubevirt.io/description``.

They are facts of the catalog like the sizes: a cluster running common-instancetypes carries these exact
texts, so a rendered or listed object must carry them too. One text per series.
"""

from __future__ import annotations

U1 = """\
The U Series is quite neutral and provides resources for
general purpose applications.

*U* is the abbreviation for "Universal", hinting at the universal
attitude towards workloads.

VMs of instance types will share physical CPU cores on a
time-slice basis with other VMs."""

O1 = """\
The O Series is based on the U Series, with the only difference
being that memory is overcommitted.

*O* is the abbreviation for "Overcommitted"."""

CX1 = """\
The CX Series provides exclusive compute resources for compute
intensive applications.

*CX* is the abbreviation of "Compute Exclusive".

The exclusive resources are given to the compute threads of the
VM. In order to ensure this, some additional cores (depending
on the number of disks and NICs) will be requested to offload
the IO threading from cores dedicated to the workload.
In addition, in this series, the NUMA topology of the used
cores is provided to the VM.

The amount of spec.cpu.maxSockets is set to the same as
guest cpus. This avoids KubeVirt's default behavior of
providing extra CPUs for hotplugging, which can exceed the
amount of available CPUs on a node and cause the VM to fail.

Requirements for CX series instance types:
- CPU manager has to be enabled.
- Huge pages have to be available on the nodes."""

M1 = """\
The M Series provides resources for memory intensive
applications.

*M* is the abbreviation of "Memory"."""

N1 = """\
The N Series provides resources for network intensive DPDK
applications, like VNFs.

*N* is the abbreviation for "Network".

This series of instancetypes requires nodes capable
of running DPDK workloads and being marked with the respective
node-role.kubevirt.io/worker-dpdk label as such."""

RT1 = """\
The RT Series provides resources for realtime applications, like Oslat.

*RT* is the abbreviation for "realtime".

This series of instance types requires nodes capable of running
realtime applications."""

D1 = """\
The D Series is designed for consistent and predictable performance,
providing resources for general purpose applications.

*D* is the abbreviation for "Dedicated", reflecting the use of
dedicated CPU placement for workloads.

VMs of this instance type are assigned exclusive physical CPU cores,
avoiding CPU sharing and time-slice contention with other VMs."""
