"""VirtualMachineTemplates (``template.kubevirt.io``) and OpenShift Templates of one VM, processed offline as
KubeVirt's template engine (``kubevirt.io/virt-template-engine`` v0.2.0, vendored by kubevirt/kubevirt) and
``virtctl template process --file`` process them: an input stage that turns a template into the
VirtualMachine every other stage sees.

The modules mirror the engine's files: :mod:`.parameters` (merge, references, values), :mod:`.generator`
(``expression``), :mod:`.substitution` (``${X}`` and ``${{X}}``, ``visit.go``), :mod:`.conversion` (the strict
conversion into ``v1.VirtualMachine``), :mod:`.processor`; :mod:`.document` reads a template as virtctl
decodes it, :mod:`.source` turns a file's text into a located template and located errors.
"""
