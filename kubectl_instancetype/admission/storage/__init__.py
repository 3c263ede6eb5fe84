"""SIG-Storage's admission rules (pkg/storage/admitters and the storage parts of
pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go), one module per KubeVirt concern:
disks, volumes, cloud-init data, access credentials, DataVolume templates, and the checks that match volumes
with the devices that use them. :mod:`..disks`, :mod:`..volumes` and :mod:`..datavolumes` are the entry points
the webhooks call.
"""
