"""KubeVirt's components as named stages, one module each, run in the order a cluster runs them.

:mod:`.vm_mutating_webhook` (matchers, ``inferFromVolume`` via :mod:`.infer`, defaults on create),
:mod:`.vm_validating_webhook` (spread, conflicts, requirements), :mod:`.expand` (``virtctl expand``),
:mod:`.vm_controller` (virt-controller's instance type sync: lookup errors, ``referencePolicy`` expansion),
:mod:`.vmi_controller` (virt-controller building the VMI) and :mod:`.vmi_mutating_webhook`. The instancetype
and preference are looked up once (:mod:`.lookup`); :mod:`.stages` lists the stages of VM and VMI mode.
"""
