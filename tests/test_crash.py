"""The entry point's last line of defence: a bug ends with status 4 and one line, never status 1 and a
traceback; closed or full standard streams end with one line and status 3 (issue #16, item 9), a pipe its
reader closed quietly with 141, as kubectl."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kubectl_instancetype.cli import EXIT_CODES_HELP, main
from kubectl_instancetype.errors import EXIT_BUG, EXIT_INPUT
from kubectl_instancetype.yamlio.load import _Builder

VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm1
spec:
  runStrategy: Halted
  instancetype:
    name: u1.medium
  template:
    spec:
      domain:
        devices: {}
"""


def test_an_unexpected_exception_is_a_bug_with_its_own_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_args: object) -> None:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(_Builder, "documents", broken)
    (tmp_path / "vm.yaml").write_text(VM)
    with pytest.raises(SystemExit) as exit_info:
        main(["render", "-f", str(tmp_path / "vm.yaml")])
    assert exit_info.value.code == EXIT_BUG
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "a bug in kubectl-instancetype" in err and "ZeroDivisionError: planted" in err
    assert "please report it at https://" in err and "Traceback" not in err


def test_status_4_is_documented() -> None:
    assert "4  a bug in kubectl-instancetype" in EXIT_CODES_HELP
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert "| 4 |" in readme


def _run(shell: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "vm.yaml").write_text(VM * 1 + "".join(f"---\n{VM.replace('vm1', f'vm{i}')}" for i in range(400)))
    exe = f"{sys.executable} -m kubectl_instancetype"
    return subprocess.run(["bash", "-c", shell.replace("EXE", exe)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("shell", [
    "EXE render -f vm.yaml >/dev/full",
    "EXE render -f vm.yaml -o json >/dev/full",
    "EXE render -f vm.yaml >&-",
    "EXE render -f - <&-",
])
def test_unusable_standard_streams_end_with_one_line_and_status_3(shell: str, tmp_path: Path) -> None:
    result = _run(shell, tmp_path)
    assert result.returncode == EXIT_INPUT, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "error:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_reader_that_closes_the_pipe_ends_the_run_quietly_with_141(tmp_path: Path) -> None:
    """``| head``: as ``kubectl kustomize … | head`` (killed by SIGPIPE, 141) and cat, no message (it said
    "error: cannot write the output: Broken pipe", status 3: a CI step with pipefail read it as bad input)."""
    result = _run("set -o pipefail; EXE render -f vm.yaml | head -c 10 >/dev/null", tmp_path)
    assert (result.returncode, result.stderr) == (141, "")


def test_closed_stderr_is_not_a_crash(tmp_path: Path) -> None:
    result = _run("EXE render -f vm.yaml 2>&- >/dev/null", tmp_path)
    assert result.returncode == 0


def test_an_interrupted_run_is_not_a_finding(tmp_path: Path) -> None:
    import signal
    import time

    (tmp_path / "vm.yaml").write_text(VM)
    proc = subprocess.Popen([sys.executable, "-c", "import time, sys\n"
                             "from kubectl_instancetype.yamlio.load import _Builder\n"
                             "def slow(*a, **k):\n    time.sleep(30)\n"
                             "_Builder.documents = slow\n"
                             "from kubectl_instancetype.cli import main\n"
                             f"main(['render', '-f', {str(tmp_path / 'vm.yaml')!r}])\n"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == "error: interrupted"


def _program(tmp_path: Path, *args: str, before: str = "") -> subprocess.CompletedProcess[str]:
    """``main()`` run as the program (no argv: it ends the process itself), with ``before`` run first."""
    (tmp_path / "vm.yaml").write_text(VM)
    code = (f"import sys\n{before}\nsys.argv = ['kubectl-instancetype', *{list(args)!r}]\n"
            "from kubectl_instancetype.cli import main\nmain()\nprint('not reached')\n")
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)


def test_the_program_ends_with_its_status_its_output_flushed_and_atexit_run(tmp_path: Path) -> None:
    say = "import atexit\natexit.register(lambda: print('at exit', file=sys.stderr))"
    done = _program(tmp_path, "render", "-f", "vm.yaml", "-o", "json", before=say)
    assert (done.returncode, done.stderr) == (0, "at exit\n")
    assert done.stdout.startswith("{") and done.stdout.endswith("}\n") and "not reached" not in done.stdout
    refused = _program(tmp_path, "render", "-f", "missing.yaml", before=say)
    assert (refused.returncode, refused.stderr) == (EXIT_INPUT, "missing.yaml:1:1: error: no such file or "
                                                                "directory\nat exit\n")


def test_the_program_leaves_a_running_thread_to_the_interpreter(tmp_path: Path) -> None:
    late = ("import threading, time\n"
            "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done', file=sys.stderr))).start()")
    done = _program(tmp_path, "render", "-f", "vm.yaml", before=late)
    assert (done.returncode, done.stderr) == (0, "thread done\n")
