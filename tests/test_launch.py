"""The console script starts the first proof worker only for a cold `verify` or `amend`."""

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
    root = Path(__file__).resolve().parent.parent
    script = ("import sys; from shahrazad.launch import main; "
              f"sys.argv = {['shahrazad', *args]!r}; sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=root, timeout=120, check=False)
    assert done.returncode == code, done.stderr
    assert {item["status"] for item in json.loads(done.stdout)["obligations"]} == {status}
    assert done.stderr == ""
