"""Kubernetes' ResourceQuota admission for Pods, offline: the API server's rules, not KubeVirt's.

What a Pod counts against a quota (``pkg/quota/v1/evaluator/core/pods.go`` over
``k8s.io/component-helpers/resource``'s ``PodRequests``/``PodLimits``), which quotas it falls under (their
scopes), what a quota that tracks cpu or memory demands of every container, and the API server's refusal in its
own words (``staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go``). Quantities add
as ``resource.Quantity`` adds (:mod:`.resources`). The Pods are whatever the caller gives: the launcher Pods
virt-controller would create, in the order it would create them.
"""
