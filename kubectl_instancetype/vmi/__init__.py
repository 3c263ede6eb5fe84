"""The VirtualMachineInstance a cluster would start for a VirtualMachine (``render --vmi``).

Three KubeVirt components act in turn, one module each: the complete VM mutating webhook on create
(:mod:`.vm_webhook`, with the stable firmware UUID of :mod:`.firmware`), virt-controller's VMI
construction (:mod:`.build`), and the VMI mutating webhook (:mod:`.defaults`, :mod:`.objdefaults`,
:mod:`.arch`, :mod:`.hotplug`, :mod:`.status`). :mod:`.render` runs them in KubeVirt's order.
"""
