"""``python -m kubectl_instancetype``."""

import gc

# main() turns the cycle collector off for the run (cli/__init__.py says why); turned off before the imports
# too, which would otherwise set it walking the new modules' objects some thirty times.
gc.disable()

from .cli import main  # noqa: E402  (after the collector is off)

main()
