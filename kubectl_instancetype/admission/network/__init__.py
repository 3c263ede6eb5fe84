"""KubeVirt's network admitter (pkg/network/admitter) and DRA admitter."""
