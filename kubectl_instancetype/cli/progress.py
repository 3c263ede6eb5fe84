"""Progress of long ``--write``, ``--check`` and ``--diff`` runs on standard error.

Nothing is said while a run is short. Once it has run for :data:`INTERVAL` seconds, a terminal gets a live
counter (one line, rewritten in place at most four times a second, cleared at the end); anything else (a
CI log) gets one line per interval. ``-q/--quiet`` or ``KUBECTL_INSTANCETYPE_PROGRESS=0`` turns it off.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

INTERVAL = 5.0  # seconds before the first line, and between two lines of a log
LIVE = 0.25  # seconds between two updates of a terminal's counter

T = TypeVar("T")


class Progress:
    """Counts what a run has done (VMs rendered, documents rewritten) and says it now and then."""

    def __init__(self, stream: TextIO | None = None, interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic, quiet: bool = False) -> None:
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self.clock = clock
        self.interval = INTERVAL if interval is None else interval
        self.start = clock()
        self.said = self.start
        self.rendered = 0
        self.rewritten = 0
        self.live = self.stream.isatty()
        self.shown = False
        self.enabled = not quiet and os.environ.get("KUBECTL_INSTANCETYPE_PROGRESS", "1") not in ("0", "false", "no")

    def counting(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, each counted as rendered."""
        for item in items:
            self.rendered += 1
            self.tick()
            yield item

    def document(self) -> None:
        """One more document rewritten."""
        self.rewritten += 1
        self.tick()

    def tick(self) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.interval or now - self.said < (LIVE if self.live else self.interval):
            return
        self.said = now
        line = f"kubectl-instancetype: {self.rendered} VMs rendered, {self.rewritten} documents rewritten " \
               f"({now - self.start:.0f} s)"
        self.stream.write(f"\r{line}\x1b[K" if self.live else line + "\n")
        self.shown = True
        self.stream.flush()

    def done(self) -> None:
        """Clear a terminal's counter (a log keeps its lines)."""
        if self.live and self.shown:
            self.stream.write("\r\x1b[K")
