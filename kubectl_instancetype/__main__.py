"""``python -m kubectl_instancetype``."""

from .command import main

main()
