"""The invariant catalog: every promise of the subgame and restart rules, written once.

`lang` is the term language the invariants are written in; `catalog` states each invariant
once, with its id, its clauses and the events it is about; `concrete` reads a term on
explicit situations; `structure` checks that a concrete situation has the structure the
catalog states (and the representation that the terms take for granted). The z3 reading of
the same terms is the prover's (`shahrazad.proofs.encoding.symbolic`).
"""
