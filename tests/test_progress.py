"""Progress of long ``--write`` runs (issue 25): silent when short, a line per interval in a log, a live
counter on a terminal, nothing with ``KUBECTL_INSTANCETYPE_PROGRESS=0``."""

from __future__ import annotations

import io

import pytest

from kubectl_instancetype.cli.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(stream: io.StringIO, seconds: list[float]) -> Progress:
    clock = [0.0]
    progress = Progress(stream, interval=5.0, clock=lambda: clock[0])
    for t in seconds:
        clock[0] = t
        progress.rendered += 1
        progress.tick()
    return progress


def test_a_short_run_says_nothing() -> None:
    log = io.StringIO()
    _run(log, [0.5, 1, 4.9]).done()
    assert log.getvalue() == ""


def test_a_log_gets_one_line_per_interval() -> None:
    log = io.StringIO()
    _run(log, [1, 5.0, 6, 9.9, 10.0, 10.1]).done()
    assert log.getvalue() == ("kubectl-instancetype: 2 VMs rendered, 0 documents rewritten (5 s)\n"
                              "kubectl-instancetype: 5 VMs rendered, 0 documents rewritten (10 s)\n")


def test_a_terminal_gets_a_live_counter_cleared_at_the_end() -> None:
    tty = _Terminal()
    progress = _run(tty, [5.0, 5.1, 5.3])
    progress.document()
    progress.done()
    assert tty.getvalue() == ("\rkubectl-instancetype: 1 VMs rendered, 0 documents rewritten (5 s)\x1b[K"
                              "\rkubectl-instancetype: 3 VMs rendered, 0 documents rewritten (5 s)\x1b[K\r\x1b[K")


def test_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECTL_INSTANCETYPE_PROGRESS", "0")
    log = io.StringIO()
    _run(log, [5, 10, 15])
    assert log.getvalue() == ""


def test_quiet_says_nothing() -> None:
    log = io.StringIO()
    clock = [0.0]
    progress = Progress(log, interval=5.0, clock=lambda: clock[0], quiet=True)
    for t in (5, 10, 15):
        clock[0] = t
        progress.document()
    progress.done()
    assert log.getvalue() == ""


@pytest.mark.parametrize("quiet", [False, True])
def test_write_says_progress_unless_quiet(tmp_path, monkeypatch: pytest.MonkeyPatch, quiet: bool) -> None:
    from click.testing import CliRunner

    from kubectl_instancetype.cli import main_group, progress

    monkeypatch.setattr(progress, "INTERVAL", 0.0)  # every tick says a line
    monkeypatch.delenv("KUBECTL_INSTANCETYPE_PROGRESS", raising=False)
    vm = tmp_path / "vm.yaml"
    vm.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: a\nspec:\n"
                  "  instancetype:\n    name: u1.medium\n  template:\n    spec:\n      domain:\n        devices: {}\n")
    result = CliRunner().invoke(main_group, ["render", "--check", "-f", str(vm), *(["-q"] if quiet else [])])
    assert result.exit_code == 1, result.output
    said = [line for line in result.stderr.splitlines() if "VMs rendered" in line]
    assert (said == []) is quiet
