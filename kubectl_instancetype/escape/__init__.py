"""Escaping: any text a manifest, a file name or KubeVirt's message holds turned into data of one output kind.

One module per output kind, each the only place that kind is escaped: :mod:`.terminal` (standard error and the
text views on standard output, also read by CI runners as workflow commands), :mod:`.markdown` (the pull-request
comment), :mod:`.workflow` (GitHub Actions workflow commands), :mod:`.xml` (JUnit), :mod:`.sarif` (a SARIF
message's embedded links). JSON needs none: its encoder quotes every string. The package imports nothing of the
tool, so every layer may use it.
"""
