"""Worker processes for proof obligations, each with its own z3.

Workers are started with `spawn`, never forked, so that no z3 context is ever shared
between processes. A worker that dies (z3 can crash on a rare input, or the machine can
run out of memory) costs only what it was doing, never the run: what was unfinished when
the pool broke runs again, one item per fresh worker, and an item that kills its worker
again gets the answer `on_death` gives (for an obligation: unknown, with the reason).

A command that will need workers can `start` them first, before it reads its input and
imports what it needs: a spawned worker takes about a third of a second to import z3 and
the prover, time that then overlaps the command's own start instead of following it.
`run_all` uses the started workers (and keeps them for the next call) until `stop`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from importlib import import_module
from multiprocessing import get_context
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PROVER = ("shahrazad.proofs.verify", "shahrazad.proofs.semantic")  # what workers import

_started: tuple[int, ProcessPoolExecutor] | None = None  # (jobs, the pool) after `start`


def _import(modules: Sequence[str]) -> None:
    for name in modules:
        import_module(name)


def start(jobs: int, modules: Sequence[str] = PROVER) -> None:
    """Start a pool of `jobs` spawned workers for the next `run_all` of as many jobs, and
    one worker in it now, importing `modules` (the others start as work comes: a second
    worker importing at once would compete for the cores with the command's own start, and
    some runs need only one). Nothing if workers are started already."""
    global _started
    if _started is None:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))
        pool.submit(_import, modules)  # a submission with no idle worker spawns one
        _started = jobs, pool


def stop() -> None:
    """Stop the started workers (after their imports, if they are still importing)."""
    global _started
    if _started is not None:
        _started[1].shutdown(wait=True, cancel_futures=True)
        _started = None


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
    context = get_context("spawn")
    if _started is not None and _started[0] == jobs:
        pool, kept = _started[1], True  # the started workers, kept for the next call
    else:
        pool, kept = ProcessPoolExecutor(max_workers=jobs, mp_context=context), False
    try:
        futures = {pool.submit(work, item): index for index, item in enumerate(items)}
        for future in as_completed(futures):
            record(futures[future], future.result())
    except BrokenProcessPool:
        if kept:  # broken for good: the next call starts its own
            _started = None
        kept = False  # run again below, one item per worker, what it did not finish
    finally:
        if not kept:
            pool.shutdown(wait=True)
    for index, item in enumerate(items):
        if index in results:
            continue
        try:
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as alone:
                record(index, alone.submit(work, item).result())
        except BrokenProcessPool as err:
            record(index, on_death(item, f"its worker process died ({err})"))
    return [results[index] for index in range(len(items))]
