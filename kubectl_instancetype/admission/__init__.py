"""KubeVirt's validating webhooks for the objects it runs: the VirtualMachine webhook on create
(pkg/virt-api/webhooks/validating-webhook/admitters/vms-admitter.go), the VirtualMachineInstance create
webhook (vmi-create-admitter.go) and the VirtualMachinePool webhook (vmpool-admitter.go).

Each area of KubeVirt's checks is a module of rules with one signature, ``rule(field, spec, config) ->
causes``; :mod:`.vmi_spec` lists them once, in KubeVirt's order. A cause is a value (field, message); the
webhook joins them (:func:`.cause.joined`) as KubeVirt's ``ToAdmissionResponse`` does.
"""
