"""Every clause protected: removing any clause of a rulebook must break some invariant.

For each clause, the rulebook without it is verified at the clause's own event (the other
events do not run it), stopping at the first refuted obligation. A clause whose removal
breaks nothing is a gap of the catalog: either the clause does nothing, or the catalog does
not state what it promises. Gaps are named, never hidden.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from shahrazad.model.rulebook import Rulebook

from .verify import Obligation, Status, obligations, prove


@dataclass
class Protection:
    clause: str
    event: str
    caught_by: str | None
    status: str


def _order(ob: Obligation, clause: str) -> tuple[int, str]:
    """Try first the invariants that name the clause among those that should keep them."""
    return (0 if clause in ob.invariant.clauses else 1, ob.invariant.id)


def protect(rulebook: Rulebook, name: str, timeout: float = 5.0, bound: int = 3) -> Protection:
    """Remove one clause and look for the first invariant that breaks."""
    clause = rulebook.get(name)
    without = rulebook.remove(name)
    todo = sorted((ob for ob in obligations() if ob.event == clause.on),
                  key=lambda ob: _order(ob, name))
    unknown = False
    for ob in todo:
        result = prove(without, ob, timeout=timeout, bound=bound, minimise_cex=False)
        if result.status == Status.REFUTED:
            return Protection(name, clause.on, ob.invariant.id, "protected")
        unknown |= result.status in (Status.UNKNOWN, Status.FAULT)
    return Protection(name, clause.on, None, "unknown" if unknown else "gap")


def protection(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3,
               jobs: int = 1) -> list[Protection]:
    """For every clause: the invariant its removal breaks, or a gap."""
    names = rulebook.names()
    if jobs <= 1:
        return [protect(rulebook, n, timeout, bound) for n in names]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(protect, [rulebook] * len(names), names, [timeout] * len(names),
                             [bound] * len(names)))
