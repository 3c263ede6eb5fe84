"""The one check of the API server's Pod validation the admission chain can break: a container's request above
its limit (``ValidateResourceRequirements`` in ``pkg/apis/core/validation``), which a LimitRange's default limit
causes for a container that requests more (a launcher's compute container under a small default memory
limit). It runs after the mutating admission plugins and before the validating ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .pods import containers


def invalid(pod: Mapping[str, Any]) -> str:
    """The API server's field errors for requests above limits ("" when none), as its aggregate joins them."""
    errors: list[str] = []
    main, init = containers(pod)
    for kind, group in (("containers", main), ("initContainers", init)):
        for index, container in enumerate(group):
            for name in sorted(container.requests):
                limit = container.limits.get(name)
                request = container.requests[name]
                if limit is not None and request.cmp(limit) > 0:
                    errors.append(f'spec.{kind}[{index}].resources.requests: Invalid value: "{request}": '
                                  f"must be less than or equal to {name} limit of {limit}")
    return errors[0] if len(errors) == 1 else f"[{', '.join(errors)}]" if errors else ""
