"""Worker processes for proof obligations, each with its own z3.

Workers are started with `spawn`, never forked, so that no z3 context is ever shared
between processes. A worker that dies (z3 can crash on a rare input, or the machine can
run out of memory) costs only what it was doing, never the run: what was unfinished when
the pool broke runs again, one item per fresh worker, and an item that kills its worker
again gets the answer `on_death` gives (for an obligation: unknown, with the reason).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


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

    context = get_context("spawn")
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = {pool.submit(work, item): index for index, item in enumerate(items)}
            for future in as_completed(futures):
                record(futures[future], future.result())
    except BrokenProcessPool:
        pass  # run again below, one item per worker, what the broken pool did not finish
    for index, item in enumerate(items):
        if index in results:
            continue
        try:
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as alone:
                record(index, alone.submit(work, item).result())
        except BrokenProcessPool as err:
            record(index, on_death(item, f"its worker process died ({err})"))
    return [results[index] for index in range(len(items))]
