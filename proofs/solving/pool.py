"""Worker processes for proof obligations, each with its own z3.

Workers are started with `spawn`, never forked, so that no z3 context is ever shared
between processes. A worker that dies (z3 can crash on a rare input, or the machine can
run out of memory) costs only what it was doing, never the run: what was unfinished when
the pool broke runs again, one item per fresh worker, and an item that kills its worker
again gets the answer `on_death` gives (for an obligation: unknown, with the reason).

A command that will need workers can `start` them first, before it reads its input and
imports what it needs: a spawned worker takes some 0.15 s to start and to import z3 and the
prover (2026-12-03), time that then overlaps the command's own start instead of following it.
`run_all` of as many jobs uses the started workers (and keeps them for the next call, also
from another thread) until `stop`, or until one of them dies (the pool is then broken, and
each later call starts its own). `cancel` stops them for good when the command is
interrupted: a call still waiting on them then raises instead of running its items again.

A worker whose command is gone (killed, say, by a CI job's timeout) ends within a second
(`spawned`, `_watch`): otherwise it would wait forever on a queue of which it holds both ends.
"""

from __future__ import annotations

import atexit
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from importlib import import_module
from multiprocessing import get_context
from threading import Event, Lock, Thread
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# What a command's first worker imports as it starts (`start`): every command decides
# obligations (`proofs.verdicts.prove`); `amend` also compares the rulebooks
# (`proofs.analyses.semantic`, 18 ms
# more of a worker's start, which `verify` need not wait for). Another worker imports what its
# first item needs, as it unpickles it.
PROVER = ("shahrazad.proofs.verdicts.prove",)
IMPORTS = {"verify": PROVER, "amend": (*PROVER, "shahrazad.proofs.analyses.semantic")}

_started: tuple[int, ProcessPoolExecutor] | None = None  # (jobs, the pool) after `start`
_lock = Lock()  # guards `_started`: two threads of one command may share the pool
_cancelled = Event()  # set by `cancel`, cleared by `stop`: run nothing again
POLL = 0.1  # seconds between two looks at `_cancelled` while waiting on workers
WATCH = 1.0  # seconds between a worker's two looks at whether its command is still there


def _watch(command: int) -> None:
    """In each worker, as it starts: a thread that ends the worker once its command, the
    process `command`, is gone (the worker then has another parent)."""
    def watch() -> None:
        while os.getppid() == command:
            time.sleep(WATCH)
        os._exit(1)

    Thread(target=watch, name="watch-command", daemon=True).start()


def _begin(command: int) -> None:
    """Each worker's start: it watches its command (`_watch`) and, let go, ends at once
    (`_quick_exit`)."""
    _watch(command)
    atexit.register(_quick_exit)


def _quick_exit() -> None:
    """A worker's last act, once the pool has let it go: its results are sent (the pool's
    queue writes each to the pipe as it is put), and multiprocessing has run its finalizers
    and flushed the standard streams; what is left is the interpreter freeing every object
    and module, some 45 ms for which the command waited on each worker (`stop`)."""
    os._exit(0)


def spawned(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` spawned workers, each watching this process (`_begin`)."""
    return ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                               initializer=_begin, initargs=(os.getpid(),))


def _import(modules: Sequence[str]) -> None:
    for name in modules:
        import_module(name)


def start(jobs: int, modules: Sequence[str] = PROVER) -> None:
    """Start a pool of `jobs` spawned workers for the next `run_all` of as many jobs, and
    one worker in it now, importing `modules` (the others start as work comes: a second
    worker importing at once would compete for the cores with the command's own start, and
    some runs need only one). Nothing if workers are started already."""
    global _started
    with _lock:
        if _started is None:
            pool = spawned(jobs)
            pool.submit(_import, modules)  # a submission with no idle worker spawns one
            _started = jobs, pool


def stop() -> None:
    """Stop the started workers (after their imports, or what they are deciding), at the
    end of a command."""
    global _started
    with _lock:
        started, _started = _started, None
    if started is not None:
        started[1].shutdown(wait=True, cancel_futures=True)
    _cancelled.clear()


def cancel() -> None:
    """The command is interrupted: what waits on the started workers gets nothing more,
    and nothing runs again (`stop` ends the cancellation, at the command's end)."""
    _cancelled.set()
    with _lock:
        started = _started
    if started is not None:
        started[1].shutdown(wait=False, cancel_futures=True)


def run_all(work: Callable[[T], R], items: Sequence[T], jobs: int,
            on_death: Callable[[T, str], R],
            progress: Callable[[int, R], None] | None = None) -> list[R]:
    """`work` of each item in `jobs` spawned processes; results in the items' order.
    `progress(done, result)` is called as each finishes."""
    results: dict[int, R] = {}

    def record(index: int, result: R) -> None:
        results[index] = result
        if progress is not None:
            progress(len(results), result)

    global _started
    with _lock:
        started = _started
    if started is not None and started[0] == jobs:
        pool, kept = started[1], True  # the started workers, kept for the next call
    else:
        pool, kept = spawned(jobs), False
    try:
        futures = {pool.submit(work, item): index for index, item in enumerate(items)}
        waiting = set(futures)
        while waiting:
            # Polled: a future that `cancel` cancels never wakes a waiter up.
            done, waiting = wait(waiting, timeout=POLL, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=futures.__getitem__):
                record(futures[future], future.result())
            if waiting and _cancelled.is_set():
                raise BrokenProcessPool("the command was interrupted")
    except BrokenProcessPool:
        if _cancelled.is_set():
            raise
        # Never silent, even when every item is then decided: a worker that died is a crash
        # of z3 (or of this tool), which `benchmarks/stress.py` counts.
        print("shahrazad: a worker process died; what it had not finished is run again, "
              "one item per process", file=sys.stderr, flush=True)
        if kept:  # broken for good: the next call starts its own
            with _lock:
                if _started is started:
                    _started = None
        kept = False  # run again below, one item per worker, what it did not finish
    finally:
        if not kept:
            pool.shutdown(wait=True, cancel_futures=_cancelled.is_set())
    for index, item in enumerate(items):
        if index in results:
            continue
        if _cancelled.is_set():
            raise BrokenProcessPool("the command was interrupted")
        try:
            with spawned(1) as alone:
                record(index, alone.submit(work, item).result())
        except BrokenProcessPool as err:
            record(index, on_death(item, f"its worker process died ({err})"))
    return [results[index] for index in range(len(items))]
