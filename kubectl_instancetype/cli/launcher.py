"""``render --pod``: the cluster objects and the launcher image a Pod's render needs, from the inputs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..inputs.gather import Inputs
from ..launcher import default_launcher_image, gather
from ..pipeline.launcher_stage import PodRenderer, pod_renderer
from ..pipeline.vm_pool_controller import is_pool
from ..records import replace
from ..render import Item


def _kubevirt_cr(inputs: Inputs) -> dict[str, Any] | None:
    for doc in inputs.documents:
        if doc.data.get("kind") == "KubeVirt":
            return doc.data
    return None


def launcher_image(inputs: Inputs, given: str | None) -> str:
    """``--launcher-image``, else ``<registry>/virt-launcher:<tag>`` from the KubeVirt CR and the release."""
    if given:
        return given
    cfg = inputs.config  # the CR in force, from the inputs or --kubevirt-config
    return default_launcher_image(cfg.image_tag or cfg.release.name, cfg.image_registry or "quay.io/kubevirt")


def pod_validator(inputs: Inputs, base: Any, everything: bool, kubevirt_config: str | None) -> PodRenderer:
    """``validate``'s renderer: ``base``, then whether virt-controller can render the VM's Pod, reported when
    the inputs decide it (:class:`~kubectl_instancetype.pipeline.launcher_stage.Decidable`)."""
    from ..pipeline.launcher_stage import Decidable, pod_checker

    cluster = _cluster(inputs)
    has_cr = kubevirt_config is not None or _kubevirt_cr(inputs) is not None
    decidable = Decidable.of(cluster, has_cr, inputs.config, everything)
    return pod_checker(base, cluster, launcher_image(inputs, None), decidable)


def _cluster(inputs: Inputs) -> Any:
    objects = [doc.data for doc in inputs.documents]
    objects += [entry.obj for entry in inputs.catalog.entries.values()]
    return gather(objects, inputs.catalog.default_namespace)


def launcher_renderer(inputs: Inputs, given_image: str | None) -> PodRenderer:
    """The VM renderer of ``render --pod`` over the cluster objects of ``inputs``."""
    return pod_renderer(_cluster(inputs), launcher_image(inputs, given_image))


def is_vm_document(data: Any) -> bool:
    """A VirtualMachine or a VirtualMachinePool (whose first VM's Pod is rendered)."""
    return isinstance(data, dict) and (data.get("kind") == "VirtualMachine" or is_pool(data))


def only_pods(items: Iterator[Item], single: bool) -> Iterator[Item]:
    """The Pods of the VMs (other documents are the cluster's, not printed). One Pod is printed as
    virt-controller renders it (no apiVersion and kind); several as a list of v1 Pods."""
    for item in items:
        if not item.is_vm:
            continue
        if item.rendered is not None and not single:
            item = replace(item, rendered={"apiVersion": "v1", "kind": "Pod", **item.rendered})
        yield item
