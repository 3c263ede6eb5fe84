"""kubectl-instancetype: expand KubeVirt instancetypes and preferences offline, from files."""

__version__ = "0.1.0"
