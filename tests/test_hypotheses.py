"""The structure hypotheses copied into each universe (`proofs.solving.queries.structure_hypotheses`)
are the ones the encoder builds there, made the same way every time."""

from __future__ import annotations

import pytest
import z3
from shahrazad.invariants.catalog import structure_terms
from shahrazad.invariants.lang import pre
from shahrazad.model.rulebook import official
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.symbolic import TermEncoder, Universe
from shahrazad.proofs.solving.obligations import conjuncts
from shahrazad.proofs.solving.queries import structure_hypotheses


@pytest.mark.parametrize("bound", [None, 2])
def test_each_copied_hypothesis_is_the_one_encoded_in_place(bound: int | None) -> None:
    universe = Universe(bound)
    t = encode_event(official(), "move", universe)
    enc = TermEncoder(universe, t.pre, t.post, t.binding)
    copied = structure_hypotheses(universe)
    terms = [c for h in structure_terms(pre) for c in conjuncts(h)]
    assert [term for term, _, _ in copied] == terms
    for term, _, formula in copied:
        solver = z3.Solver(ctx=universe.ctx)
        solver.add(formula != enc.encode(term))  # the same formula, up to z3's reading
        assert solver.check() == z3.unsat, term


def test_every_universe_gets_the_same_terms() -> None:
    first = [f.sexpr() for _, _, f in structure_hypotheses(Universe(None))]
    encode_event(official(), "restart", Universe(None))  # other work of the process between
    again = [f.sexpr() for _, _, f in structure_hypotheses(Universe(None))]
    assert first == again
