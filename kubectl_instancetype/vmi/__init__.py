"""The defaults a new VirtualMachineInstance gets (``render --vmi``): the API defaulters and Hyper-V
dependencies (:mod:`.objdefaults`), architecture defaults (:mod:`.arch`), hot-plug maxima (:mod:`.hotplug`),
the initial status (:mod:`.status`) and the stable firmware UUID (:mod:`.firmware`). The stages of
:mod:`..pipeline` apply them.
"""
