"""The console script starts the first proof worker only for a cold `verify` or `amend`, and
ends its process at once when the command is done, its exit handlers run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shahrazad.launch import workers_wanted

CORES = os.cpu_count() or 1


@pytest.fixture(autouse=True)
def _no_cache_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHAHRAZAD_CACHE", raising=False)


@pytest.mark.parametrize(("args", "jobs"), [
    (["verify"], CORES),
    (["amend", "a.toml", "--jobs", "3"], 3),
    (["verify", "--jobs=1", "--only", "x"], 1),
    (["verify", "--jobs", "0"], CORES),        # refused later by the command line proper
    (["verify", "--jobs"], CORES),
    (["verify", "--jobs", "²"], CORES),        # a digit to Python, no number to int()
    (["verify", "--cache", "d", "--no-cache"], CORES),
    (["verify", "--cache", "d"], None),        # a warm run may need no worker
    (["verify", "--cache=d"], None),
    (["verify", "--help"], None),
    (["simulate", "s.toml"], None),
    (["--version"], None),
    ([], None),
])
def test_which_command_lines_start_a_worker(args: list[str], jobs: int | None) -> None:
    assert workers_wanted(args) == jobs


def test_the_cache_variable_counts_as_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHAHRAZAD_CACHE", "/somewhere")
    assert workers_wanted(["verify"]) is None
    assert workers_wanted(["verify", "--no-cache"]) == CORES


def _console(script: str) -> subprocess.CompletedProcess[str]:
    """`python -c script` run from the project's root, its output captured."""
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=root, timeout=120, check=False)


@pytest.mark.parametrize(("args", "code", "status"), [
    (["verify", "--only", "end.cards-conserved", "--format", "json"], 0, "proved"),
    (["verify", "--amendment", "examples/amendments/728.5c-forgotten.toml", "--only",
      "end.commanders-return", "--format", "json"], 1, "refuted"),
])
def test_the_console_script_ends_cleanly(args: list[str], code: int, status: str) -> None:
    """The console script, its first worker started before the command line: the exit code
    is the command's, its output is whole, and nothing is said on standard error, even after
    the process has ended (every process holding the pipe, multiprocessing's resource
    tracker among them, has closed it when `run` returns: ended by `os._exit`, the command
    once left the tracker to warn of leaked semaphores)."""
    done = _console("import sys; from shahrazad.launch import main; "
                    f"sys.argv = {['shahrazad', *args]!r}; sys.exit(main())")
    assert done.returncode == code, done.stderr
    assert {item["status"] for item in json.loads(done.stdout)["obligations"]} == {status}
    assert done.stderr == ""


@pytest.mark.skipif(not os.path.exists("/bin/sh"), reason="closes standard error with sh")
def test_the_console_script_without_standard_error() -> None:
    """Started with standard error closed (`2>&-`, Python's `sys.stderr` None), a command
    still writes its report and exits with its own code: no progress bar is looked for and
    there is nothing to flush there (a traceback nobody could read, and exit 1, before)."""
    root = Path(__file__).resolve().parent.parent
    script = ("import sys; from shahrazad.launch import main; sys.argv = ['shahrazad', "
              "'verify', '--only', 'end.cards-conserved', '--format', 'json']; sys.exit(main())")
    done = subprocess.run(["/bin/sh", "-c", f'"{sys.executable}" -c "{script}" 2>&-'],
                          capture_output=True, text=True, cwd=root, timeout=120, check=False)
    assert done.returncode == 0
    assert {item["status"] for item in json.loads(done.stdout)["obligations"]} == {"proved"}


def test_the_console_script_runs_the_exit_handlers(tmp_path: Path) -> None:
    """Ended at once once its command is done (`launch.end`), the console script still runs
    what was registered to run at exit, multiprocessing's own clean-up among them."""
    mark = tmp_path / "ran"
    done = _console("import atexit, pathlib, sys; from shahrazad.launch import main; "
                    f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'at exit'); "
                    "sys.argv = ['shahrazad', '--version']; sys.exit(main())")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("shahrazad")
    assert mark.read_text() == "at exit"


def test_the_console_script_waits_for_a_thread_at_work(tmp_path: Path) -> None:
    """A thread other than the main one still at work when the command returns: the process
    ends as the interpreter ends it, after the thread, not at once."""
    mark = tmp_path / "done"
    done = _console(
        "import pathlib, sys, threading, time; import shahrazad.cli; "
        "from shahrazad.launch import main\n"
        "def work():\n    time.sleep(0.3)\n"
        f"    pathlib.Path({str(mark)!r}).write_text('finished')\n"
        "def command():\n    threading.Thread(target=work).start()\n    return 4\n"
        "shahrazad.cli.main = command\n"
        "sys.argv = ['shahrazad', '--version']; sys.exit(main())")
    assert (done.returncode, done.stderr) == (4, "")
    assert mark.read_text() == "finished"


# A command line run in a process of its own, which then says which of the modules that only
# the workers need it imported.
OWN_MODULES = """
import sys
from shahrazad.cli import main
if __name__ == "__main__":
    code = main(sys.argv[1:])
    print(code, sorted(m for m in sys.modules if m in ("z3", "rich")
                       or m in ("shahrazad.proofs.verdicts.prove", "shahrazad.proofs.encoding.symbolic")))
"""


@pytest.mark.parametrize(("args", "code"), [
    (["verify", "--only", "possible.affect"], 0),  # a witness and its replay come back
    (["verify", "--amendment", "examples/amendments/728.5c-forgotten.toml", "--only",
      "end.commanders-return", "--format", "json"], 1),  # a counterexample and its trace
])
def test_the_command_s_own_process_never_loads_z3(args: list[str], code: int) -> None:
    """The command hands its obligations to the workers and writes the reports from their
    answers without z3 or the prover (`proofs.solving.obligations`), which its workers import: in
    the command's own process they delayed the workers' first batches, and, under a pipe,
    rich's console did the same for a progress bar never shown (issue 9)."""
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", OWN_MODULES, *args], capture_output=True,
                          text=True, cwd=root, timeout=300, check=False)
    assert done.stdout.splitlines()[-1] == f"{code} []", done.stderr
