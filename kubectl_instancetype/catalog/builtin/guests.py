"""The guest operating systems of the common catalog: one row per OS release, one preference per variant.

A row names the OS, its traits (its family first) and the smallest VM it runs in. Its variants say which
preferences the row publishes: plain, per CPU architecture, desktop, DPDK, realtime, or, for Windows, with
virtio drivers. Releases published per architecture take amd64 as the unsuffixed default, and only on
amd64 boot with EFI secure boot (SMM is an x86 feature).
"""

from __future__ import annotations

from ...records import dataclass
from .traits import (
    CORES,
    DEDICATED_IO_THREAD,
    DPDK,
    EFI,
    LEGACY,
    LINUX,
    NO_PCI_HOLE64,
    PERSISTENT_STATE,
    REALTIME,
    SECURE_BOOT,
    SECURE_EXECUTION,
    TABLET,
    VIRTIO_TRANSITIONAL,
    WINDOWS,
    WINDOWS_VIRTIO,
    Trait,
    architecture,
    nic,
)


@dataclass(frozen=True)
class Variant:
    """How one preference differs from its OS row: name and display suffixes, traits, requirements."""

    suffix: str  # appended to the row's name
    display: str = ""  # appended to the row's display name
    traits: tuple[Trait, ...] = ()  # applied after the row's traits
    tag: str = ""  # one more entry of the ``tags`` annotation
    cpu: int | None = None  # overrides the row's required vCPUs
    memory: str | None = None  # overrides the row's required memory


PLAIN = Variant("")
DESKTOP = Variant(".desktop", traits=(TABLET,))
DPDK_VARIANT = Variant(".dpdk", traits=(DPDK,), tag="dpdk", cpu=8)
AMD64 = Variant("", " (amd64)", (architecture("amd64"), SECURE_BOOT))
ARM64 = Variant(".arm64", " (arm64)", (architecture("arm64"),))
S390X = Variant(".s390x", " (s390x)", (architecture("s390x"),))
S390X_SECURE_EXECUTION = Variant(
    ".s390x.secex", " (IBM Secure Execution)", (architecture("s390x"), SECURE_EXECUTION)
)
AMD64_DESKTOP = Variant(".desktop", " Desktop (amd64)", (*AMD64.traits, TABLET))
AMD64_DPDK = Variant(".dpdk", " DPDK (amd64)", (*AMD64.traits, DPDK), tag="dpdk", cpu=8)
AMD64_REALTIME = Variant(
    ".realtime", " Realtime (amd64)", (*AMD64.traits, REALTIME), tag="realtime", cpu=4, memory="4Gi"
)
VIRTIO = Variant(".virtio", " (virtio)", (WINDOWS_VIRTIO,))

EVERY_ARCH = (AMD64, ARM64, S390X, S390X_SECURE_EXECUTION)


@dataclass(frozen=True)
class Guest:
    """One OS release and the preferences published for it."""

    name: str
    display: str  # the ``openshift.io/display-name`` annotation, before the variant's suffix
    icon: str  # the ``iconClass`` annotation
    tags: str  # entries of the ``tags`` annotation after ``hidden,kubevirt``
    traits: tuple[Trait, ...]  # the OS family first
    cpu: int | None = None  # minimum vCPUs (``requirements.cpu.guest``)
    memory: str | None = None  # minimum guest memory (``requirements.memory.guest``)
    variants: tuple[Variant, ...] = (PLAIN,)


def linux(
    name: str,
    display: str,
    icon: str,
    tags: str,
    *traits: Trait,
    cpu: int = 1,
    memory: str | None = None,
    variants: tuple[Variant, ...] = (PLAIN,),
) -> Guest:
    """A Linux release: virtio devices and an RNG; a release that needs memory needs ``cpu`` vCPUs too."""
    return Guest(
        name, display, f"icon-{icon}", tags, (LINUX, *traits), cpu if memory else None, memory, variants
    )


def windows(
    name: str,
    display: str,
    memory: str,
    *traits: Trait,
    cpu: int = 1,
    variants: tuple[Variant, ...] = (PLAIN, VIRTIO),
) -> Guest:
    """A Windows release, published with emulated devices and, by default, with virtio drivers too."""
    return Guest(
        name,
        f"Microsoft Windows {display}",
        "icon-windows",
        "windows",
        (WINDOWS, *traits),
        cpu,
        memory,
        variants,
    )


RHEL, CENTOS = "linux,rhel", "linux,centos-stream"

GUESTS = (
    linux("alpine", "Alpine", "alpine", "alpine", memory="512Mi"),
    linux("centos.stream10", "CentOS Stream 10", "centos", CENTOS, DEDICATED_IO_THREAD, memory="1.5Gi",
          variants=(PLAIN, DESKTOP)),
    linux("centos.stream9", "CentOS Stream 9", "centos", CENTOS, DEDICATED_IO_THREAD, memory="1.5Gi",
          variants=(PLAIN, DESKTOP, DPDK_VARIANT)),
    linux("cirros", "Cirros", "cirros", "cirros", memory="256Mi"),
    linux("debian", "Debian", "debian", "debian", EFI, memory="512Mi"),
    linux("fedora", "Fedora", "fedora", "fedora", memory="2Gi", variants=EVERY_ARCH),
    Guest("legacy", "Legacy Guest", "icon-other", "legacy", (LEGACY,)),
    linux("linux", "Linux Guest", "linux", "linux"),
    linux("linux.efi", "Linux EFI Guest", "linux", "linux-efi", EFI),
    linux("linux.virtiotransitional", "Linux Virtio Transitional Guest", "linux", "linux-virtio-transitional",
          VIRTIO_TRANSITIONAL),
    linux("opensuse.leap", "OpenSUSE Leap", "opensuse-leap", "opensuse.leap", memory="2Gi"),
    linux("opensuse.tumbleweed", "OpenSUSE Tumbleweed", "opensuse-tumbleweed", "opensuse.tumbleweed",
          memory="2Gi"),
    linux("oraclelinux", "Oracle Linux", "oracle", "oraclelinux", EFI, cpu=2, memory="4Gi"),
    linux("rhel.10", "Red Hat Enterprise Linux 10", "rhel", RHEL, DEDICATED_IO_THREAD, memory="1.5Gi",
          variants=EVERY_ARCH),
    linux("rhel.7", "Red Hat Enterprise Linux 7", "rhel", RHEL, memory="1Gi", variants=(PLAIN, DESKTOP)),
    linux("rhel.8", "Red Hat Enterprise Linux 8", "rhel", RHEL, memory="1.5Gi",
          variants=(PLAIN, DESKTOP, DPDK_VARIANT)),
    linux("rhel.9", "Red Hat Enterprise Linux 9", "rhel", RHEL, DEDICATED_IO_THREAD, memory="1.5Gi",
          variants=(*EVERY_ARCH, AMD64_DESKTOP, AMD64_DPDK, AMD64_REALTIME)),
    linux("sles", "SUSE Linux Enterprise Server", "sles", "sles", memory="2Gi"),
    linux("ubuntu", "Ubuntu", "ubuntu", "ubuntu", memory="2Gi"),
    windows("windows.10", "10", "2Gi", CORES, SECURE_BOOT),
    windows("windows.11", "11", "4Gi", CORES, SECURE_BOOT, PERSISTENT_STATE, cpu=2),
    windows("windows.2k12", "Server 2012/2012 R2", "512Mi"),
    windows("windows.2k16", "Server 2016", "2Gi", SECURE_BOOT),
    windows("windows.2k19", "Server 2019", "2Gi", SECURE_BOOT),
    windows("windows.2k22", "Server 2022", "2Gi", SECURE_BOOT, PERSISTENT_STATE),
    windows("windows.2k25", "Server 2025", "2Gi", SECURE_BOOT, PERSISTENT_STATE),
    windows("windows.2k3", "Server 2003", "256Mi", nic("rtl8139"), NO_PCI_HOLE64, variants=(PLAIN,)),
    windows("windows.2k8", "Server 2008/2008 R2", "512Mi", nic("e1000")),
    windows("windows.7", "7", "2Gi"),
    windows("windows.xp", "XP", "128Mi", NO_PCI_HOLE64, variants=(PLAIN,)),
)  # fmt: skip
