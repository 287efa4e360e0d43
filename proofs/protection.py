"""Every clause protected: removing any clause of a rulebook must break some invariant.

For each clause, the rulebook without it is verified at the clause's own event (the other
events do not run it), stopping at the first refuted obligation. A clause whose removal
breaks nothing is a gap of the catalog: either the clause does nothing, or the catalog does
not state what it promises. Gaps are named, never hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.rulebook import Rulebook

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


def protection(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3) -> list[Protection]:
    out: list[Protection] = []
    for clause in rulebook:
        without = rulebook.remove(clause.name)
        todo = sorted((ob for ob in obligations() if ob.event == clause.on),
                      key=lambda ob: _order(ob, clause.name))
        caught: Protection | None = None
        unknown = False
        for ob in todo:
            result = prove(without, ob, timeout=timeout, bound=bound, minimise_cex=False)
            if result.status == Status.REFUTED:
                caught = Protection(clause.name, clause.on, ob.invariant.id, "protected")
                break
            unknown |= result.status in (Status.UNKNOWN, Status.FAULT)
        out.append(caught or Protection(clause.name, clause.on, None,
                                        "unknown" if unknown else "gap"))
    return out
