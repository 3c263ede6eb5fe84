"""The bottom layer: the API's names (kinds, groups, versions, resource names, matchers), Go's rules, and the
origins of the values a render sets (:mod:`.origin`).

Everything above imports from here; this package imports nothing of the tool but :mod:`..quantity`.
"""
