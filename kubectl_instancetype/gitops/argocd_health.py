"""An Argo CD health check for ``kubevirt.io/VirtualMachine`` that sees a pending restart (``drift -o argocd-health``).

Argo CD's bundled check (resource_customizations/kubevirt.io/VirtualMachine/health.lua in argoproj/argo-cd)
reads the ``Paused`` and ``Ready`` conditions, ``status.created`` and ``printableStatus``; since argo-cd#29664
a VM that Git declares halted (``runStrategy: Halted`` or ``running: false``) and that is stopped is Healthy
"Stopped as declared" (a Suspended VM held every multi-wave sync open: argo-cd#29663). It ignores
``RestartRequired``, so a running VM whose change KubeVirt could not apply live (pkg/virt-controller/watch/vm/
vm.go ``setRestartRequired``) shows Healthy. A ``resource.customizations.health`` entry replaces the bundled
check, so this one keeps its rules and adds one: a running (or starting) VM with ``RestartRequired=True`` is
Degraded, with KubeVirt's message.

Degraded, not Progressing: the VM runs what Git no longer declares, and only a restart changes that. Argo CD
resolves a sync's applied resource by its health, Healthy as succeeded and Degraded as failed; any other status
leaves the operation running (what argo-cd#29663 found for Suspended), so a Progressing VM that waits for a
restart nobody schedules would hold the sync, and every later one, open. ``restartRequiredStatus`` in the Lua
says Progressing for a team that wants exactly that wait.

Neither this check nor Argo CD's reads ``status.observedGeneration``: a VM's is the generation its running VMI
was started from, not a sign that the controller has caught up (KubeVirt's VEP 376, kubevirt#18700).
"""

from __future__ import annotations

from typing import Any

KEY = "resource.customizations.health.kubevirt.io_VirtualMachine"
DEGRADED, PROGRESSING = "Degraded", "Progressing"
STOPPED_AS_DECLARED = "Stopped as declared"

LUA = """\
-- kubectl-instancetype: Argo CD's health check for kubevirt.io/VirtualMachine (argo-cd's
-- resource_customizations/kubevirt.io/VirtualMachine/health.lua, with argo-cd#29664: a VM Git declares halted
-- and that is stopped is Healthy), plus RestartRequired=True on a running or starting VM.
-- "Progressing" instead holds a sync open until the VM restarts.
local restartRequiredStatus = "%(status)s"

local function declaredHalted()
  return obj.spec ~= nil and (obj.spec.runStrategy == "Halted" or obj.spec.running == false)
end

local hs = { status = "Progressing", message = "No status available" }
if obj.status == nil then
  return hs
end
local restart = nil
if obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type == "Paused" and condition.status == "True" then
      return { status = "Suspended", message = "Paused" }
    end
    if condition.type == "Ready" then
      if condition.status == "True" then
        hs.status = "Healthy"
        hs.message = "Running"
      elseif obj.status.created then
        hs.message = "Starting"
      else
        hs.status = "Suspended"
        hs.message = "Stopped"
      end
    end
    if condition.type == "RestartRequired" and condition.status == "True" then
      restart = condition
    end
  end
end
if obj.status.printableStatus ~= nil then
  hs.message = obj.status.printableStatus
end
if hs.status == "Suspended" and declaredHalted() then
  return { status = "Healthy", message = "%(stopped)s" }
end
if restart ~= nil and (hs.status == "Healthy" or obj.status.created) then
  local why = restart.message
  if why == nil or why == "" then
    why = restart.reason or "a change needs a restart"
  end
  return { status = restartRequiredStatus, message = "RestartRequired: " .. why .. " (" .. hs.message .. ")" }
end
return hs
"""

HEADER = """\
# Argo CD health for KubeVirt VirtualMachines (kubectl instancetype drift -o argocd-health): Argo CD's bundled
# check (a VM Git declares halted and that is stopped is Healthy "Stopped as declared") plus RestartRequired=True
# on a running VM as Degraded. It replaces the bundled check for kubevirt.io/VirtualMachine.
#
# MERGE it into argocd-cm; do not kubectl apply it as a ConfigMap, which would replace argocd-cm and wipe Argo
# CD's other settings. This file is a merge patch of argocd-cm's data:
#   kubectl patch configmap argocd-cm -n argocd --type merge --patch-file THIS-FILE
# With the argo-cd Helm chart, put the key and its value under configs.cm in the values instead; with
# kustomize, use this file as a patch of the ConfigMap argocd-cm.
"""


def health_lua(restart_status: str = DEGRADED) -> str:
    """The Lua health check; a pending restart reports ``restart_status`` (Degraded or Progressing)."""
    if restart_status not in (DEGRADED, PROGRESSING):
        raise ValueError(f"restart_status must be {DEGRADED} or {PROGRESSING}")
    return LUA % {"status": restart_status, "stopped": STOPPED_AS_DECLARED}


def health_patch(restart_status: str = DEGRADED) -> dict[str, Any]:
    """The merge patch of ``argocd-cm`` that installs :func:`health_lua` (``kubectl patch --type merge``): its
    ``data`` alone, which ``kubectl apply`` refuses (no kind), so it cannot replace the whole ConfigMap."""
    return {"data": {KEY: health_lua(restart_status)}}
