"""A dying worker costs one item, never the run (`proofs.pool`)."""

from __future__ import annotations

import os

from shahrazad.proofs.pool import run_all


def _square_or_die(n: int) -> int:
    if n == 3:
        os._exit(9)  # as a z3 crash would: no exception, the process is gone
    return n * n


def test_a_dying_worker_costs_only_its_item() -> None:
    done: list[int] = []
    out = run_all(_square_or_die, [1, 2, 3, 4, 5], jobs=2,
                  on_death=lambda n, why: -n if "died" in why else 0,
                  progress=lambda count, _: done.append(count))
    assert out == [1, 4, -3, 16, 25]
    assert done == [1, 2, 3, 4, 5]
