"""The bottom layer: the API's names (kinds, groups, versions, resource names, matchers) and Go's rules.

Everything above imports from here; this package imports nothing of the tool but :mod:`..quantity`.
"""
