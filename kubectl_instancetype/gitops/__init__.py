"""The GitOps views of a render: files rewritten in place or mirrored, and per-VM changes between revisions.

Everything here is pure: texts and rendered items in, texts and reports out. Reading and writing files,
running git and printing belong to :mod:`kubectl_instancetype.cli`.
"""
