"""A dying worker costs one item, never the run (`proofs.solving.pool`)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from shahrazad.proofs.solving import pool
from shahrazad.proofs.solving.pool import run_all


def _square_or_die(n: int) -> int:
    if n == 3:
        os._exit(9)  # as a z3 crash would: no exception, the process is gone
    return n * n


def test_a_dying_worker_costs_only_its_item(capsys: pytest.CaptureFixture[str]) -> None:
    done: list[int] = []
    out = run_all(_square_or_die, [1, 2, 3, 4, 5], jobs=2,
                  on_death=lambda n, why: -n if "died" in why else 0,
                  progress=lambda count, _: done.append(count))
    assert out == [1, 4, -3, 16, 25]
    assert done == [1, 2, 3, 4, 5]
    # Said on standard error, even where the items run again are all decided.
    assert "a worker process died" in capsys.readouterr().err


def test_no_word_of_a_death_when_no_worker_died(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_all(_square_or_die, [1, 2], jobs=2, on_death=lambda n, why: 0) == [1, 4]
    assert "died" not in capsys.readouterr().err


def _pid(_: int) -> int:
    return os.getpid()


def test_started_workers_serve_each_call_until_stopped() -> None:
    pool.start(2)
    try:
        first = set(run_all(_pid, list(range(6)), jobs=2, on_death=lambda n, why: 0))
        second = set(run_all(_pid, list(range(6)), jobs=2, on_death=lambda n, why: 0))
        assert os.getpid() not in first | second  # never in this process
        # The same workers, kept between calls: two in all, whichever of them took the items
        # (on a loaded machine the first may take all six of a call before the second starts).
        assert len(first | second) <= 2
    finally:
        pool.stop()
    assert pool._started is None


def test_a_started_pool_that_breaks_is_not_used_again() -> None:
    pool.start(2)
    try:
        out = run_all(_square_or_die, [1, 2, 3, 4, 5], jobs=2,
                      on_death=lambda n, why: -n if "died" in why else 0)
        assert out == [1, 4, -3, 16, 25]
        assert pool._started is None
        assert run_all(_square_or_die, [4], jobs=2, on_death=lambda n, why: 0) == [16]
    finally:
        pool.stop()


def _slow_square(n: int) -> int:
    time.sleep(0.5)
    return n * n


def test_cancel_leaves_a_waiting_call_with_nothing_run_again() -> None:
    pool.start(2)
    outcome: list[object] = []

    def waiting() -> None:
        try:
            outcome.append(run_all(_slow_square, list(range(8)), jobs=2,
                                   on_death=lambda n, why: -1))
        except BaseException as err:  # what an interrupted command's other thread sees
            outcome.append(err)

    beside = threading.Thread(target=waiting)
    beside.start()
    time.sleep(0.2)
    pool.cancel()
    beside.join()
    pool.stop()
    assert len(outcome) == 1 and isinstance(outcome[0], BaseException)  # no list of answers
    assert not pool._cancelled.is_set() and pool._started is None
    assert run_all(_square_or_die, [2], jobs=1, on_death=lambda n, why: 0) == [4]



# A command that starts a worker, says the worker's process id, and waits.
COMMAND = """
import multiprocessing, time
from shahrazad.proofs.solving import pool
pool.start(1, modules=())
pool.run_all(abs, [0], jobs=1, on_death=lambda n, why: 0)
print(*[p.pid for p in multiprocessing.active_children()], flush=True)
time.sleep(120)
"""


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc (Linux)")
def test_a_worker_ends_when_its_command_is_killed() -> None:
    """A command killed outright (by a CI job's timeout, say) leaves no worker waiting
    forever for work (`pool._watch`); before, the worker held both ends of its queue and
    never saw the end of it."""
    command = subprocess.Popen([sys.executable, "-c", COMMAND], stdout=subprocess.PIPE,
                               text=True)
    assert command.stdout is not None
    workers = [int(pid) for pid in command.stdout.readline().split()]
    assert len(workers) == 1 and _running(workers[0])
    command.kill()
    command.wait()
    for _ in range(300):  # it looks once a second (`pool.WATCH`); up to 30 s on a busy machine
        if not any(_running(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert not any(_running(pid) for pid in workers)


LET_GO = """
import multiprocessing, sys
from shahrazad.proofs.solving import pool
workers = pool.spawned(1)
print(workers.submit(pow, 2, 10).result(), flush=True)
workers.submit(print, "written, not flushed", end="").result()
children = multiprocessing.active_children()
workers.shutdown(wait=True)
print(*[child.exitcode for child in children], flush=True)
"""


def test_a_worker_let_go_ends_at_once_with_its_output() -> None:
    """A worker the pool lets go ends without the interpreter's teardown (`_quick_exit`),
    its exit code 0 and what it wrote but had not flushed still written."""
    done = subprocess.run([sys.executable, "-c", LET_GO], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == ["1024", "written, not flushed0"]
