"""KubeVirt's instancetype and preference appliers and the defaults around them, as ordered tables on plain
VMI spec data; the stages of :mod:`..pipeline` run them.
"""
