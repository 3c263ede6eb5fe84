"""``kubectl instancetype capacity``'s report: what the launcher Pods of a directory of VirtualMachines ask of
the nodes, per namespace, and which of them the API server's ResourceQuota admission would refuse.

:mod:`.model` adds it up (the VMs in file order, as if created in that order; only the VMs in the files count);
:mod:`.views` prints it as a table, JSON (the schema of ``CapacityReport``) or Markdown.
"""
