"""An Argo CD health check for ``kubevirt.io/VirtualMachine`` that sees a pending restart (``drift -o argocd-health``).

Argo CD's built-in check (resource_customizations/kubevirt.io/VirtualMachine/health.lua in argoproj/argo-cd)
reads the ``Paused`` and ``Ready`` conditions and ``printableStatus``, so a running VM whose change KubeVirt
could not apply live — ``RestartRequired=True`` (pkg/virt-controller/watch/vm/vm.go ``setRestartRequired``) —
shows as Healthy. A ``resource.customizations.health`` entry replaces the built-in check, so this one does
what the built-in does (deletion in progress, paused, running, starting, stopped) and then reports a running or
starting VM with ``RestartRequired=True`` as Degraded (or Progressing: set ``restartRequiredStatus``) with
KubeVirt's message.
"""

from __future__ import annotations

from typing import Any

KEY = "resource.customizations.health.kubevirt.io_VirtualMachine"
DEGRADED, PROGRESSING = "Degraded", "Progressing"

LUA = """\
-- kubectl-instancetype: Argo CD health of a KubeVirt VirtualMachine, RestartRequired included.
-- Change to "Progressing" to show a pending restart without marking the application Degraded.
local restartRequiredStatus = "%(status)s"

local function condition(name)
  if obj.status == nil or obj.status.conditions == nil then
    return nil
  end
  for _, c in ipairs(obj.status.conditions) do
    if c.type == name then
      return c
    end
  end
  return nil
end

if obj.metadata ~= nil and obj.metadata.deletionTimestamp ~= nil then
  local message = "Pending deletion"
  if obj.metadata.finalizers ~= nil and #obj.metadata.finalizers > 0 then
    message = message .. "; blocked by finalizers: " .. table.concat(obj.metadata.finalizers, ", ")
  end
  return { status = "Progressing", message = message }
end

local hs = { status = "Progressing", message = "No status available" }
if obj.status == nil then
  return hs
end

local paused = condition("Paused")
if paused ~= nil and paused.status == "True" then
  return { status = "Suspended", message = "Paused" }
end

local ready = condition("Ready")
if ready ~= nil then
  if ready.status == "True" then
    hs = { status = "Healthy", message = "Running" }
  elseif obj.status.created then
    hs = { status = "Progressing", message = "Starting" }
  else
    hs = { status = "Suspended", message = "Stopped" }
  end
end
if obj.status.printableStatus ~= nil then
  hs.message = obj.status.printableStatus
end

local restart = condition("RestartRequired")
if restart ~= nil and restart.status == "True" and hs.status ~= "Suspended" then
  local why = restart.message
  if why == nil or why == "" then
    why = restart.reason or "a change needs a restart"
  end
  return { status = restartRequiredStatus, message = "RestartRequired: " .. why .. " (" .. hs.message .. ")" }
end
return hs
"""


def health_lua(restart_status: str = DEGRADED) -> str:
    """The Lua health check; a pending restart reports ``restart_status`` (Degraded or Progressing)."""
    if restart_status not in (DEGRADED, PROGRESSING):
        raise ValueError(f"restart_status must be {DEGRADED} or {PROGRESSING}")
    return LUA % {"status": restart_status}


def health_configmap(restart_status: str = DEGRADED) -> dict[str, Any]:
    """The ``argocd-cm`` ConfigMap entry that installs :func:`health_lua` (merge it into yours)."""
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "argocd-cm", "namespace": "argocd",
                         "labels": {"app.kubernetes.io/name": "argocd-cm", "app.kubernetes.io/part-of": "argocd"}},
            "data": {KEY: health_lua(restart_status)}}
