"""The ``kubectl-instancetype`` executable's entry point, and ``python -m kubectl_instancetype``'s.

It turns the cycle collector off before the command line's modules are imported: importing them makes many
objects and no garbage, and the collector would walk them some thirty times on the way (about a twentieth of
a one-VM run). :func:`.cli.main` keeps it off for the run and says why.
"""

from __future__ import annotations

import gc
from typing import Any


def main() -> Any:
    gc.disable()
    from .cli import main as run

    return run()
