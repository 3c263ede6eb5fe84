"""Reporters: one run's problems and notices as text, CI annotations, JUnit XML or KRM results, and the
one place the exit status is decided (:mod:`.status`)."""

from .status import Checked, RunResult, exit_status

__all__ = ["Checked", "RunResult", "exit_status"]
