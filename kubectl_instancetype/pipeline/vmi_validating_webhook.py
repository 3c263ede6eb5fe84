"""The VMI validating webhook on create (pkg/virt-api/webhooks/validating-webhook/admitters/
vmi-create-admitter.go), on the VMI virt-controller creates: the last word before the VMI exists.

Its warnings go to the context; a refusal is located in the VM's template, where the VMI's spec and
metadata come from.
"""

from __future__ import annotations

from typing import Any

from ..admission.vmi import admit_create
from .lookup import Context
from .vm_validating_webhook import refusal

Spec = dict[str, Any]
STAGE = "vmi-admit"


def admit(vmi: Spec, ctx: Context) -> Spec:
    """``vmi`` unchanged, or the webhook's refusal as a KubeVirtError of stage ``vmi-admit``."""
    verdict = admit_create(vmi, ctx.config)
    if verdict.causes:
        raise refusal(verdict.causes, STAGE, ("spec", "template"))
    ctx.warnings.extend(verdict.warnings)
    return vmi
