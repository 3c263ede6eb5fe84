"""``python -m kubectl_instancetype``."""

from .cli import main

main()
