"""The API server's create path for KubeVirt's objects, and KubeVirt's own schema check after it.

Data in, verdicts out: :func:`~.server.admit` takes one decoded document and answers what the Kubernetes API
server (and kubectl before it) would do with it under ``--validate=strict|warn|ignore``: the object as the
server would store it, the unknown fields it pruned, its warnings, or every error that refuses it, worded as
the server words them. The tables it validates against are generated from KubeVirt's CRDs and OpenAPI
definitions by ``scripts/generate-schemas``.
"""
