"""KubeVirt's instancetype and preference semantics, as pure functions on plain VM data.

One module per concern; :mod:`.pipeline` runs them in KubeVirt's order: the VM mutating webhook
(``mutate``), the validating webhook (``admit``), then ``expand``.
"""
